/**
 * Port: the audit log of authenticated API calls (issuer-api.md, Authentication §7): request
 * id, tenant, API key id (never the key), method, route, status and time; kept 90 or 365 days
 * by plan.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer } from "effect"
import type { ApiKeyId, TenantId } from "@sigil/core/Ids"
import type { Plan } from "../Tenants/Plans.js"
import * as internal from "../internal/memory/auditLog.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Entry {
  readonly requestId: string
  readonly tenantId: TenantId
  readonly apiKeyId: ApiKeyId
  readonly method: string
  /** The route template (`/v1/batches/:id`) or path. */
  readonly route: string
  readonly status: number
  readonly at: Date
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly record: (entry: Entry) => Effect.Effect<void>
  /** Several entries in one write, in their order. */
  readonly recordAll: (entries: ReadonlyArray<Entry>) => Effect.Effect<void>
  /** Oldest first, from `since` on. */
  readonly list: (
    tenantId: TenantId,
    query: { readonly since?: Date | undefined; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<Entry>>
  /** Deletes entries older than their tenant's plan keeps them; returns how many. */
  readonly purgeExpired: (now: Date, retentionDays: { readonly [P in Plan]: number }) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class AuditLog extends Context.Tag("@sigil/service/Access/AuditLog")<AuditLog, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<AuditLog, never, MemoryStore> = Layer.effect(AuditLog, internal.make)
