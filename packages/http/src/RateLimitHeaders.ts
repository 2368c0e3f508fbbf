/**
 * Rate limiting (decisions §6): a token bucket per tenant, shared by every process through the
 * `RateLimiter` port, refilled at the plan's requests per minute; and the IETF headers that
 * report it (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "default";q=120;w=60`
 * and `RateLimit: "default";r=<remaining>;t=<seconds until full>` on every authenticated
 * response, plus `Retry-After` on a 429.
 *
 * @since 0.1.0
 */
import * as Plans from "@sigil/service/Tenants/Plans"
import type { Decision, Policy } from "@sigil/service/Access/RateLimiter"

/**
 * The policy of a plan: its requests per minute, over 60 s.
 *
 * @since 0.1.0
 * @category policies
 */
export const policyFor = (plan: Plans.Plan): Policy => ({
  limit: Plans.limits[plan].requestsPerMinute,
  windowSeconds: 60
})

/**
 * The name of the one policy, as the headers quote it.
 *
 * @since 0.1.0
 * @category constants
 */
export const POLICY_NAME = "default"

/**
 * `RateLimit-Policy` and `RateLimit` for a decision.
 *
 * @since 0.1.0
 * @category headers
 */
export const headers = (policy: Policy, decision: Decision): Record<string, string> => ({
  "ratelimit-policy": `"${POLICY_NAME}";q=${policy.limit};w=${policy.windowSeconds}`,
  ratelimit: `"${POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`
})

/**
 * `Retry-After` of a refused request: whole seconds until one request is allowed.
 *
 * @since 0.1.0
 * @category headers
 */
export const retryAfter = (decision: Decision): Record<string, string> => ({
  "retry-after": String(decision.retryAfterSeconds)
})
