/**
 * `RateLimiter` in memory: the same `decide` as every adapter, over a map of buckets.
 *
 * @internal
 */
import { Effect } from "effect"
import type { decide as Decide, Service, spent as Spent } from "../../Access/RateLimiter.js"
import { MemoryStore } from "../../Transactor.js"
import { locked, tables } from "./store.js"

interface Bucket {
  readonly tokens: number
  readonly updatedAt: Date
}

/**
 * `decide` comes from the port module, passed in to keep the import graph acyclic.
 *
 * @internal
 */
export const make = (decide: typeof Decide, spent: typeof Spent): Effect.Effect<Service, never, MemoryStore> =>
  Effect.map(MemoryStore, (store) => {
    const buckets = store.table(tables.rateLimits, () => new Map<string, Bucket>())
    return {
      take: (key, policy, now) =>
        locked(store, () => {
          const next = decide(buckets.get(key), policy, now)
          buckets.set(key, { tokens: next.tokens, updatedAt: next.updatedAt })
          return next.decision
        }),
      spend: (key, policy, count, now) =>
        locked(store, () => {
          const next = spent(buckets.get(key), policy, count, now)
          buckets.set(key, next)
          return next.tokens
        })
    }
  })
