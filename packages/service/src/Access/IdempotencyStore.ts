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
 * How long a request holds its key in flight without renewing it. A running request renews its
 * lease every `LEASE_RENEW_MS` (`renew`); one whose process died stops renewing, and once the
 * lease has run out the next request with the key takes the record over instead of getting
 * `InFlight`. So a client retrying after a crash, as the contract says (5xx and network errors,
 * the same key, backing off up to 30 s), gets its request run at most this long after the
 * crash, while a live request, however slow, keeps its key (docs/decisions/idempotency-lease.md).
 *
 * A record's owner is the request that started it, known by the start time it passed to
 * `begin`: a takeover happens only after a lease, so two requests never own one record with the
 * same start time.
 *
 * @since 0.1.0
 * @category constants
 */
export const IN_FLIGHT_LEASE_MS = 10_000

/**
 * How often a running request renews its lease: five renewals per lease, so a request keeps its
 * key through a few missed ones (a stalled event loop, a slow store).
 *
 * @since 0.1.0
 * @category constants
 */
export const LEASE_RENEW_MS = 2_000

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /**
   * Starts, replays or refuses a request. A started record holds the key until
   * `now + IN_FLIGHT_LEASE_MS` (renewed by `renew`); an answered one until `ttlMs` after its
   * start (`complete`). A record past either counts as absent.
   */
  readonly begin: (scope: Scope, fingerprint: string, now: Date, ttlMs: number) => Effect.Effect<Begin>
  /**
   * Extends the lease of the record the request started at `startedAt` to
   * `now + IN_FLIGHT_LEASE_MS`, while it is in flight; `false` when the record is no longer that
   * request's (answered, released, or taken over after a lapsed lease).
   */
  readonly renew: (scope: Scope, startedAt: Date, now: Date) => Effect.Effect<boolean>
  /**
   * Stores the response of the request that started the record at `startedAt` (the `now` it
   * passed to `begin`), kept `ttlMs` from that start. Nothing happens when the record is no
   * longer that request's: a request whose lease lapsed was taken over, and the request that
   * took over answers for the key.
   */
  readonly complete: (scope: Scope, startedAt: Date, response: StoredResponse, ttlMs: number) => Effect.Effect<void>
  /**
   * Forgets an in-flight record (the request failed before answering), so a retry may start;
   * only the record the request started at `startedAt`, as for `complete`.
   */
  readonly release: (scope: Scope, startedAt: Date) => Effect.Effect<void>
  /** Deletes records expired (or left in flight past their lease) before `now`; returns how many. */
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
