/**
 * `BatchedAuditLog`: records of reads wait and are written together (at the flush, or when
 * `maxBatch` wait); records of calls that can change state are written at once; listing writes
 * what waits first.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Ids from "@sigil/core/Ids"
import { Context, Effect, Layer } from "effect"
import { AuditLog, type Entry, type Service } from "../src/Access/AuditLog.js"
import * as BatchedAuditLog from "../src/Access/BatchedAuditLog.js"
import * as MemoryStores from "../src/MemoryStores.js"
import { newTenant } from "../testkit/fixtures.js"

const entry = (tenantId: Entry["tenantId"], method: string): Entry => ({
  requestId: Ids.unsafeMake("req"),
  tenantId,
  apiKeyId: Ids.unsafeMake("ak"),
  method,
  route: "/v1/batches/:id",
  status: 200,
  at: new Date()
})

/** The log below, counting its writes. */
const counted = (store: Service) => {
  const writes = { record: 0, recordAll: 0 }
  const service: Service = {
    ...store,
    record: (e) => Effect.zipRight(Effect.sync(() => writes.record++), store.record(e)),
    recordAll: (es) => Effect.zipRight(Effect.sync(() => writes.recordAll++), store.recordAll(es))
  }
  return { service, writes }
}

describe("BatchedAuditLog", () => {
  it.effect("reads wait for the flush, in one write; a call that can change state is written at once", () =>
    Effect.gen(function*() {
      const below = counted(yield* AuditLog)
      const tenant = yield* newTenant()
      const batched = BatchedAuditLog.make(below.service, { flushMs: 1_000, maxBatch: 100 })
      for (let i = 0; i < 10; i++) yield* batched.log.record(entry(tenant.id, i % 2 === 0 ? "GET" : "HEAD"))
      assert.strictEqual(batched.waiting(), 10)
      assert.strictEqual((yield* below.service.list(tenant.id, { limit: 100 })).length, 0, "nothing written yet")
      const post = entry(tenant.id, "POST")
      yield* batched.log.record(post)
      assert.deepStrictEqual(yield* below.service.list(tenant.id, { limit: 100 }), [post])
      yield* batched.flush
      assert.strictEqual((yield* below.service.list(tenant.id, { limit: 100 })).length, 11)
      assert.deepStrictEqual(below.writes, { record: 1, recordAll: 1 })
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("maxBatch waiting reads are written without waiting for the flush; listing writes what waits first", () =>
    Effect.gen(function*() {
      const below = counted(yield* AuditLog)
      const tenant = yield* newTenant()
      const batched = BatchedAuditLog.make(below.service, { flushMs: 60_000, maxBatch: 5 })
      for (let i = 0; i < 7; i++) yield* batched.log.record(entry(tenant.id, "GET"))
      assert.strictEqual(below.writes.recordAll, 1)
      assert.strictEqual(batched.waiting(), 2)
      assert.strictEqual((yield* batched.log.list(tenant.id, { limit: 100 })).length, 7)
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("the layer writes what waits when it closes", () =>
    Effect.gen(function*() {
      const tenant = yield* newTenant()
      const store = yield* AuditLog
      const open = BatchedAuditLog.layer({ flushMs: 60_000, maxBatch: 100 }).pipe(Layer.provide(Layer.succeed(AuditLog, store)))
      const whileOpen = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(open)
        yield* Context.get(context, AuditLog).record(entry(tenant.id, "GET"))
        return (yield* store.list(tenant.id, { limit: 100 })).length
      }))
      assert.strictEqual(whileOpen, 0, "waiting while the layer is open")
      assert.strictEqual((yield* store.list(tenant.id, { limit: 100 })).length, 1, "written when it closed")
    }).pipe(Effect.provide(MemoryStores.layer)))
})
