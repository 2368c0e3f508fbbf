/**
 * `WebhookEndpointStore` on Postgres. Signing secrets are sealed under the master key (`Envelope`,
 * bound to the endpoint's id) and opened only for the delivery worker.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { TenantId, WebhookId } from "@sigil/core/Ids"
import type { WebhookEventType } from "@sigil/service/Inputs/WebhookInputs"
import type { Environment } from "@sigil/service/Tenants/Plans"
import { type WebhookEndpoint, WebhookEndpointStore } from "@sigil/service/Webhooks/WebhookEndpointStore"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import * as Envelope from "./Envelope.js"
import { op, opt } from "./internal/sql.js"

interface EndpointRow {
  readonly id: string
  readonly tenant_id: string
  readonly environment: Environment
  readonly url: string
  readonly events: ReadonlyArray<WebhookEventType>
  readonly description: string | null
  readonly active: boolean
  readonly failing_since: Date | null
  readonly disabled_at: Date | null
  readonly disabled_reason: string | null
  readonly created_at: Date
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id as WebhookId,
  tenantId: r.tenant_id as TenantId,
  environment: r.environment,
  url: r.url,
  events: [...r.events],
  description: opt(r.description),
  active: r.active,
  createdAt: r.created_at,
  failingSince: opt(r.failing_since),
  disabledAt: opt(r.disabled_at),
  disabledReason: opt(r.disabled_reason)
})

const COLUMNS = `id, tenant_id, environment, url, events, description, active, failing_since, disabled_at,
  disabled_reason, created_at`

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The key-encryption key (`SIGIL_MASTER_KEY`): 32 bytes, or their hex / base64. */
  readonly masterKey: Redacted.Redacted<Uint8Array | string>
}

const context = (id: string) => `webhook-secret:${id}`

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<WebhookEndpointStore["Type"], Envelope.InvalidMasterKey, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const master = yield* Envelope.masterKey(options.masterKey)
    const columns = sql.literal(COLUMNS)
    const one = (rows: ReadonlyArray<EndpointRow>) => Option.map(Option.fromNullable(rows[0]), toEndpoint)

    return WebhookEndpointStore.of({
      create: (endpoint, secret) =>
        sql`INSERT INTO webhook_endpoints ${
          sql.insert({
            id: endpoint.id,
            tenant_id: endpoint.tenantId,
            environment: endpoint.environment,
            url: endpoint.url,
            events: [...endpoint.events],
            description: endpoint.description ?? null,
            active: endpoint.active,
            secret_envelope: Envelope.seal(
              master,
              new TextEncoder().encode(Redacted.value(secret)),
              context(endpoint.id)
            ),
            failing_since: endpoint.failingSince ?? null,
            disabled_at: endpoint.disabledAt ?? null,
            disabled_reason: endpoint.disabledReason ?? null,
            created_at: endpoint.createdAt
          })
        }`.pipe(Effect.asVoid, op("PgWebhookEndpointStore.create")),
      list: (tenantId, environment) =>
        sql<EndpointRow>`SELECT ${columns} FROM webhook_endpoints
          WHERE tenant_id = ${tenantId} AND environment = ${environment} ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toEndpoint)),
          op("PgWebhookEndpointStore.list")
        ),
      get: (tenantId, environment, id) =>
        sql<EndpointRow>`SELECT ${columns} FROM webhook_endpoints
          WHERE id = ${id} AND tenant_id = ${tenantId} AND environment = ${environment}`.pipe(
          Effect.map(one),
          op("PgWebhookEndpointStore.get")
        ),
      byId: (id) =>
        sql<EndpointRow>`SELECT ${columns} FROM webhook_endpoints WHERE id = ${id}`.pipe(
          Effect.map(one),
          op("PgWebhookEndpointStore.byId")
        ),
      secret: (id) =>
        sql<{ readonly secret_envelope: Uint8Array }>`SELECT secret_envelope FROM webhook_endpoints WHERE id = ${id}`.pipe(
          op("PgWebhookEndpointStore.secret"),
          Effect.flatMap((rows) => {
            const row = rows[0]
            if (row === undefined) return Effect.succeedNone
            // A secret that will not open is a wrong master key: the worker cannot sign, a defect.
            const opened = Envelope.open(master, row.secret_envelope, context(id))
            if (Either.isLeft(opened)) return Effect.die(opened.left)
            const text = new TextDecoder().decode(opened.right)
            opened.right.fill(0)
            return Effect.succeedSome(Redacted.make(text))
          })
        ),
      delete: (tenantId, environment, id) =>
        sql`DELETE FROM webhook_endpoints
          WHERE id = ${id} AND tenant_id = ${tenantId} AND environment = ${environment} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          op("PgWebhookEndpointStore.delete")
        ),
      subscribers: (tenantId, environment, type) =>
        sql<EndpointRow>`SELECT ${columns} FROM webhook_endpoints
          WHERE tenant_id = ${tenantId} AND environment = ${environment} AND active AND ${type}::text = ANY (events)
          ORDER BY created_at, id`.pipe(Effect.map((rows) => rows.map(toEndpoint)), op("PgWebhookEndpointStore.subscribers")),
      recordSuccess: (id) =>
        sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${id}`.pipe(
          Effect.asVoid,
          op("PgWebhookEndpointStore.recordSuccess")
        ),
      recordFailure: (id, at) =>
        sql<EndpointRow>`UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${at})
          WHERE id = ${id} RETURNING ${columns}`.pipe(Effect.map(one), op("PgWebhookEndpointStore.recordFailure")),
      // The first disabling is the one that counts.
      disable: (id, at, reason) =>
        sql`UPDATE webhook_endpoints SET active = false,
            disabled_reason = CASE WHEN disabled_at IS NULL THEN ${reason}::text ELSE disabled_reason END,
            disabled_at = COALESCE(disabled_at, ${at})
          WHERE id = ${id}`.pipe(Effect.asVoid, op("PgWebhookEndpointStore.disable"))
    })
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<WebhookEndpointStore, Envelope.InvalidMasterKey, SqlClient.SqlClient> =>
  Layer.effect(WebhookEndpointStore, make(options))
