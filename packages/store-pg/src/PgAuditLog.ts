/**
 * `AuditLog` on Postgres: one row per authenticated call (request id, tenant, API key id —
 * never the key —, method, route, status, time). The purge job deletes by each tenant's plan.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { AuditLog, type Entry } from "@sigil/service/Access/AuditLog"
import type { ApiKeyId, TenantId } from "@sigil/core/Ids"
import { Effect, Layer } from "effect"
import { type Count, countOf, op } from "./internal/sql.js"

interface Row {
  readonly request_id: string
  readonly tenant_id: string
  readonly api_key_id: string
  readonly method: string
  readonly route: string
  readonly status: number
  readonly at: Date
}

const toEntry = (r: Row): Entry => ({
  requestId: r.request_id,
  tenantId: r.tenant_id as TenantId,
  apiKeyId: r.api_key_id as ApiKeyId,
  method: r.method,
  route: r.route,
  status: r.status,
  at: r.at
})

const rowOf = (e: Entry) => ({
  request_id: e.requestId,
  tenant_id: e.tenantId,
  api_key_id: e.apiKeyId,
  method: e.method,
  route: e.route,
  status: e.status,
  at: e.at
})

const DAY_MS = 86_400_000

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<AuditLog["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    AuditLog.of({
      record: (e) => sql`INSERT INTO audit_log ${sql.insert(rowOf(e))}`.pipe(Effect.asVoid, op("PgAuditLog.record")),
      recordAll: (entries) =>
        entries.length === 0
          ? Effect.void
          : sql`INSERT INTO audit_log ${sql.insert(entries.map(rowOf))}`.pipe(Effect.asVoid, op("PgAuditLog.recordAll")),
      list: (tenantId, query) =>
        sql<Row>`SELECT request_id, tenant_id, api_key_id, method, route, status, at FROM audit_log
          WHERE tenant_id = ${tenantId} ${query.since === undefined ? sql`` : sql`AND at >= ${query.since}`}
          ORDER BY at, seq LIMIT ${Math.max(0, query.limit)}`.pipe(
          Effect.map((rows) => rows.map(toEntry)),
          op("PgAuditLog.list")
        ),
      purgeExpired: (now, retentionDays) => {
        const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS)
        return sql<Count>`WITH purged AS (
            DELETE FROM audit_log a USING tenants t
            WHERE a.tenant_id = t.id AND a.at < CASE t.plan
              WHEN 'developer' THEN ${cutoff(retentionDays.developer)}::timestamptz
              WHEN 'starter' THEN ${cutoff(retentionDays.starter)}::timestamptz
              WHEN 'institution' THEN ${cutoff(retentionDays.institution)}::timestamptz
              WHEN 'industry' THEN ${cutoff(retentionDays.industry)}::timestamptz
            END
            RETURNING 1
          ) SELECT count(*)::integer AS n FROM purged`.pipe(
          Effect.map(countOf),
          op("PgAuditLog.purgeExpired")
        )
      }
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<AuditLog, never, SqlClient.SqlClient> = Layer.effect(AuditLog, make)
