/**
 * Port: idempotency records for POSTs (decisions §6). Scope = (tenant, environment, method,
 * path, key); the fingerprint is the SHA-256 of the body; the first response is replayed for
 * 24 h. `begin` is atomic across processes: of two concurrent requests with one key, exactly
 * one starts.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer } from "effect"
import type { TenantId } from "@sigil/core/Ids"
import type { Environment } from "../Tenants/Plans.js"
import * as internal from "../internal/memory/idempotencyStore.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Scope {
  readonly tenantId: TenantId
  readonly environment: Environment
  readonly method: string
  readonly path: string
  readonly key: string
}

/**
 * A response as it is replayed.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * - `Started`: this request owns the key; call `complete` (or `release` on failure).
 * - `Replay`: the same body was answered before; return its response.
 * - `InFlight`: the first request with this key is still running (409 `idempotency_key_in_use`).
 * - `Mismatch`: the key was used with another body (409 `idempotency_key_reused`).
 *
 * @since 0.1.0
 * @category models
 */
export type Begin =
  | { readonly _tag: "Started" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "InFlight" }
  | { readonly _tag: "Mismatch" }

/**
 * How long a request may hold its key in flight. A record still without a response after this
 * is abandoned (its process crashed mid-request), and the next request with the key takes it
 * over instead of getting `InFlight` until the record expires. A record's owner is the request
 * that started it, known by the start time it passed to `begin`: a takeover happens only a
 * lease (or a ttl) later, so two requests never own one record with the same start time.
 *
 * @since 0.1.0
 * @category constants
 */
export const IN_FLIGHT_LEASE_MS = 2 * 60_000

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /**
   * Records expire `ttlMs` after `now`; an expired record counts as absent, and so does one left
   * in flight for `IN_FLIGHT_LEASE_MS`.
   */
  readonly begin: (scope: Scope, fingerprint: string, now: Date, ttlMs: number) => Effect.Effect<Begin>
  /**
   * Stores the response of the request that started the record at `startedAt` (the `now` it
   * passed to `begin`). Nothing happens when the record is no longer that request's: a request
   * that outlived its lease was taken over, and the request that took over answers for the key.
   */
  readonly complete: (scope: Scope, startedAt: Date, response: StoredResponse) => Effect.Effect<void>
  /**
   * Forgets an in-flight record (the request failed before answering), so a retry may start;
   * only the record the request started at `startedAt`, as for `complete`.
   */
  readonly release: (scope: Scope, startedAt: Date) => Effect.Effect<void>
  /** Deletes records expired before `now`; returns how many. */
  readonly purgeExpired: (now: Date) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class IdempotencyStore extends Context.Tag("@sigil/service/Access/IdempotencyStore")<IdempotencyStore, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<IdempotencyStore, never, MemoryStore> = Layer.effect(IdempotencyStore, internal.make(IN_FLIGHT_LEASE_MS))
