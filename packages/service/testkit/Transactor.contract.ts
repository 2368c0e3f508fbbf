/**
 * The behaviour every `Transactor` must show with the stores it covers (memory, PGlite,
 * Postgres): a batch, its credentials, its `batch.created` event and its job are written
 * together or not at all, across ports.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Either, Exit, type Layer, Option } from "effect"
import * as BatchStore from "../src/Batches/BatchStore.js"
import * as EventStore from "../src/Events/EventStore.js"
import * as Ids from "@sigil/core/Ids"
import * as JobQueue from "../src/Pipeline/JobQueue.js"
import * as TenantStore from "../src/Tenants/TenantStore.js"
import * as Transactor from "../src/Transactor.js"
import { at, batchOf, newTenant, tenantOf, unique } from "./fixtures.js"

class Boom {
  readonly _tag = "Boom"
}

type Ports =
  | Transactor.Transactor
  | TenantStore.TenantStore
  | BatchStore.BatchStore
  | EventStore.EventStore
  | JobQueue.JobQueue

export const transactorContract = <E>(name: string, stores: Layer.Layer<Ports, E>): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`Transactor contract: ${name}`, (it) => {
    const now = at("2025-03-01T12:00:00.000Z")

    /** What `POST /batches` writes; fails (or dies) after the event when asked. */
    const createBatch = (tenantId: TenantStore.Tenant["id"], kind: string, failure?: "fail" | "die") =>
      Effect.gen(function*() {
        const batches = yield* BatchStore.BatchStore
        const events = yield* EventStore.EventStore
        const jobs = yield* JobQueue.JobQueue
        const { batch, credentials, recipients } = batchOf(tenantId, { n: 5, documentSize: 512 })
        const event: EventStore.EventRecord = {
          id: Ids.unsafeMake("evt"),
          type: "batch.created",
          tenantId,
          environment: "test",
          data: { batch_id: batch.id, credentials_count: 5, environment: "test" },
          createdAt: now
        }
        const written = { batch, credentials, event }
        const write = Effect.gen(function*() {
          yield* batches.insert(batch, credentials, recipients)
          yield* events.append(event, [Ids.unsafeMake("whk")])
          if (failure === "fail") return yield* Effect.fail(new Boom())
          if (failure === "die") return yield* Effect.die("crash between the event and the job")
          yield* jobs.enqueue(kind, { batchId: batch.id }, now)
          return written
        })
        return { written, result: yield* Effect.exit(Transactor.transactionally(write)) }
      })

    const nothingOf = (written: { batch: BatchStore.BatchRecord; credentials: ReadonlyArray<BatchStore.CredentialRecord>; event: EventStore.EventRecord }, kind: string) =>
      Effect.gen(function*() {
        const batches = yield* BatchStore.BatchStore
        const events = yield* EventStore.EventStore
        const jobs = yield* JobQueue.JobQueue
        assert.isTrue(Option.isNone(yield* batches.batchById(written.batch.id)))
        for (const c of written.credentials) {
          assert.isTrue(Option.isNone(yield* batches.credentialById(c.id)))
          assert.isTrue(Option.isNone(yield* batches.recipient(c.id)))
        }
        assert.deepStrictEqual(yield* batches.credentialsOf(written.batch.id), [])
        assert.deepStrictEqual(yield* batches.listBatches(written.batch.tenantId, "test", { limit: 10 }), [])
        assert.isTrue(Option.isNone(yield* events.event(written.event.id)))
        assert.deepStrictEqual(yield* events.deliveriesOf(written.event.id), [])
        assert.isTrue(Option.isNone(yield* jobs.claim([kind], "w", now, 1000)))
      })

    it.effect("commits the batch, its credentials, its event and its job together", () =>
      Effect.gen(function*() {
        const tenant = yield* newTenant()
        const kind = unique("sign_batch")
        const { written, result } = yield* createBatch(tenant.id, kind)
        assert.isTrue(Exit.isSuccess(result))
        const batches = yield* BatchStore.BatchStore
        assert.deepStrictEqual(yield* batches.batchById(written.batch.id), Option.some(written.batch))
        assert.strictEqual((yield* batches.credentialsOf(written.batch.id)).length, 5)
        assert.isTrue(Option.isSome(yield* (yield* EventStore.EventStore).event(written.event.id)))
        const job = yield* (yield* JobQueue.JobQueue).claim([kind], "w", now, 1000)
        assert.deepStrictEqual(Option.map(job, (j) => j.payload), Option.some({ batchId: written.batch.id }))
      }))

    it.effect("a failure between the writes leaves nothing", () =>
      Effect.gen(function*() {
        const tenant = yield* newTenant()
        const kind = unique("sign_batch")
        const { written, result } = yield* createBatch(tenant.id, kind, "fail")
        assert.deepStrictEqual(result, Exit.fail(new Boom()))
        yield* nothingOf(written, kind)
      }))

    it.effect("a defect between the writes leaves nothing", () =>
      Effect.gen(function*() {
        const tenant = yield* newTenant()
        const kind = unique("sign_batch")
        const { written, result } = yield* createBatch(tenant.id, kind, "die")
        assert.isTrue(Exit.isFailure(result))
        yield* nothingOf(written, kind)
      }))

    it.effect("rolls back a tenant and its quota reservation together", () =>
      Effect.gen(function*() {
        const tenants = yield* TenantStore.TenantStore
        const tenant = tenantOf()
        const result = yield* Effect.either(Transactor.transactionally(Effect.gen(function*() {
          yield* tenants.create(tenant)
          assert.isTrue(yield* tenants.reserveCredentials(tenant.id, "2025-03", 10, 100))
          // Inside, the transaction sees its own writes.
          assert.isTrue(Option.isSome(yield* tenants.get(tenant.id)))
          assert.strictEqual(yield* tenants.credentialsIssued(tenant.id, "2025-03"), 10)
          return yield* Effect.fail(new Boom())
        })))
        assert.isTrue(Either.isLeft(result))
        assert.isTrue(Option.isNone(yield* tenants.get(tenant.id)))
        assert.strictEqual(yield* tenants.credentialsIssued(tenant.id, "2025-03"), 0)
      }))

    it.effect("a nested transaction that fails rolls back only its own writes", () =>
      Effect.gen(function*() {
        const tenants = yield* TenantStore.TenantStore
        const jobs = yield* JobQueue.JobQueue
        const kind = unique("sign_batch")
        const outer = tenantOf()
        const inner = tenantOf()
        yield* Transactor.transactionally(Effect.gen(function*() {
          yield* tenants.create(outer)
          const nested = yield* Effect.either(Transactor.transactionally(Effect.gen(function*() {
            yield* tenants.create(inner)
            yield* jobs.enqueue(kind, {}, now)
            return yield* Effect.fail(new Boom())
          })))
          assert.isTrue(Either.isLeft(nested))
          yield* jobs.enqueue(kind, { outer: true }, now)
        }))
        assert.isTrue(Option.isSome(yield* tenants.get(outer.id)))
        assert.isTrue(Option.isNone(yield* tenants.get(inner.id)))
        const job = Option.getOrThrow(yield* jobs.claim([kind], "w", now, 1000))
        assert.deepStrictEqual(job.payload, { outer: true })
        assert.isTrue(Option.isNone(yield* jobs.claim([kind], "w", now, 1000)))
      }))
  })
}
