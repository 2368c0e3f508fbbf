/**
 * What the caches of a process learn about changes, so they never answer with something that
 * changed: a tenant's public documents (DID document, profile, status lists, its credentials'
 * JSON and pages) and its authentication (plan, allowlist, keys).
 *
 * A use case that changes any of them `announce`s the tenant inside its transaction; the
 * announcement reaches listeners once the transaction commits (a rolled-back change announces
 * nothing). Listeners hear `TenantChanged` for every announcement — on Postgres from every
 * process sharing the database (`PgChangeFeed`, `LISTEN/NOTIFY`) — and `Reset` when changes
 * may have been missed (the notification connection came back after a loss): then every cached
 * answer must go. `isLive` says whether announcements of every process are being heard now;
 * while it is false a cache must not answer from memory.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, type Scope } from "effect"
import type { TenantId } from "@sigil/core/Ids"
import { afterCommit } from "./Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Change =
  | { readonly _tag: "TenantChanged"; readonly tenantId: TenantId }
  | { readonly _tag: "Reset" }

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The tenant's public documents or authentication changed (inside a transaction: at its commit). */
  readonly announce: (tenantId: TenantId) => Effect.Effect<void>
  /** Calls `listener` for every change until the scope closes. */
  readonly subscribe: (listener: (change: Change) => void) => Effect.Effect<void, never, Scope.Scope>
  /** Whether every process's announcements reach this one now. */
  readonly isLive: () => boolean
}

/**
 * @since 0.1.0
 * @category tags
 */
export class ChangeFeed extends Context.Tag("@sigil/service/ChangeFeed")<ChangeFeed, Service>() {}

/**
 * The listeners of a process, and how a change reaches them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeListeners = () => {
  const listeners = new Set<(change: Change) => void>()
  return {
    emit: (change: Change) => {
      for (const listener of listeners) listener(change)
    },
    subscribe: (listener: (change: Change) => void): Effect.Effect<void, never, Scope.Scope> =>
      Effect.acquireRelease(Effect.sync(() => void listeners.add(listener)), () => Effect.sync(() => void listeners.delete(listener)))
  }
}

/**
 * One process alone on its store (memory, PGlite): announcements go to this process's
 * listeners after the commit, and the feed is always live.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeLocal = (): Service => {
  const listeners = makeListeners()
  return {
    announce: (tenantId) => afterCommit(Effect.sync(() => listeners.emit({ _tag: "TenantChanged", tenantId }))),
    subscribe: listeners.subscribe,
    isLive: () => true
  }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerLocal: Layer.Layer<ChangeFeed> = Layer.sync(ChangeFeed, makeLocal)

/**
 * Announces a change of the tenant (the service's use cases call this in their transactions).
 *
 * @since 0.1.0
 * @category announcing
 */
export const announce = (tenantId: TenantId): Effect.Effect<void, never, ChangeFeed> =>
  Effect.flatMap(ChangeFeed, (feed) => feed.announce(tenantId))
