/**
 * What anyone may call without a key is limited per client address (`ClientLimiter`, in the
 * process): past the limit a request is 429 `rate_limited` with `Retry-After` and the RateLimit
 * headers, in the contract's error shape; other clients are not affected, nor are requests
 * with a key (their tenant's own limit applies). Behind a trusted proxy the client is the last
 * `X-Forwarded-For` entry, which also decides IP allowlists.
 */
import * as ClientLimiter from "@sigil/service/Access/ClientLimiter"
import { assert, describe, it } from "vitest"
import { expectError } from "../testkit/blackbox/issuerApiSuite.js"
import { forFile } from "../testkit/blackbox/harness.js"

describe("the per-client limit of anonymous requests", () => {
  const file = forFile()

  it("a client past its limit gets 429 with Retry-After; another client, and keyed requests, do not", async () => {
    const request = await file.h.issuer({ publicLimit: ClientLimiter.make({ perMinute: 3, maxClients: 100 }) })
    for (let i = 0; i < 3; i++) assert.notStrictEqual((await request("GET", "/v1/openapi.json")).status, 429)
    const refused = await request("GET", "/v1/openapi.json")
    expectError(refused, 429, "rate_limited")
    const retryAfter = Number(refused.headers.get("retry-after"))
    assert.isTrue(retryAfter >= 1 && retryAfter <= 20, `Retry-After ${retryAfter}`)
    assert.match(refused.headers.get("ratelimit") ?? "", /r=0/)
    // Anything without a key counts, unknown paths too.
    expectError(await request("GET", "/c/crd_00000000000000000000000000"), 429, "rate_limited")
    // A request with a key is the tenant's to count, not the address's.
    assert.strictEqual((await request("GET", "/v1/tenants/me", { key: file.tenant.key })).status, 200)
  })

  it("behind a trusted proxy each client has its own bucket; without trust, X-Forwarded-For is ignored", async () => {
    const trusting = await file.h.issuer({ publicLimit: ClientLimiter.make({ perMinute: 2, maxClients: 100 }), trustProxy: true })
    const from = (address: string) => ({ headers: { "x-forwarded-for": `198.51.100.7, ${address}` } })
    for (let i = 0; i < 2; i++) assert.notStrictEqual((await trusting("GET", "/v1/openapi.json", from("203.0.113.1"))).status, 429)
    expectError(await trusting("GET", "/v1/openapi.json", from("203.0.113.1")), 429, "rate_limited")
    assert.notStrictEqual((await trusting("GET", "/v1/openapi.json", from("203.0.113.2"))).status, 429)

    const untrusting = await file.h.issuer({ publicLimit: ClientLimiter.make({ perMinute: 2, maxClients: 100 }) })
    for (let i = 0; i < 2; i++) await untrusting("GET", "/v1/openapi.json", from(`203.0.113.${10 + i}`))
    expectError(await untrusting("GET", "/v1/openapi.json", from("203.0.113.99")), 429, "rate_limited")
  })

  it("ClientLimiter: a full bucket of a minute's requests, refilled over the minute, one per address", () => {
    const limiter = ClientLimiter.make({ perMinute: 60, maxClients: 2 })
    const t0 = new Date("2026-11-25T00:00:00Z")
    for (let i = 0; i < 60; i++) assert.isTrue(limiter.take("a", t0).allowed)
    const refused = limiter.take("a", t0)
    assert.isFalse(refused.allowed)
    assert.strictEqual(refused.retryAfterSeconds, 1)
    assert.isTrue(limiter.take("a", new Date(t0.getTime() + 1_000)).allowed, "one more after a second")
    assert.isTrue(limiter.take("b", t0).allowed)
    // A third address pushes out the oldest bucket: "a" starts full again (at worst one more burst).
    assert.isTrue(limiter.take("c", t0).allowed)
    assert.isTrue(limiter.take("a", t0).allowed)
  })
})
