/**
 * A token bucket per client address for what anyone may call without a key (verification
 * pages, DID documents, status lists, credentials' JSON, the devnet's JSON-RPC, the API's own
 * description): no anonymous caller can take the server's CPU from the rest.
 *
 * Kept in the process, not the store: an anonymous request must stay cheap, and a store write
 * per request is what it must not cost. So each process counts alone, and behind N processes
 * a client gets up to N times the limit (docs/decisions/serving.md). The buckets of at most
 * `maxClients` addresses are kept, the oldest out first (a forgotten client starts with a full
 * bucket: at worst one more burst).
 *
 * @since 0.1.0
 */
import * as BoundedMap from "@sigil/core/BoundedMap"
import { decide, type Decision, type Policy } from "./RateLimiter.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Requests per minute per client address; the bucket holds as many (a minute's burst). */
  readonly perMinute: number
  readonly maxClients: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_OPTIONS: Options = { perMinute: 1_200, maxClients: 100_000 }

/**
 * @since 0.1.0
 * @category models
 */
export interface ClientLimiter {
  readonly policy: Policy
  /** Takes a token of `client`'s bucket. */
  readonly take: (client: string, now: Date) => Decision
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = DEFAULT_OPTIONS): ClientLimiter => {
  const policy: Policy = { limit: options.perMinute, windowSeconds: 60 }
  const buckets = BoundedMap.make<string, { readonly tokens: number; readonly updatedAt: Date }>(options.maxClients)
  return {
    policy,
    take: (client, now) => {
      const next = decide(buckets.get(client), policy, now)
      buckets.set(client, { tokens: next.tokens, updatedAt: next.updatedAt })
      return next.decision
    }
  }
}
