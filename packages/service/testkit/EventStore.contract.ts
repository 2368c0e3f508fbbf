/**
 * The behaviour every `EventStore` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import * as EventStore from "../src/Events/EventStore.js"
import * as Ids from "@sigil/core/Ids"
import type { WebhookEventType } from "../src/Inputs/WebhookInputs.js"
import type { Environment } from "../src/Tenants/Plans.js"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, MINUTE, newTenant, plus } from "./fixtures.js"

const eventOf = (
  tenantId: TenantStore.Tenant["id"],
  options: { readonly type?: WebhookEventType; readonly createdAt?: Date; readonly environment?: Environment } = {}
): EventStore.EventRecord => ({
  id: Ids.unsafeMake("evt"),
  type: options.type ?? "batch.created",
  tenantId,
  environment: options.environment ?? "test",
  data: { batch_id: Ids.unsafeMake("bat"), credentials_count: 500, environment: options.environment ?? "test" },
  createdAt: options.createdAt ?? at("2025-03-01T12:00:00.000Z")
})

export const eventStoreContract = <E>(
  name: string,
  stores: Layer.Layer<EventStore.EventStore | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`EventStore contract: ${name}`, (it) => {
    const store = EventStore.EventStore

    it.effect("appends an event with one pending delivery per endpoint", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const event = eventOf(tenant.id)
        const endpoints = [Ids.unsafeMake("whk"), Ids.unsafeMake("whk"), Ids.unsafeMake("whk")]
        const deliveries = yield* s.append(event, endpoints)
        assert.deepStrictEqual(deliveries.map((d) => d.endpointId), endpoints)
        for (const d of deliveries) {
          assert.match(d.id, /^dlv_[A-Z0-9]{26}$/)
          assert.deepStrictEqual(d, {
            id: d.id,
            eventId: event.id,
            endpointId: d.endpointId,
            status: "pending",
            attempts: 0,
            nextAttemptAt: event.createdAt,
            lastAttemptAt: undefined,
            lastStatusCode: undefined,
            lastError: undefined,
            deliveredAt: undefined,
            createdAt: event.createdAt
          })
          assert.deepStrictEqual(yield* s.delivery(d.id), Option.some(d))
        }
        assert.deepStrictEqual(yield* s.event(event.id), Option.some(event))
        assert.deepStrictEqual(yield* s.deliveriesOf(event.id), deliveries)
        assert.deepStrictEqual(yield* s.append(eventOf(tenant.id), []), [])
        assert.isTrue(Option.isNone(yield* s.event(Ids.unsafeMake("evt"))))
        assert.isTrue(Option.isNone(yield* s.delivery(Ids.unsafeMake("dlv"))))
      }))

    it.effect("lists a tenant's events of one environment newest first, by type", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const t0 = at("2025-03-01T12:00:00.000Z")
        const made = [
          eventOf(tenant.id, { createdAt: t0 }),
          eventOf(tenant.id, { createdAt: plus(t0, MINUTE), type: "batch.signed" }),
          eventOf(tenant.id, { createdAt: t0, type: "batch.signed" }),
          eventOf(tenant.id, { createdAt: plus(t0, 2 * MINUTE) }),
          eventOf(tenant.id, { createdAt: plus(t0, 3 * MINUTE), environment: "live" }),
          eventOf(other.id, { createdAt: plus(t0, 4 * MINUTE) })
        ]
        for (const e of made) yield* s.append(e, [])
        const newestFirst = (es: ReadonlyArray<EventStore.EventRecord>) =>
          [...es].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        const testEvents = made.slice(0, 4)
        assert.deepStrictEqual(yield* s.events(tenant.id, "test", { limit: 10 }), newestFirst(testEvents))
        assert.deepStrictEqual(yield* s.events(tenant.id, "test", { limit: 2 }), newestFirst(testEvents).slice(0, 2))
        assert.deepStrictEqual(
          yield* s.events(tenant.id, "test", { type: "batch.signed", limit: 10 }),
          newestFirst(testEvents.filter((e) => e.type === "batch.signed"))
        )
        assert.deepStrictEqual(yield* s.events(tenant.id, "live", { limit: 10 }), [made[4]!])
        assert.deepStrictEqual(yield* s.events(other.id, "test", { limit: 10 }), [made[5]!])
      }))

    it.effect("records attempts: a failure with a retry time, then the delivery", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const event = eventOf(tenant.id)
        const [d] = yield* s.append(event, [Ids.unsafeMake("whk")])
        const first = at("2025-03-01T12:00:01.000Z")
        yield* s.recordAttempt(d!.id, {
          at: first,
          statusCode: 503,
          error: "Service Unavailable",
          status: "pending",
          nextAttemptAt: plus(first, 5000)
        })
        assert.deepStrictEqual(
          yield* s.delivery(d!.id),
          Option.some({
            ...d!,
            attempts: 1,
            lastAttemptAt: first,
            lastStatusCode: 503,
            lastError: "Service Unavailable",
            nextAttemptAt: plus(first, 5000)
          })
        )
        const second = plus(first, 5000)
        yield* s.recordAttempt(d!.id, { at: second, statusCode: 204, error: undefined, status: "delivered", nextAttemptAt: undefined })
        assert.deepStrictEqual(
          yield* s.delivery(d!.id),
          Option.some({
            ...d!,
            status: "delivered" as const,
            attempts: 2,
            lastAttemptAt: second,
            lastStatusCode: 204,
            lastError: undefined,
            nextAttemptAt: undefined,
            deliveredAt: second
          })
        )
        // A timeout has no status code; giving up is `failed`.
        const [d2] = yield* s.append(eventOf(tenant.id), [Ids.unsafeMake("whk")])
        yield* s.recordAttempt(d2!.id, { at: second, statusCode: undefined, error: "timeout", status: "failed", nextAttemptAt: undefined })
        const failed = Option.getOrThrow(yield* s.delivery(d2!.id))
        assert.strictEqual(failed.status, "failed")
        assert.strictEqual(failed.lastStatusCode, undefined)
        assert.strictEqual(failed.deliveredAt, undefined)
      }))

    it.effect("cancels only the endpoint's pending deliveries", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const endpoint = Ids.unsafeMake("whk")
        const other = Ids.unsafeMake("whk")
        const [a] = yield* s.append(eventOf(tenant.id), [endpoint])
        const [b, c] = yield* s.append(eventOf(tenant.id), [endpoint, other])
        const [d] = yield* s.append(eventOf(tenant.id), [endpoint])
        yield* s.recordAttempt(d!.id, { at: at("2025-03-01T12:00:00Z"), statusCode: 200, error: undefined, status: "delivered", nextAttemptAt: undefined })
        assert.strictEqual(yield* s.cancelPending(endpoint), 2)
        for (const x of [a!, b!]) {
          const cancelled = Option.getOrThrow(yield* s.delivery(x.id))
          assert.strictEqual(cancelled.status, "cancelled")
          assert.strictEqual(cancelled.nextAttemptAt, undefined)
        }
        assert.strictEqual(Option.getOrThrow(yield* s.delivery(c!.id)).status, "pending")
        assert.strictEqual(Option.getOrThrow(yield* s.delivery(d!.id)).status, "delivered")
        assert.strictEqual(yield* s.cancelPending(endpoint), 0)
      }))
  })
}
