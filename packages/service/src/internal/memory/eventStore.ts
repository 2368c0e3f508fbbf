/**
 * `EventStore` in memory.
 *
 * @internal
 */
import { Effect, Option } from "effect"
import type { Delivery, EventRecord, Service } from "../../Events/EventStore.js"
import type { WebhookId } from "@sigil/core/Ids"
import type { DeliveryId, EventId } from "@sigil/core/Ids"
import { MemoryStore } from "../../Transactor.js"
import { copy, descending, duplicate, json, locked, requireTenant, tables } from "./store.js"

const eventRow = (e: EventRecord): EventRecord => ({
  id: e.id,
  type: e.type,
  tenantId: e.tenantId,
  environment: e.environment,
  data: json(e.data),
  createdAt: e.createdAt
})

/** @internal */
/** @internal `newDelivery` is the port's own constructor, passed in so this module imports only the port's types. */
export const make = (
  newDelivery: (event: EventRecord, endpointId: WebhookId) => Delivery
): Effect.Effect<Service, never, MemoryStore> => Effect.map(MemoryStore, (store) => {
  const events = store.table(tables.events, () => new Map<EventId, EventRecord>())
  // Insertion order is the order deliveries are listed in (Postgres: a sequence column).
  const deliveries = store.table(tables.deliveries, () => new Map<DeliveryId, Delivery>())
  const newestFirst = descending<EventRecord>((e) => e.createdAt, (e) => e.id)

  return {
    append: (event, endpoints) =>
      locked(store, () => {
        requireTenant(store, event.tenantId)
        if (events.has(event.id)) duplicate(tables.events, event.id)
        if (new Set(endpoints).size !== endpoints.length) duplicate(tables.deliveries, `${event.id} endpoints`)
        events.set(event.id, copy(eventRow(event)))
        const created = endpoints.map((endpointId) => newDelivery(event, endpointId))
        for (const d of created) deliveries.set(d.id, copy(d))
        return created.map(copy)
      }),
    event: (id) => locked(store, () => Option.map(Option.fromNullable(events.get(id)), copy)),
    events: (tenantId, environment, query) =>
      locked(store, () =>
        [...events.values()]
          .filter((e) =>
            e.tenantId === tenantId && e.environment === environment && (query.type === undefined || e.type === query.type)
          )
          .sort(newestFirst)
          .slice(0, Math.max(0, query.limit))
          .map(copy)),
    delivery: (id) => locked(store, () => Option.map(Option.fromNullable(deliveries.get(id)), copy)),
    deliveriesOf: (eventId) => locked(store, () => [...deliveries.values()].filter((d) => d.eventId === eventId).map(copy)),
    recordAttempt: (id, attempt) =>
      locked(store, () => {
        const d = deliveries.get(id)
        if (d === undefined) return
        deliveries.set(id, {
          ...d,
          status: attempt.status,
          attempts: d.attempts + 1,
          nextAttemptAt: attempt.nextAttemptAt,
          lastAttemptAt: attempt.at,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          deliveredAt: attempt.status === "delivered" ? attempt.at : d.deliveredAt
        })
      }),
    cancelPending: (endpointId) =>
      locked(store, () => {
        let n = 0
        for (const d of deliveries.values()) {
          if (d.endpointId !== endpointId || d.status !== "pending") continue
          deliveries.set(d.id, { ...d, status: "cancelled", nextAttemptAt: undefined })
          n++
        }
        return n
      })
  }
})
