import { describe, expect, it } from "vitest"
import * as ApiErrors from "../src/ApiErrors.js"
import * as Errors from "../src/Errors.js"
import * as RateLimitHeaders from "../src/RateLimitHeaders.js"

describe("ApiErrors", () => {
  it("one class per code, each with its status", () => {
    const codes = ApiErrors.all.map((c) => ApiErrors.codeOf(c))
    expect(new Set(codes).size).toBe(codes.length)
    const status = (code: ApiErrors.Code) =>
      ApiErrors.statusOf(ApiErrors.make(ApiErrors.classOf(code), { message: "m", request_id: "r", batch_id: "bat_1" }))
    expect(status("invalid_json")).toBe(400)
    expect(status("ip_not_allowed")).toBe(401)
    expect(status("tier_required")).toBe(403)
    expect(status("route_not_found")).toBe(404)
    expect(status("idempotency_key_in_use")).toBe(409)
    expect(status("payload_too_large")).toBe(413)
    expect(status("signing_key_unavailable")).toBe(422)
    expect(status("rate_limited")).toBe(429)
    expect(status("internal_error")).toBe(500)
  })
})

describe("Errors.describeDefect", () => {
  it("keeps the message and stack, never API keys or bearer tokens", () => {
    const error = new Error("failed for sigil_live_3mJr7AoUXx2WqdBq7sY9 with Authorization: Bearer abc.def", {
      cause: new Error("inner sigil_test_ZZZ111")
    })
    const text = Errors.describeDefect(error)
    expect(text).toContain("failed for sigil_live_[redacted]")
    expect(text).toContain("Bearer [redacted]")
    expect(text).toContain("caused by: Error: inner sigil_test_[redacted]")
    expect(text).not.toMatch(/3mJr7|abc\.def|ZZZ111/)
  })

  it("describes non-errors by their type only (a request's inspection holds its body)", () => {
    expect(Errors.describeDefect({ _tag: "RequestError", body: "secret" })).toBe("a non-Error value (RequestError)")
    expect(Errors.describeDefect("sigil_test_abc")).toBe("a non-Error value (string)")
  })
})

describe("RateLimitHeaders", () => {
  it("formats the IETF draft's headers", () => {
    const policy = RateLimitHeaders.policyFor("institution")
    expect(policy).toEqual({ limit: 600, windowSeconds: 60 })
    const decision = { allowed: false, limit: 600, remaining: 0, resetSeconds: 60, retryAfterSeconds: 1 }
    expect(RateLimitHeaders.headers(policy, decision)).toEqual({
      "ratelimit-policy": "\"default\";q=600;w=60",
      ratelimit: "\"default\";r=0;t=60"
    })
    expect(RateLimitHeaders.retryAfter(decision)).toEqual({ "retry-after": "1" })
  })
})
