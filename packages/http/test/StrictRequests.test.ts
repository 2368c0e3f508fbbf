/**
 * Requests the API refuses rather than guesses at (issue #18, defect 5), each answered with the
 * contract's error shape and changing nothing:
 *
 * - a body that is not `application/json` (`text/plain`, a form, none declared): 415
 *   `unsupported_media_type`;
 * - two `Authorization` or two `Idempotency-Key` headers: 400 `invalid_field_format` naming the
 *   header (Node keeps the first `Authorization` and joins `Idempotency-Key`s: either silently
 *   picks one); the administrative channel alike;
 * - dates out of their sane ranges: `issuanceDate` of year 0 or 9999, an erasure `verified_at`
 *   in year 0 or in the future.
 */
import { request as httpRequest } from "node:http"
import { describe, expect, it } from "vitest"
import { expectError } from "../testkit/blackbox/issuerApiSuite.js"
import * as Fixtures from "../testkit/blackbox/fixtures.js"
import { forFile, type Reply } from "../testkit/blackbox/harness.js"

/** A request whose header values may repeat (an array is sent as one header line per value). */
const send = (baseUrl: string, method: string, path: string, headers: Record<string, string | Array<string>>, body?: string) =>
  new Promise<Reply>((resolve, reject) => {
    const url = new URL(`${baseUrl}${path}`)
    const req = httpRequest({ method, host: url.hostname, port: url.port, path: url.pathname, headers, agent: false }, (res) => {
      const parts: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => parts.push(chunk))
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8")
        const responseHeaders = new Headers()
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") responseHeaders.set(k, v)
        resolve({ status: res.statusCode!, headers: responseHeaders, text, body: text === "" ? undefined : JSON.parse(text) })
      })
    })
    req.on("error", reject)
    req.end(body)
  })

describe("strict requests", () => {
  const file = forFile()

  /** Runs `act` and asserts that it changed nothing the API can change. */
  const unchanged = async (act: () => Promise<void>) => {
    const before = await file.h.run(Fixtures.snapshot)
    await act()
    expect(await file.h.run(Fixtures.snapshot)).toEqual(before)
  }

  it("a JSON body sent as text/plain, as a form or with no type: 415 unsupported_media_type", async () => {
    const body = JSON.stringify(Fixtures.batch())
    await unchanged(async () => {
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/xml", "application/json; charset=latin1", undefined]) {
        const headers: Record<string, string> = { authorization: `Bearer ${file.tenant.key}` }
        if (type !== undefined) headers["content-type"] = type
        const reply = await send(file.h.baseUrl, "POST", "/v1/batches", headers, body)
        expectError(reply, 415, "unsupported_media_type")
      }
      // PATCH and the other POSTs too, and with an Idempotency-Key (nothing stored for it).
      const patched = await send(file.h.baseUrl, "PATCH", "/v1/tenants/me", { authorization: `Bearer ${file.tenant.key}`, "content-type": "text/plain" }, JSON.stringify(Fixtures.tenantUpdate))
      expectError(patched, 415, "unsupported_media_type")
      const keyed = await send(file.h.baseUrl, "POST", "/v1/webhooks", {
        authorization: `Bearer ${file.tenant.key}`,
        "content-type": "text/plain",
        "idempotency-key": "k-415"
      }, JSON.stringify(Fixtures.webhook()))
      expectError(keyed, 415, "unsupported_media_type")
    })
    // The same key with the right type runs: the refused attempt left no record behind.
    const ok = await file.h.request("POST", "/v1/webhooks", { key: file.tenant.key, body: Fixtures.webhook(), headers: { "idempotency-key": "k-415" } })
    expect(ok.status).toBe(201)
    // JSON with its parameters, in any case, is JSON.
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"]) {
      const reply = await send(file.h.baseUrl, "POST", "/v1/batches", { authorization: `Bearer ${file.tenant.key}`, "content-type": type }, JSON.stringify(Fixtures.batch()))
      expect(reply.status, type).toBe(202)
    }
  })

  it("an anonymous request with the wrong type is 401 first: nothing is said before the key", async () => {
    const reply = await send(file.h.baseUrl, "POST", "/v1/batches", { "content-type": "text/plain" }, "{}")
    expectError(reply, 401, "api_key_missing")
  })

  it("two Authorization headers: 400 invalid_field_format naming the header, whatever the keys", async () => {
    const other = await file.h.tenant("industry")
    await unchanged(async () => {
      for (const pair of [[file.tenant.key, other.key], [file.tenant.key, file.tenant.key], [file.tenant.key, "nonsense"]]) {
        const reply = await send(file.h.baseUrl, "POST", "/v1/batches", {
          authorization: pair.map((k) => `Bearer ${k}`),
          "content-type": "application/json"
        }, JSON.stringify(Fixtures.batch()))
        expectError(reply, 400, "invalid_field_format")
        expect(reply.body.error.message).toContain("Authorization")
      }
    })
  })

  it("two Idempotency-Key headers: 400 invalid_field_format naming the header", async () => {
    await unchanged(async () => {
      const reply = await send(file.h.baseUrl, "POST", "/v1/batches", {
        authorization: `Bearer ${file.tenant.key}`,
        "content-type": "application/json",
        "idempotency-key": ["a", "b"]
      }, JSON.stringify(Fixtures.batch()))
      expectError(reply, 400, "invalid_field_format")
      expect(reply.body.error.message).toContain("Idempotency-Key")
    })
  })

  it("the administrative channel: 415 for a body not sent as JSON, 400 for two Authorization headers; nosniff, no-store", async () => {
    await unchanged(async () => {
      const body = JSON.stringify({ name: "Typeless University", plan: "starter" })
      const typed = await send(file.h.adminUrl, "POST", "/admin/tenants", { authorization: `Bearer ${file.h.adminToken}`, "content-type": "text/plain" }, body)
      expectError(typed, 415, "unsupported_media_type")
      const twice = await send(file.h.adminUrl, "POST", "/admin/tenants", {
        authorization: [`Bearer ${file.h.adminToken}`, "Bearer other"],
        "content-type": "application/json"
      }, body)
      expectError(twice, 400, "invalid_field_format")
      expect(twice.body.error.message).toContain("Authorization")
      expect(twice.headers.get("x-content-type-options")).toBe("nosniff")
      expect(twice.headers.get("cache-control")).toBe("no-store")
    })
  })

  it("issuanceDate of year 0 or 9999 is refused; 1900 and 2199 pass", async () => {
    await unchanged(async () => {
      for (const date of ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1899-12-31T23:59:59Z", "2200-01-01T00:00:00Z"]) {
        const body = { credentials: [{ ...Fixtures.credential(), issuanceDate: date }] }
        const reply = await file.h.request("POST", "/v1/batches", { key: file.tenant.key, body })
        expectError(reply, 400, "invalid_field_format")
        expect(reply.body.error.message).toContain("credentials[0].issuanceDate")
      }
    })
    for (const date of ["1900-01-01T00:00:00Z", "2199-12-31T23:59:59Z"]) {
      const body = { credentials: [{ ...Fixtures.credential(), issuanceDate: date }] }
      expect((await file.h.request("POST", "/v1/batches", { key: file.tenant.key, body })).status).toBe(202)
    }
  })

  it("an erasure verified in year 0, in 1999 or tomorrow is refused, and erases nothing", async () => {
    const created = await file.h.request("POST", "/v1/batches", { key: file.tenant.key, body: Fixtures.batch() })
    expect(created.status).toBe(202)
    const [credentialId] = await file.h.run(Fixtures.credentialIds(created.body.id))
    const path = `/v1/credentials/${credentialId}/erase`
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    await unchanged(async () => {
      for (const verified_at of ["0000-01-01T00:00:00Z", "1999-12-31T23:59:59Z", tomorrow]) {
        const reply = await file.h.request("POST", path, { key: file.tenant.key, body: { requester: "recipient", verified_at } })
        expectError(reply, 400, "invalid_field_format")
        expect(reply.body.error.message).toContain("verified_at")
      }
    })
    const erased = await file.h.request("POST", path, { key: file.tenant.key, body: Fixtures.erasure })
    expect(erased.status).toBe(200)
  })
})
