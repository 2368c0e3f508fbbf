/**
 * The behaviour every `IdempotencyStore` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import * as IdempotencyStore from "../src/Access/IdempotencyStore.js"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, DAY, HOUR, newTenant, plus, randomHex } from "./fixtures.js"

const TTL = DAY

const scopeOf = (tenantId: TenantStore.Tenant["id"]): IdempotencyStore.Scope => ({
  tenantId,
  environment: "test",
  method: "POST",
  path: "/v1/batches",
  key: crypto.randomUUID()
})

const response: IdempotencyStore.StoredResponse = {
  status: 202,
  headers: { "content-type": "application/json", "x-request-id": "req_01J0000000000000000000000" },
  body: JSON.stringify({ id: "bat_01J0000000000000000000000", status: "pending", note: "é ✓" })
}

export const idempotencyStoreContract = <E>(
  name: string,
  stores: Layer.Layer<IdempotencyStore.IdempotencyStore | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`IdempotencyStore contract: ${name}`, (it) => {
    const store = IdempotencyStore.IdempotencyStore
    const now = at("2025-03-01T12:00:00.000Z")

    it.effect("Started, then InFlight, then Replay; another body is a Mismatch", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        assert.deepStrictEqual(yield* s.begin(scope, fp, now, TTL), { _tag: "Started" })
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(now, 1000), TTL), { _tag: "InFlight" })
        assert.deepStrictEqual(yield* s.begin(scope, randomHex(32), plus(now, 1000), TTL), { _tag: "Mismatch" })
        yield* s.complete(scope, now, response, TTL)
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(now, 2000), TTL), { _tag: "Replay", response })
        assert.deepStrictEqual(yield* s.begin(scope, randomHex(32), plus(now, 2000), TTL), { _tag: "Mismatch" })
      }))

    it.effect("scopes keys by tenant, environment, method and path", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        assert.deepStrictEqual(yield* s.begin(scope, fp, now, TTL), { _tag: "Started" })
        for (
          const variant of [
            { ...scope, tenantId: other.id },
            { ...scope, environment: "live" as const },
            { ...scope, method: "PATCH" },
            { ...scope, path: "/v1/webhooks" },
            { ...scope, key: crypto.randomUUID() }
          ]
        ) {
          assert.deepStrictEqual(yield* s.begin(variant, fp, now, TTL), { _tag: "Started" })
        }
      }))

    it.effect("release forgets an in-flight record, never a completed one", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        yield* s.begin(scope, fp, now, TTL)
        yield* s.release(scope, now)
        // The retry may use another body: the first request left nothing behind.
        const fp2 = randomHex(32)
        assert.deepStrictEqual(yield* s.begin(scope, fp2, now, TTL), { _tag: "Started" })
        yield* s.complete(scope, now, response, TTL)
        yield* s.release(scope, now)
        assert.deepStrictEqual(yield* s.begin(scope, fp2, now, TTL), { _tag: "Replay", response })
      }))

    it.effect("a record expires ttl after its first request", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        yield* s.begin(scope, fp, now, TTL)
        yield* s.complete(scope, now, response, TTL)
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(now, TTL - 1), TTL), { _tag: "Replay", response })
        // Expired: absent, whatever the body; the new record runs its own ttl.
        const later = plus(now, TTL)
        assert.deepStrictEqual(yield* s.begin(scope, randomHex(32), later, TTL), { _tag: "Started" })
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(later, 1), TTL), { _tag: "Mismatch" })
        // A record left in flight (its request died without releasing it) is taken over once its
        // lease is over, long before the record would expire.
        const stuck = scopeOf(tenant.id)
        yield* s.begin(stuck, fp, now, HOUR)
        assert.deepStrictEqual(yield* s.begin(stuck, fp, plus(now, IdempotencyStore.IN_FLIGHT_LEASE_MS - 1), HOUR), { _tag: "InFlight" })
        assert.deepStrictEqual(yield* s.begin(stuck, fp, plus(now, IdempotencyStore.IN_FLIGHT_LEASE_MS), HOUR), { _tag: "Started" })
        assert.deepStrictEqual(yield* s.begin(stuck, fp, plus(now, IdempotencyStore.IN_FLIGHT_LEASE_MS + 1), HOUR), { _tag: "InFlight" })
      }))

    it.effect("a request that renews its lease keeps its key; one that stops loses it a lease after its last renewal", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        const lease = IdempotencyStore.IN_FLIGHT_LEASE_MS
        const renew = IdempotencyStore.LEASE_RENEW_MS
        assert.deepStrictEqual(yield* s.begin(scope, fp, now, TTL), { _tag: "Started" })
        // Renewed every LEASE_RENEW_MS for three leases: in flight all along.
        let last = now
        for (let t = renew; t <= 3 * lease; t += renew) {
          last = plus(now, t)
          assert.isTrue(yield* s.renew(scope, now, last))
          assert.deepStrictEqual(yield* s.begin(scope, fp, plus(last, 1), TTL), { _tag: "InFlight" })
        }
        // The owner died after its last renewal: the key is held a lease after it, then free.
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(last, lease - 1), TTL), { _tag: "InFlight" })
        const takeover = plus(last, lease)
        assert.deepStrictEqual(yield* s.begin(scope, fp, takeover, TTL), { _tag: "Started" })
        // The old owner's renewals no longer count, the new owner's do.
        assert.isFalse(yield* s.renew(scope, now, plus(takeover, 1)))
        assert.isTrue(yield* s.renew(scope, takeover, plus(takeover, 1)))
        // Answered: nothing to renew, and the answer is kept for the ttl from its request's start.
        yield* s.complete(scope, takeover, response, TTL)
        assert.isFalse(yield* s.renew(scope, takeover, plus(takeover, 2)))
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(takeover, TTL - 1), TTL), { _tag: "Replay", response })
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(takeover, TTL), TTL), { _tag: "Started" })
      }))

    it.effect("purges the records expired by then, and only those", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        // An era no other test uses, so the count is ours alone.
        const t0 = at("2001-01-01T00:00:00.000Z")
        const expired = [scopeOf(tenant.id), scopeOf(tenant.id), scopeOf(tenant.id)]
        const alive = scopeOf(tenant.id)
        for (const sc of expired) yield* s.begin(sc, "fp", t0, HOUR)
        yield* s.complete(expired[0]!, t0, response, HOUR)
        yield* s.begin(alive, "fp", t0, 3 * HOUR)
        yield* s.complete(alive, t0, response, 3 * HOUR)
        assert.strictEqual(yield* s.purgeExpired(plus(t0, 2 * HOUR)), 3)
        assert.strictEqual(yield* s.purgeExpired(plus(t0, 2 * HOUR)), 0)
        assert.deepStrictEqual(yield* s.begin(alive, "fp", plus(t0, 2 * HOUR), HOUR), { _tag: "Replay", response })
        // A purged key starts afresh.
        assert.deepStrictEqual(yield* s.begin(expired[0]!, "other", plus(t0, 2 * HOUR), HOUR), { _tag: "Started" })
      }))

    it.effect("a request taken over after its lease neither answers for the key nor forgets it", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        const slowStart = now
        const takeover = plus(now, IdempotencyStore.IN_FLIGHT_LEASE_MS)
        assert.deepStrictEqual(yield* s.begin(scope, fp, slowStart, TTL), { _tag: "Started" })
        assert.deepStrictEqual(yield* s.begin(scope, fp, takeover, TTL), { _tag: "Started" })
        // The slow request finishes (or fails) late: the record is not its own any more.
        yield* s.release(scope, slowStart)
        yield* s.complete(scope, slowStart, { ...response, body: "the slow request's answer" }, TTL)
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(takeover, 1000), TTL), { _tag: "InFlight" })
        // The owner's answer is the one replayed, and a late release cannot drop it either.
        yield* s.complete(scope, takeover, response, TTL)
        yield* s.complete(scope, slowStart, { ...response, body: "the slow request's answer" }, TTL)
        yield* s.release(scope, takeover)
        assert.deepStrictEqual(yield* s.begin(scope, fp, plus(takeover, 2000), TTL), { _tag: "Replay", response })
      }))

    it.effect("of concurrent requests with one key, exactly one starts", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const scope = scopeOf(tenant.id)
        const fp = randomHex(32)
        const results = yield* Effect.all(
          Array.from({ length: 8 }, () => s.begin(scope, fp, now, TTL)),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(results.map((r) => r._tag).sort(), ["InFlight", "InFlight", "InFlight", "InFlight", "InFlight", "InFlight", "InFlight", "Started"])
        yield* s.complete(scope, now, response, TTL)
        const replays = yield* Effect.all(
          Array.from({ length: 4 }, () => s.begin(scope, fp, now, TTL)),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(replays, Array.from({ length: 4 }, () => ({ _tag: "Replay" as const, response })))
      }))
  })
}
