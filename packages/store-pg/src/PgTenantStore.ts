/**
 * `TenantStore` on Postgres: tenants, API keys (by the SHA-256 of the key only) and monthly
 * usage counters.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { RecipientNameMode } from "@sigil/core/Document"
import type { ApiKeyId, TenantId } from "@sigil/core/Ids"
import type { Environment, Plan } from "@sigil/service/Tenants/Plans"
import { type ApiKey, type Tenant, TenantStore } from "@sigil/service/Tenants/TenantStore"
import { Effect, Layer, Option } from "effect"
import { type Count, countOf, jsonText, op, opt } from "./internal/sql.js"

interface TenantRow {
  readonly id: string
  readonly name: string
  readonly display_name: string | null
  readonly plan: Plan
  readonly awarding_body: { readonly name: string; readonly url?: string | null; readonly logoUrl?: string | null } | null
  readonly branding: { readonly accentColor?: string | null; readonly logoUrl?: string | null } | null
  readonly recipient_name_mode: RecipientNameMode
  readonly ip_allowlist: ReadonlyArray<string>
  readonly email_delivery_enabled: boolean
  readonly email_sender_name: string | null
  readonly email_reply_to: string | null
  readonly created_at: Date
}

interface KeyRow {
  readonly key_id: string
  readonly key_tenant_id: string
  readonly environment: Environment
  readonly key_created_at: Date
  readonly revoked_at: Date | null
}

const toTenant = (r: TenantRow): Tenant => ({
  id: r.id as TenantId,
  name: r.name,
  displayName: opt(r.display_name),
  plan: r.plan,
  awardingBody: r.awarding_body === null
    ? undefined
    : { name: r.awarding_body.name, url: opt(r.awarding_body.url), logoUrl: opt(r.awarding_body.logoUrl) },
  branding: r.branding === null
    ? undefined
    : { accentColor: opt(r.branding.accentColor), logoUrl: opt(r.branding.logoUrl) },
  recipientNameMode: r.recipient_name_mode,
  ipAllowlist: [...r.ip_allowlist],
  emailDelivery: {
    enabled: r.email_delivery_enabled,
    senderName: opt(r.email_sender_name),
    replyTo: opt(r.email_reply_to)
  },
  createdAt: r.created_at
})

const emailDeliveryColumns = (e: Tenant["emailDelivery"]) => ({
  email_delivery_enabled: e.enabled,
  email_sender_name: e.senderName ?? null,
  email_reply_to: e.replyTo ?? null
})

const toApiKey = (r: KeyRow): ApiKey => ({
  id: r.key_id as ApiKeyId,
  tenantId: r.key_tenant_id as TenantId,
  environment: r.environment,
  createdAt: r.key_created_at,
  revokedAt: opt(r.revoked_at)
})

const nullableJson = (value: object | null | undefined) => (value == null ? null : jsonText(value))

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<TenantStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const keyColumns = sql`k.id AS key_id, k.tenant_id AS key_tenant_id, k.environment,
      k.created_at AS key_created_at, k.revoked_at`
    const get = (id: TenantId) =>
      sql<TenantRow>`SELECT * FROM tenants WHERE id = ${id}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toTenant)),
        op("PgTenantStore.get")
      )

    return TenantStore.of({
      create: (t) =>
        sql`INSERT INTO tenants ${
          sql.insert({
            id: t.id,
            name: t.name,
            display_name: t.displayName ?? null,
            plan: t.plan,
            awarding_body: nullableJson(t.awardingBody),
            branding: nullableJson(t.branding),
            recipient_name_mode: t.recipientNameMode,
            ip_allowlist: [...t.ipAllowlist],
            ...emailDeliveryColumns(t.emailDelivery),
            created_at: t.createdAt
          })
        }`.pipe(Effect.asVoid, op("PgTenantStore.create")),
      get,
      list: () =>
        sql<TenantRow>`SELECT * FROM tenants ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toTenant)),
          op("PgTenantStore.list")
        ),
      update: (id, patch) => {
        const set: Record<string, unknown> = {}
        if (patch.name !== undefined) set.name = patch.name
        if (patch.displayName !== undefined) set.display_name = patch.displayName
        if (patch.plan !== undefined) set.plan = patch.plan
        if (patch.awardingBody !== undefined) set.awarding_body = nullableJson(patch.awardingBody)
        if (patch.branding !== undefined) set.branding = nullableJson(patch.branding)
        if (patch.recipientNameMode !== undefined) set.recipient_name_mode = patch.recipientNameMode
        if (patch.ipAllowlist !== undefined) set.ip_allowlist = [...patch.ipAllowlist]
        if (patch.emailDelivery !== undefined) Object.assign(set, emailDeliveryColumns(patch.emailDelivery))
        if (Object.keys(set).length === 0) return get(id)
        return sql<TenantRow>`UPDATE tenants SET ${sql.update(set)} WHERE id = ${id} RETURNING *`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toTenant)),
          op("PgTenantStore.update")
        )
      },

      addApiKey: (key, secretHash) =>
        sql`INSERT INTO api_keys ${
          sql.insert({
            id: key.id,
            tenant_id: key.tenantId,
            environment: key.environment,
            secret_hash: secretHash,
            created_at: key.createdAt,
            revoked_at: key.revokedAt ?? null
          })
        }`.pipe(Effect.asVoid, op("PgTenantStore.addApiKey")),
      findApiKey: (secretHash) =>
        sql<KeyRow & TenantRow>`SELECT ${keyColumns}, t.*
          FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
          WHERE k.secret_hash = ${secretHash}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (r) => ({ apiKey: toApiKey(r), tenant: toTenant(r) }))
          ),
          op("PgTenantStore.findApiKey")
        ),
      apiKeys: (tenantId) =>
        sql<KeyRow>`SELECT ${keyColumns} FROM api_keys k WHERE k.tenant_id = ${tenantId}
          ORDER BY k.created_at, k.id`.pipe(Effect.map((rows) => rows.map(toApiKey)), op("PgTenantStore.apiKeys")),
      revokeApiKey: (id, at) =>
        sql<KeyRow>`UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, ${at})
          WHERE k.id = ${id} RETURNING ${keyColumns}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toApiKey)),
          op("PgTenantStore.revokeApiKey")
        ),

      // One statement: the counter only moves when the new total stays within the limit, so
      // concurrent reservations (from any process) can never overshoot it.
      reserveCredentials: (tenantId, month, count, limit) =>
        sql`INSERT INTO usage_counters (tenant_id, month, credentials)
          SELECT ${tenantId}, ${month}, ${count}::integer WHERE ${count}::integer <= ${limit}::integer
          ON CONFLICT (tenant_id, month) DO UPDATE
            SET credentials = usage_counters.credentials + EXCLUDED.credentials
            WHERE usage_counters.credentials + EXCLUDED.credentials <= ${limit}::integer
          RETURNING credentials`.pipe(Effect.map((rows) => rows.length > 0), op("PgTenantStore.reserveCredentials")),
      credentialsIssued: (tenantId, month) =>
        sql<Count>`SELECT COALESCE(SUM(credentials), 0)::integer AS n FROM usage_counters
          WHERE tenant_id = ${tenantId} AND month = ${month}`.pipe(
          Effect.map(countOf),
          op("PgTenantStore.credentialsIssued")
        )
    })
  }
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<TenantStore, never, SqlClient.SqlClient> = Layer.effect(TenantStore, make)
