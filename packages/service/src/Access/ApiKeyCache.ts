/**
 * Every authenticated request starts by finding its key and the key's tenant
 * (`TenantStore.findApiKey`). This decorator of a `TenantStore` remembers those answers in the
 * process, so a request makes no store round trip to authenticate:
 *
 * - a change made through this process (`update` of the tenant: plan, allowlist, settings;
 *   `revokeApiKey`) drops the tenant's entries at once, and again once its transaction commits,
 *   so no request can put the old answer back in between;
 * - a change made by another process sharing the database is seen here within `ttlMs` (each
 *   answer is kept at most that long): the documented bound (docs/decisions/serving.md);
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
export const cached = (store: Service, options: Options = DEFAULT_OPTIONS, now: () => number = Date.now): Service => {
  const entries = BoundedMap.make<string, Entry>(options.maxEntries)
  const forget = (tenantId: TenantId) =>
    Effect.sync(() => {
      for (const [hash, entry] of entries) if (entry.found.tenant.id === tenantId) entries.delete(hash)
    })
  // Now for this process's next request, and after the commit so that a request that read the
  // old row while the change was being written cannot keep it.
  const changed = (tenantId: TenantId) => Effect.zipRight(forget(tenantId), afterCommit(forget(tenantId)))
  return {
    ...store,
    findApiKey: (secretHash) =>
      Effect.suspend(() => {
        const entry = entries.get(secretHash)
        if (entry !== undefined && entry.until > now()) return Effect.succeed(Option.some(entry.found))
        if (entry !== undefined) entries.delete(secretHash)
        return Effect.tap(store.findApiKey(secretHash), (found) =>
          Effect.sync(() => {
            if (Option.isNone(found)) return
            entries.set(secretHash, { found: found.value, until: now() + options.ttlMs })
          }))
      }),
    update: (id, patch) => Effect.zipLeft(store.update(id, patch), changed(id)),
    revokeApiKey: (id, at) =>
      Effect.tap(store.revokeApiKey(id, at), (revoked) => (Option.isSome(revoked) ? changed(revoked.value.tenantId) : Effect.void))
  }
}

/**
 * Decorates the `TenantStore` of the layer below.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = DEFAULT_OPTIONS): Layer.Layer<TenantStore, never, TenantStore> =>
  Layer.effect(TenantStore, Effect.map(TenantStore, (store) => cached(store, options)))
