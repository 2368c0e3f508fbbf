/**
 * Every authenticated request starts by finding its key and the key's tenant
 * (`TenantStore.findApiKey`). This decorator of a `TenantStore` remembers those answers in the
 * process, so a request makes no store round trip to authenticate:
 *
 * - a change made through this process (`update` of the tenant: plan, allowlist, settings;
 *   `revokeApiKey`) drops the tenant's entries at once, and again once its transaction commits,
 *   so no request can put the old answer back in between;
 * - a change made by another process sharing the database is heard at its commit through the
 *   change feed (`ChangeFeed`, when the layer below has one), and is seen here within `ttlMs`
 *   at the latest (each answer is kept at most that long): the bound should a notification be
 *   lost (docs/decisions/serving.md);
 * - only found keys are remembered (an unknown key is looked up every time: a key created in
 *   another process works at once), at most `maxEntries` of them, oldest out first.
 *
 * @since 0.1.0
 */
import * as BoundedMap from "@sigil/core/BoundedMap"
import { Effect, Layer, Option } from "effect"
import type { TenantId } from "@sigil/core/Ids"
import type { ApiKey, Service, Tenant } from "../Tenants/TenantStore.js"
import { TenantStore } from "../Tenants/TenantStore.js"
import { ChangeFeed } from "../ChangeFeed.js"
import { afterCommit } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** How long an answer is kept: the longest another process's change goes unseen here. */
  readonly ttlMs: number
  /** The most keys remembered; past it the oldest answer goes (and is looked up again when asked). */
  readonly maxEntries: number
}

/**
 * 5 s (docs/decisions/serving.md); 10,000 keys: every key in use of a large deployment, at about
 * 1 KB each (the key's row and its tenant's), so ≈10 MB at most. A process serving more keys
 * than that only looks the oldest up again.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_OPTIONS: Options = { ttlMs: 5_000, maxEntries: 10_000 }

interface Entry {
  readonly found: { readonly apiKey: ApiKey; readonly tenant: Tenant }
  readonly until: number
}

/**
 * The store with `findApiKey` remembered.
 *
 * @since 0.1.0
 * @category constructors
 */
export const cached = (store: Service, options: Options = DEFAULT_OPTIONS, now: () => number = Date.now): Service =>
  make(store, options, now).store

const make = (store: Service, options: Options, now: () => number) => {
  const entries = BoundedMap.make<string, Entry>(options.maxEntries)
  // Bumped by every forgetting: an answer read across one is not kept (it may be the old row).
  let generation = 0
  const forgetTenant = (tenantId: TenantId) => {
    generation++
    for (const [hash, entry] of entries) if (entry.found.tenant.id === tenantId) entries.delete(hash)
  }
  const clear = () => {
    generation++
    entries.clear()
  }
  const forget = (tenantId: TenantId) => Effect.sync(() => forgetTenant(tenantId))
  // Now for this process's next request, and after the commit so that a request that read the
  // old row while the change was being written cannot keep it.
  const changed = (tenantId: TenantId) => Effect.zipRight(forget(tenantId), afterCommit(forget(tenantId)))
  const decorated: Service = {
    ...store,
    findApiKey: (secretHash) =>
      Effect.suspend(() => {
        const entry = entries.get(secretHash)
        if (entry !== undefined && entry.until > now()) return Effect.succeed(Option.some(entry.found))
        if (entry !== undefined) entries.delete(secretHash)
        const since = generation
        return Effect.tap(store.findApiKey(secretHash), (found) =>
          Effect.sync(() => {
            if (Option.isNone(found) || since !== generation) return
            entries.set(secretHash, { found: found.value, until: now() + options.ttlMs })
          }))
      }),
    update: (id, patch) => Effect.zipLeft(store.update(id, patch), changed(id)),
    revokeApiKey: (id, at) =>
      Effect.tap(store.revokeApiKey(id, at), (revoked) => (Option.isSome(revoked) ? changed(revoked.value.tenantId) : Effect.void))
  }
  return { store: decorated, forgetTenant, clear }
}

/**
 * Decorates the `TenantStore` of the layer below.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = DEFAULT_OPTIONS): Layer.Layer<TenantStore, never, TenantStore> =>
  Layer.scoped(
    TenantStore,
    Effect.gen(function*() {
      const cache = make(yield* TenantStore, options, Date.now)
      // With a change feed, a change made through another process (a key revoked, an allowlist
      // set) is heard at its commit; the TTL stays as the bound should the feed miss it.
      const feed = yield* Effect.serviceOption(ChangeFeed)
      if (Option.isSome(feed)) {
        yield* feed.value.subscribe((change) => (change._tag === "Reset" ? cache.clear() : cache.forgetTenant(change.tenantId)))
      }
      return cache.store
    })
  )
