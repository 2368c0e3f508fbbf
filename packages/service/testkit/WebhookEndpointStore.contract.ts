/**
 * The behaviour every `WebhookEndpointStore` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option, Redacted } from "effect"
import * as Ids from "@sigil/core/Ids"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import * as WebhookEndpointStore from "../src/Webhooks/WebhookEndpointStore.js"
import { at, endpointOf, newTenant, plus, secretOf } from "./fixtures.js"



export const webhookStoreContract = <E>(
  name: string,
  stores: Layer.Layer<WebhookEndpointStore.WebhookEndpointStore | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`WebhookEndpointStore contract: ${name}`, (it) => {
    const store = WebhookEndpointStore.WebhookEndpointStore

    it.effect("stores an endpoint and its secret, scoped by tenant and environment", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const endpoint = { ...endpointOf(tenant.id), description: undefined }
        const secret = secretOf()
        yield* s.create(endpoint, secret)
        assert.deepStrictEqual(yield* s.get(tenant.id, "test", endpoint.id), Option.some(endpoint))
        assert.deepStrictEqual(yield* s.byId(endpoint.id), Option.some(endpoint))
        assert.strictEqual(Redacted.value(Option.getOrThrow(yield* s.secret(endpoint.id))), Redacted.value(secret))
        assert.isTrue(Option.isNone(yield* s.get(tenant.id, "live", endpoint.id)))
        assert.isTrue(Option.isNone(yield* s.get(other.id, "test", endpoint.id)))
        assert.isTrue(Option.isNone(yield* s.secret(Ids.unsafeMake("whk"))))
      }))

    it.effect("lists a tenant's endpoints of one environment oldest first", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const t0 = at("2025-03-01T12:00:00.000Z")
        const made = [
          endpointOf(tenant.id, { createdAt: plus(t0, 10) }),
          endpointOf(tenant.id, { createdAt: t0 }),
          endpointOf(tenant.id, { createdAt: plus(t0, 10) }),
          endpointOf(tenant.id, { createdAt: t0, environment: "live" })
        ]
        for (const e of made) yield* s.create(e, secretOf())
        const expected = made.slice(0, 3).sort((a, b) =>
          a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)
        )
        assert.deepStrictEqual(yield* s.list(tenant.id, "test"), expected)
        assert.deepStrictEqual(yield* s.list(tenant.id, "live"), [made[3]!])
      }))

    it.effect("subscribers are the active endpoints subscribed to the type, in that scope", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const t0 = at("2025-03-01T12:00:00.000Z")
        const both = endpointOf(tenant.id, { createdAt: t0, events: ["batch.created", "batch.signed"] })
        const anchoredOnly = endpointOf(tenant.id, { createdAt: plus(t0, 1), events: ["batch.anchored"] })
        const inactive = endpointOf(tenant.id, { createdAt: plus(t0, 2), events: ["batch.created"], active: false })
        const live = endpointOf(tenant.id, { createdAt: plus(t0, 3), events: ["batch.created"], environment: "live" })
        const foreign = endpointOf(other.id, { createdAt: plus(t0, 4), events: ["batch.created"] })
        const later = endpointOf(tenant.id, { createdAt: plus(t0, 5), events: ["batch.created"] })
        for (const e of [both, anchoredOnly, inactive, live, foreign, later]) yield* s.create(e, secretOf())
        assert.deepStrictEqual(yield* s.subscribers(tenant.id, "test", "batch.created"), [both, later])
        assert.deepStrictEqual(yield* s.subscribers(tenant.id, "test", "batch.anchored"), [anchoredOnly])
        assert.deepStrictEqual(yield* s.subscribers(tenant.id, "live", "batch.created"), [live])
        assert.deepStrictEqual(yield* s.subscribers(tenant.id, "test", "webhook.test"), [])
      }))

    it.effect("records failures from the first one on, until a success clears them", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const endpoint = endpointOf(tenant.id)
        yield* s.create(endpoint, secretOf())
        const first = at("2025-03-02T00:00:00.000Z")
        assert.deepStrictEqual(yield* s.recordFailure(endpoint.id, first), Option.some({ ...endpoint, failingSince: first }))
        assert.deepStrictEqual(
          yield* s.recordFailure(endpoint.id, plus(first, 60_000)),
          Option.some({ ...endpoint, failingSince: first })
        )
        yield* s.recordSuccess(endpoint.id, plus(first, 120_000))
        assert.deepStrictEqual(yield* s.byId(endpoint.id), Option.some(endpoint))
        assert.isTrue(Option.isNone(yield* s.recordFailure(Ids.unsafeMake("whk"), first)))
      }))

    it.effect("a disabled endpoint is inactive, says why, and receives nothing", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const endpoint = endpointOf(tenant.id)
        yield* s.create(endpoint, secretOf())
        const when = at("2025-03-06T00:00:00.000Z")
        yield* s.disable(endpoint.id, when, "410 Gone")
        yield* s.disable(endpoint.id, plus(when, 1000), "failing for 5 days")
        assert.deepStrictEqual(
          yield* s.byId(endpoint.id),
          Option.some({ ...endpoint, active: false, disabledAt: when, disabledReason: "410 Gone" })
        )
        assert.deepStrictEqual(yield* s.subscribers(tenant.id, "test", "batch.created"), [])
      }))

    it.effect("deletes an endpoint of the tenant only; its secret goes with it", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const endpoint = endpointOf(tenant.id)
        yield* s.create(endpoint, secretOf())
        assert.isFalse(yield* s.delete(other.id, "test", endpoint.id))
        assert.isFalse(yield* s.delete(tenant.id, "live", endpoint.id))
        assert.isTrue(Option.isSome(yield* s.byId(endpoint.id)))
        assert.isTrue(yield* s.delete(tenant.id, "test", endpoint.id))
        assert.isFalse(yield* s.delete(tenant.id, "test", endpoint.id))
        assert.isTrue(Option.isNone(yield* s.byId(endpoint.id)))
        assert.isTrue(Option.isNone(yield* s.secret(endpoint.id)))
        assert.deepStrictEqual(yield* s.list(tenant.id, "test"), [])
      }))
  })
}
