/**
 * Port: a token bucket per key (a tenant), shared by every process (decisions §6). The bucket
 * holds `limit` tokens and refills `limit` per `windowSeconds`; a request takes one.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer } from "effect"
import * as internal from "../internal/memory/rateLimiter.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Policy {
  readonly limit: number
  readonly windowSeconds: number
}

/**
 * What the IETF RateLimit headers report.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decision {
  readonly allowed: boolean
  readonly limit: number
  /** Whole tokens left after this request. */
  readonly remaining: number
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number
  /** When refused: whole seconds until one token is available (at least 1). */
  readonly retryAfterSeconds: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly take: (key: string, policy: Policy, now: Date) => Effect.Effect<Decision>
  /**
   * Takes `count` tokens that were already spent elsewhere (a process's own bucket,
   * `LocalRateLimiter`), allowed or not: the bucket may go below zero, a debt its refill pays
   * back before the next request is allowed. The tokens left.
   */
  readonly spend: (key: string, policy: Policy, count: number, now: Date) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class RateLimiter extends Context.Tag("@sigil/service/Access/RateLimiter")<RateLimiter, Service>() {}

const ratePerMs = (policy: Policy): number => policy.limit / (policy.windowSeconds * 1000)

/**
 * The token-bucket arithmetic, shared by every adapter so they all decide alike: given the
 * bucket's stored tokens and last update, the decision and the new stored state. (The
 * Postgres adapter runs the same operations, in the same order, in one SQL statement; see
 * `refillRatePerMs` and `decisionOf`.)
 *
 * @since 0.1.0
 * @category combinators
 */
export const decide = (
  bucket: { readonly tokens: number; readonly updatedAt: Date } | undefined,
  policy: Policy,
  now: Date
): { readonly decision: Decision; readonly tokens: number; readonly updatedAt: Date } => {
  const elapsed = bucket === undefined ? 0 : Math.max(0, now.getTime() - bucket.updatedAt.getTime())
  const available = bucket === undefined ? policy.limit : Math.min(policy.limit, bucket.tokens + elapsed * ratePerMs(policy))
  const allowed = available >= 1
  const tokens = allowed ? available - 1 : available
  return { decision: decisionOf(policy, allowed, tokens), tokens, updatedAt: now }
}

/**
 * `spend`'s arithmetic: the bucket refilled to `now`, less `count`.
 *
 * @since 0.1.0
 * @category combinators
 */
export const spent = (
  bucket: { readonly tokens: number; readonly updatedAt: Date } | undefined,
  policy: Policy,
  count: number,
  now: Date
): { readonly tokens: number; readonly updatedAt: Date } => {
  const elapsed = bucket === undefined ? 0 : Math.max(0, now.getTime() - bucket.updatedAt.getTime())
  const available = bucket === undefined ? policy.limit : Math.min(policy.limit, bucket.tokens + elapsed * ratePerMs(policy))
  return { tokens: available - count, updatedAt: now }
}

/**
 * Tokens regained per millisecond: what `decide` multiplies the elapsed time by.
 *
 * @since 0.1.0
 * @category combinators
 */
export const refillRatePerMs: (policy: Policy) => number = ratePerMs

/**
 * The decision of a take that left `tokens` in the bucket (when refused, the bucket held
 * exactly `tokens`: nothing was taken).
 *
 * @since 0.1.0
 * @category combinators
 */
export const decisionOf = (policy: Policy, allowed: boolean, tokens: number): Decision => ({
  allowed,
  limit: policy.limit,
  remaining: Math.floor(tokens),
  resetSeconds: Math.ceil((policy.limit - tokens) / ratePerMs(policy) / 1000),
  retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / ratePerMs(policy) / 1000))
})

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<RateLimiter, never, MemoryStore> = Layer.effect(RateLimiter, internal.make(decide, spent))
