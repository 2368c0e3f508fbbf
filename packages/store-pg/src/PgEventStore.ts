/**
 * `EventStore` on Postgres: the event outbox and the webhook deliveries. An event and its
 * deliveries are inserted together, inside the caller's transaction when there is one, so an
 * event exists exactly when the state change it reports does (decisions §4).
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { JsonObject } from "@sigil/core/Document"
import { type Delivery, type DeliveryStatus, type EventRecord, EventStore, newDelivery } from "@sigil/service/Events/EventStore"
import type { DeliveryId, EventId, TenantId, WebhookId } from "@sigil/core/Ids"
import type { WebhookEventType } from "@sigil/service/Inputs/WebhookInputs"
import type { Environment } from "@sigil/service/Tenants/Plans"
import { Effect, Layer, Option } from "effect"
import { type Count, countOf, jsonText, op, opt } from "./internal/sql.js"

interface EventRow {
  readonly id: string
  readonly type: WebhookEventType
  readonly tenant_id: string
  readonly environment: Environment
  readonly data: JsonObject
  readonly created_at: Date
}

interface DeliveryRow {
  readonly id: string
  readonly event_id: string
  readonly endpoint_id: string
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly next_attempt_at: Date | null
  readonly last_attempt_at: Date | null
  readonly last_status_code: number | null
  readonly last_error: string | null
  readonly delivered_at: Date | null
  readonly created_at: Date
}

const toEvent = (r: EventRow): EventRecord => ({
  id: r.id as EventId,
  type: r.type,
  tenantId: r.tenant_id as TenantId,
  environment: r.environment,
  data: r.data,
  createdAt: r.created_at
})

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id as DeliveryId,
  eventId: r.event_id as EventId,
  endpointId: r.endpoint_id as WebhookId,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: opt(r.next_attempt_at),
  lastAttemptAt: opt(r.last_attempt_at),
  lastStatusCode: opt(r.last_status_code),
  lastError: opt(r.last_error),
  deliveredAt: opt(r.delivered_at),
  createdAt: r.created_at
})

const deliveryColumns = `id, event_id, endpoint_id, status, attempts, next_attempt_at, last_attempt_at,
  last_status_code, last_error, delivered_at, created_at`

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<EventStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const columns = sql.literal(deliveryColumns)
    return EventStore.of({
      append: (event, endpoints) =>
        Effect.gen(function*() {
          const deliveries = endpoints.map((endpointId) => newDelivery(event, endpointId))
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO events ${
              sql.insert({
                id: event.id,
                type: event.type,
                tenant_id: event.tenantId,
                environment: event.environment,
                data: jsonText(event.data),
                created_at: event.createdAt
              })
            }`
            if (deliveries.length > 0) {
              yield* sql`INSERT INTO webhook_deliveries ${
                sql.insert(deliveries.map((d) => ({
                  id: d.id,
                  event_id: d.eventId,
                  endpoint_id: d.endpointId,
                  status: d.status,
                  attempts: d.attempts,
                  next_attempt_at: d.nextAttemptAt ?? null,
                  created_at: d.createdAt
                })))
              }`
            }
          }))
          return deliveries
        }).pipe(op("PgEventStore.append")),
      event: (id) =>
        sql<EventRow>`SELECT * FROM events WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEvent)),
          op("PgEventStore.event")
        ),
      events: (tenantId, environment, query) => {
        const where = [sql`tenant_id = ${tenantId}`, sql`environment = ${environment}`]
        if (query.type !== undefined) where.push(sql`type = ${query.type}`)
        return sql<EventRow>`SELECT * FROM events WHERE ${sql.and(where)}
          ORDER BY created_at DESC, id DESC LIMIT ${Math.max(0, query.limit)}`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          op("PgEventStore.events")
        )
      },
      delivery: (id) =>
        sql<DeliveryRow>`SELECT ${columns} FROM webhook_deliveries WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toDelivery)),
          op("PgEventStore.delivery")
        ),
      deliveriesOf: (eventId) =>
        sql<DeliveryRow>`SELECT ${columns} FROM webhook_deliveries WHERE event_id = ${eventId} ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toDelivery)),
          op("PgEventStore.deliveriesOf")
        ),
      recordAttempt: (id, attempt) =>
        sql`UPDATE webhook_deliveries SET ${
          sql.update({
            status: attempt.status,
            next_attempt_at: attempt.nextAttemptAt ?? null,
            last_attempt_at: attempt.at,
            last_status_code: attempt.statusCode ?? null,
            last_error: attempt.error ?? null,
            ...(attempt.status === "delivered" ? { delivered_at: attempt.at } : {})
          })
        }, attempts = attempts + 1 WHERE id = ${id}`.pipe(Effect.asVoid, op("PgEventStore.recordAttempt")),
      cancelPending: (endpointId) =>
        sql<Count>`WITH cancelled AS (
            UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL
            WHERE endpoint_id = ${endpointId} AND status = 'pending' RETURNING 1
          ) SELECT count(*)::integer AS n FROM cancelled`.pipe(
          Effect.map(countOf),
          op("PgEventStore.cancelPending")
        )
    })
  }
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<EventStore, never, SqlClient.SqlClient> = Layer.effect(EventStore, make)
