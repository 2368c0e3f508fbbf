/**
 * Port: the event outbox and its webhook deliveries (decisions §4–§5). An event is appended in
 * the same transaction as the state change it describes, together with one pending delivery
 * per subscribed endpoint; delivery workers then work through the deliveries.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer, type Option } from "effect"
import type { JsonObject } from "@sigil/core/Document"
import type { DeliveryId, EventId, TenantId, WebhookId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { WebhookEventType } from "../Inputs/WebhookInputs.js"
import type { Environment } from "../Tenants/Plans.js"
import * as internal from "../internal/memory/eventStore.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * An event as delivered: the envelope of issuer-api.md plus its environment.
 *
 * @since 0.1.0
 * @category models
 */
export interface EventRecord {
  readonly id: EventId
  readonly type: WebhookEventType
  readonly tenantId: TenantId
  readonly environment: Environment
  readonly data: JsonObject
  readonly createdAt: Date
}

/**
 * @since 0.1.0
 * @category models
 */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled"

/**
 * One event to one endpoint.
 *
 * @since 0.1.0
 * @category models
 */
export interface Delivery {
  readonly id: DeliveryId
  readonly eventId: EventId
  readonly endpointId: WebhookId
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: Date | undefined
  readonly lastAttemptAt: Date | undefined
  readonly lastStatusCode: number | undefined
  readonly lastError: string | undefined
  readonly deliveredAt: Date | undefined
  readonly createdAt: Date
}

/**
 * A new pending delivery of an event to an endpoint: due at once (the delivery job decides when
 * it actually runs). Every adapter makes deliveries with it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const newDelivery = (event: EventRecord, endpointId: WebhookId): Delivery => ({
  id: Ids.unsafeMake("dlv"),
  eventId: event.id,
  endpointId,
  status: "pending",
  attempts: 0,
  nextAttemptAt: event.createdAt,
  lastAttemptAt: undefined,
  lastStatusCode: undefined,
  lastError: undefined,
  deliveredAt: undefined,
  createdAt: event.createdAt
})

/**
 * The outcome of one attempt.
 *
 * @since 0.1.0
 * @category models
 */
export interface Attempt {
  readonly at: Date
  readonly statusCode: number | undefined
  readonly error: string | undefined
  /** `delivered`, `failed` (no more retries) or `pending` with the next attempt's time. */
  readonly status: DeliveryStatus
  readonly nextAttemptAt: Date | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Appends the event and a pending delivery for each endpoint given; returns the deliveries. */
  readonly append: (event: EventRecord, endpoints: ReadonlyArray<WebhookId>) => Effect.Effect<ReadonlyArray<Delivery>>
  readonly event: (id: EventId) => Effect.Effect<Option.Option<EventRecord>>
  /** The tenant's events, newest first. */
  readonly events: (
    tenantId: TenantId,
    environment: Environment,
    query: { readonly type?: WebhookEventType | undefined; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<EventRecord>>
  readonly delivery: (id: DeliveryId) => Effect.Effect<Option.Option<Delivery>>
  readonly deliveriesOf: (eventId: EventId) => Effect.Effect<ReadonlyArray<Delivery>>
  readonly recordAttempt: (id: DeliveryId, attempt: Attempt) => Effect.Effect<void>
  /** Cancels the endpoint's pending deliveries (it was deleted or disabled); returns how many. */
  readonly cancelPending: (endpointId: WebhookId) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class EventStore extends Context.Tag("@sigil/service/Events/EventStore")<EventStore, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<EventStore, never, MemoryStore> = Layer.effect(EventStore, internal.make(newDelivery))
