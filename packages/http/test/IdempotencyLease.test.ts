/**
 * A request keeps its Idempotency-Key however long it runs (issue #18, defect 2): the in-flight
 * lease is short (`IN_FLIGHT_LEASE_MS`, so that a crashed request's key comes free soon), and a
 * live request renews it every `LEASE_RENEW_MS` until it answers. The crash side, with a real
 * SIGKILL across two processes on Postgres, is packages/server/test/IdempotencyCrash.postgres.test.ts.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { assert, it } from "@effect/vitest"
import type { Principal } from "@sigil/service/Access/Auth"
import * as IdempotencyStore from "@sigil/service/Access/IdempotencyStore"
import * as MemoryStores from "@sigil/service/MemoryStores"
import { newTenant } from "@sigil/service/testkit/fixtures"
import { Clock, Deferred, Effect, Fiber, TestClock } from "effect"
import * as Idempotency from "../src/Idempotency.js"

const post = (key: string) =>
  HttpServerRequest.fromWeb(
    new Request("http://localhost/v1/batches", {
      method: "POST",
      headers: { "idempotency-key": key, "content-type": "application/json" },
      body: "{}"
    })
  )

it.effect("a request running for three leases keeps its key, and its answer is replayed", () =>
  Effect.gen(function*() {
    const store = yield* IdempotencyStore.IdempotencyStore
    const tenant = yield* newTenant()
    const principal = { tenant, environment: "test" } as unknown as Principal
    const key = crypto.randomUUID()
    const lease = IdempotencyStore.IN_FLIGHT_LEASE_MS
    const started = yield* Deferred.make<void>()
    // A handler that takes three leases to answer.
    const slow = Effect.zipRight(
      Deferred.succeed(started, undefined),
      Effect.as(Effect.sleep(3 * lease), HttpServerResponse.unsafeJson({ id: "bat_SLOW" }, { status: 202 }))
    )
    const now = new Date(yield* Clock.currentTimeMillis)
    const first = yield* Effect.fork(Idempotency.run(post(key), principal, now, slow))
    yield* Deferred.await(started)
    const scope = { tenantId: tenant.id, environment: "test" as const, method: "POST", path: "/v1/batches", key }
    const fingerprint = Idempotency.fingerprint("{}")
    // Step the clock a renewal at a time, with a second request with the key at each step
    // (asserted once the first has answered: it runs uninterruptibly, so must be let finish).
    const seen: Array<string> = []
    for (let t = IdempotencyStore.LEASE_RENEW_MS; t < 3 * lease; t += IdempotencyStore.LEASE_RENEW_MS) {
      yield* TestClock.adjust(IdempotencyStore.LEASE_RENEW_MS)
      const other = yield* store.begin(scope, fingerprint, new Date(yield* Clock.currentTimeMillis), Idempotency.TTL_MS)
      seen.push(`${t} ms: ${other._tag}`)
    }
    yield* TestClock.adjust(IdempotencyStore.LEASE_RENEW_MS)
    const response = yield* Fiber.join(first)
    assert.deepStrictEqual(seen, seen.map((line) => line.replace(/: .*/, ": InFlight")))
    assert.strictEqual(response.status, 202)
    const replay = yield* store.begin(scope, fingerprint, new Date(yield* Clock.currentTimeMillis), Idempotency.TTL_MS)
    assert.strictEqual(replay._tag, "Replay")
  }).pipe(Effect.provide(MemoryStores.layer)))
