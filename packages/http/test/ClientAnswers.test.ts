/**
 * Requests Node's HTTP server would answer itself, without the contract's body, or not at all,
 * or would hand to the app and then answer 400 (found by the property of the whole API,
 * `apiProperty.ts`): each gets the contract's error body, and a refused one changes nothing.
 */
import { describe, expect, it } from "vitest"
import * as Fixtures from "../testkit/blackbox/fixtures.js"
import { forFile } from "../testkit/blackbox/harness.js"
import { expectError } from "../testkit/blackbox/issuerApiSuite.js"
import * as Wire from "../testkit/blackbox/wire.js"

describe("answers Node would give", () => {
  const file = forFile()

  const auth = (): ReadonlyArray<readonly [string, string]> => [["Authorization", `Bearer ${file.tenant.key}`]]

  it("an HTTP/1.1 request without Host: 400 malformed_request (Node's was an empty 400), on both channels", async () => {
    const before = await file.h.run(Fixtures.snapshot)
    expectError(await Wire.send(file.h.baseUrl, { method: "GET", target: "/v1/tenants/me", headers: auth(), noHost: true }), 400, "malformed_request")
    const admin = await Wire.send(file.h.adminUrl, {
      method: "POST",
      target: "/admin/tenants",
      headers: [["Authorization", `Bearer ${file.h.adminToken}`], ["Content-Type", "application/json"]],
      body: Buffer.from(JSON.stringify({ name: "No host", plan: "starter" })),
      noHost: true
    })
    expectError(admin, 400, "malformed_request")
    expect(await file.h.run(Fixtures.snapshot)).toEqual(before)
  })

  it("Transfer-Encoding not ending in chunked: 400 malformed_request before the app runs the request", async () => {
    const hook = await file.h.request("POST", "/v1/webhooks", { key: file.tenant.key, body: Fixtures.webhook() })
    expect(hook.status).toBe(201)
    const key = await file.h.tenant("starter")
    const before = await file.h.run(Fixtures.snapshot)
    // Before, Node handed these to the app, which deleted and revoked, then answered 400.
    for (const codings of ["gzip", "chunked, gzip", "identity"]) {
      const deleted = await Wire.send(file.h.baseUrl, {
        method: "DELETE",
        target: `/v1/webhooks/${hook.body.id}`,
        headers: [...auth(), ["Transfer-Encoding", codings]]
      })
      expectError(deleted, 400, "malformed_request")
      const revoked = await Wire.send(file.h.adminUrl, {
        method: "POST",
        target: `/admin/keys/${key.keyId}/revoke`,
        headers: [["Authorization", `Bearer ${file.h.adminToken}`], ["Transfer-Encoding", codings]]
      })
      expectError(revoked, 400, "malformed_request")
    }
    expect(await file.h.run(Fixtures.snapshot)).toEqual(before)
    // Chunked is a body like any other.
    const chunked = await Wire.send(file.h.baseUrl, {
      method: "POST",
      target: "/v1/webhooks",
      headers: [...auth(), ["Content-Type", "application/json"]],
      body: Buffer.from(JSON.stringify(Fixtures.webhook())),
      chunked: 7
    })
    expect(chunked.status).toBe(201)
  })

  it("an Expect other than 100-continue is ignored (Node's was an empty 417)", async () => {
    const reply = await Wire.send(file.h.baseUrl, { method: "GET", target: "/v1/tenants/me", headers: [...auth(), ["Expect", "something"]] })
    expect(reply.status).toBe(200)
    expect(reply.body.id).toBe(file.tenant.id)
  })

  it("CONNECT: 404 route_not_found (Node closed the connection unanswered)", async () => {
    expectError(await Wire.send(file.h.baseUrl, { method: "CONNECT", target: "/v1/batches", headers: auth() }), 404, "route_not_found")
    expectError(await Wire.send(file.h.adminUrl, { method: "CONNECT", target: "example.org:443", headers: [] }), 404, "route_not_found")
  })
})
