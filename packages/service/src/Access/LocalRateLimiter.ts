/**
 * A tenant's rate limit without a store write per request: each process decides from a bucket
 * of its own and reconciles it with the shared one (the `RateLimiter` below, one row per tenant
 * in Postgres, decisions §6) every `syncMs`, writing what it spent since in one `spend` and
 * taking back the shared balance, which every process's spending has lowered.
 *
 * - A tenant's first request in a process (or the first after `idleMs` without one, or after
 *   two intervals in which this process had nothing to reconcile for it) takes its token from
 *   the shared bucket, as before: a process never decides from a balance older than that.
 * - Between reconciliations each process spends from the balance it last saw. With N processes
 *   serving one tenant, that tenant can therefore go over its limit by what the other N − 1
 *   processes allow in one interval: at most (N − 1) × (the balance they saw + the refill of
 *   one interval); the debt it runs up is then paid back by the refill before the tenant is
 *   allowed again. With one process the limit is exact up to the same interval's refill.
 * - A SIGKILL loses at most one interval's spending of that process (never a refusal).
 *
 * docs/decisions/serving.md.
 *
 * @since 0.1.0
 */
import * as BoundedMap from "@sigil/core/BoundedMap"
import { Duration, Effect, Layer, Schedule } from "effect"
import { decide, type Policy, RateLimiter, type Service } from "./RateLimiter.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** How often spending is written to the shared bucket. */
  readonly syncMs: number
  /** A tenant without a request for this long starts again from the shared bucket. */
  readonly idleMs: number
  readonly maxTenants: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_OPTIONS: Options = { syncMs: 1_000, idleMs: 60_000, maxTenants: 100_000 }

interface Local {
  tokens: number
  updatedAt: Date
  /** Spent here since the last reconciliation. */
  pending: number
  readonly policy: Policy
  lastUsed: number
  /** When the balance was last taken from the shared bucket. */
  syncedAt: number
}

/**
 * The limiter over `shared`, and the reconciliation to run every `syncMs`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (shared: Service, options: Options = DEFAULT_OPTIONS) => {
  const locals = BoundedMap.make<string, Local>(options.maxTenants)
  const limiter: Service = {
    take: (key, policy, now) =>
      Effect.suspend(() => {
        const local = locals.get(key)
        const fresh = local !== undefined && local.policy.limit === policy.limit &&
          local.policy.windowSeconds === policy.windowSeconds && now.getTime() - local.lastUsed <= options.idleMs &&
          now.getTime() - local.syncedAt <= 2 * options.syncMs
        if (!fresh) {
          // From the shared bucket (a new or idle tenant, or a balance no reconciliation has
          // refreshed lately: other processes may have spent it): its decision, and its
          // balance to go on with, less what this process spent and has yet to write.
          return Effect.tap(shared.take(key, policy, now), (decision) =>
            Effect.sync(() => {
              const pending = local?.pending ?? 0
              locals.delete(key)
              locals.set(key, { tokens: decision.remaining - pending, updatedAt: now, pending, policy, lastUsed: now.getTime(), syncedAt: now.getTime() })
            }))
        }
        const next = decide({ tokens: local.tokens, updatedAt: local.updatedAt }, policy, now)
        local.tokens = next.tokens
        local.updatedAt = next.updatedAt
        local.lastUsed = now.getTime()
        if (next.decision.allowed) local.pending++
        return Effect.succeed(next.decision)
      }),
    spend: shared.spend
  }
  /** Writes each tenant's spending since the last time, and takes back the shared balance. */
  const reconcile = (now: Date) =>
    Effect.forEach(
      [...locals].filter(([, local]) => local.pending > 0),
      ([key, local]) => {
        const count = local.pending
        local.pending = 0
        return Effect.map(shared.spend(key, local.policy, count, now), (tokens) => {
          // What this process spent meanwhile is still its own to write next time.
          local.tokens = tokens - local.pending
          local.updatedAt = now
          local.syncedAt = now.getTime()
        })
      },
      { discard: true }
    )
  return { limiter, reconcile }
}

/**
 * Decorates the `RateLimiter` of the layer below; reconciles every `syncMs` and once more when
 * the layer closes (a graceful shutdown loses nothing).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = DEFAULT_OPTIONS): Layer.Layer<RateLimiter, never, RateLimiter> =>
  Layer.scoped(
    RateLimiter,
    Effect.gen(function*() {
      const local = make(yield* RateLimiter, options)
      const reconcile = Effect.suspend(() => local.reconcile(new Date()))
      yield* Effect.addFinalizer(() => reconcile)
      yield* reconcile.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("rate limits: reconciliation failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.millis(options.syncMs))),
        Effect.forkScoped
      )
      return local.limiter
    })
  )
