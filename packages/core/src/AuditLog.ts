/**
 * Port: the audit log of authenticated API calls (issuer-api.md, Authentication §7): request
 * id, tenant, API key id (never the key), method, route, status and time; kept 90 or 365 days
 * by plan.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect } from "effect"
import type { ApiKeyId, TenantId } from "./Ids.js"
import type { Plan } from "./Plans.js"

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
export class AuditLog extends Context.Tag("@sigil/core/AuditLog")<AuditLog, Service>() {}
