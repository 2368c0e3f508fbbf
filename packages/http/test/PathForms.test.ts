/**
 * The router matches `/V1/…`, `//v1/…` and `/%761/…` as `/v1/…`; the pipeline decides on the
 * same form, so such a request is authenticated like any other (found by the whole-API
 * property test: they answered 500 "served without its request pipeline").
 */
import { assert, describe, it } from "vitest"
import { expectError } from "../testkit/blackbox/issuerApiSuite.js"
import { forFile } from "../testkit/blackbox/harness.js"

describe("paths the router takes for /v1", () => {
  const file = forFile()

  it("without a key: 401; with one: answered as /v1/tenants/me", async () => {
    for (const path of ["/V1/tenants/me", "//v1/tenants/me", "/%761/tenants/me", "/v1//tenants/ME"]) {
      const anonymous = await file.h.request("GET", path)
      expectError(anonymous, 401, "api_key_missing")
      const keyed = await file.h.request("GET", path, { key: file.tenant.key })
      assert.include([200, 404], keyed.status, `${path}: ${keyed.status} ${keyed.text}`)
      assert.isBelow(keyed.status, 500)
    }
  })
})
