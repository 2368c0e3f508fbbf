/**
 * The job runner over the memory queue: what each handler outcome does to the job, and that an
 * interrupted runner (graceful shutdown) hands its job back at once without using an attempt.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Option } from "effect"
import type { Job } from "../src/Pipeline/JobQueue.js"
import { JobQueue } from "../src/Pipeline/JobQueue.js"
import * as JobRunner from "../src/Pipeline/JobRunner.js"
import * as MemoryStores from "../src/MemoryStores.js"

const options = <H extends JobRunner.Handlers>(handlers: H) => ({
  workerId: "w",
  handlers,
  lease: Duration.seconds(30),
  idle: Duration.millis(10),
  concurrency: 1,
  backoff: { baseMs: 1000, capMs: 60_000 }
})

const enqueue = Effect.flatMap(JobQueue, (q) => q.enqueue("work", { n: 1 }, new Date(0), { maxAttempts: 3 }))
const job = (id: Job["id"]) => Effect.map(Effect.flatMap(JobQueue, (q) => q.get(id)), Option.getOrThrow)

describe("JobRunner", () => {
  it.effect("Done completes the job; an empty queue runs nothing", () =>
    Effect.gen(function*() {
      const id = yield* enqueue
      assert.isTrue(yield* JobRunner.runOne(options({ work: () => Effect.succeed(JobRunner.done) })))
      assert.strictEqual((yield* job(id)).status, "done")
      assert.isFalse(yield* JobRunner.runOne(options({ work: () => Effect.succeed(JobRunner.done) })))
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("Again reschedules at the given time with the reason", () =>
    Effect.gen(function*() {
      const id = yield* enqueue
      const at = new Date(60_000)
      yield* JobRunner.runOne(options({ work: () => Effect.succeed(JobRunner.again(at, "waiting for confirmations")) }))
      const after = yield* job(id)
      assert.strictEqual(after.status, "queued")
      assert.strictEqual(after.runAt.getTime(), at.getTime())
      assert.strictEqual(after.lastError, "waiting for confirmations")
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("a failure is retried with backoff, and the job dies when its attempts are used up", () =>
    Effect.gen(function*() {
      const id = yield* enqueue
      const failing = options({ work: () => Effect.fail({ _tag: "ChainUnavailable", message: "down" }) })
      yield* JobRunner.runOne(failing)
      const once = yield* job(id)
      assert.strictEqual(once.status, "queued")
      assert.strictEqual(once.lastError, "ChainUnavailable: down")
      assert.isAtLeast(once.runAt.getTime(), 800)
      // Run the remaining attempts (the TestClock stands still: move runAt by claiming later).
      const q = yield* JobQueue
      for (let i = 0; i < 2; i++) {
        const claimed = yield* q.claim(["work"], "w", new Date(10 * 60_000 * (i + 1)), 30_000)
        assert.isTrue(Option.isSome(claimed))
        yield* q.retry(id, "w", "down", new Date(0))
      }
      assert.strictEqual((yield* job(id)).status, "dead")
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("a defect is retried like a failure", () =>
    Effect.gen(function*() {
      const id = yield* enqueue
      yield* JobRunner.runOne(options({ work: () => Effect.die(new Error("boom")) }))
      const after = yield* job(id)
      assert.strictEqual(after.status, "queued")
      assert.include(after.lastError ?? "", "boom")
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("interrupted mid-job (shutdown), the runner releases the job without using an attempt", () =>
    Effect.gen(function*() {
      const id = yield* enqueue
      const entered = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(JobRunner.runOne(options({
        work: () => Effect.zipRight(Deferred.succeed(entered, undefined), Effect.never)
      })))
      yield* Deferred.await(entered)
      assert.strictEqual((yield* job(id)).status, "running")
      yield* Fiber.interrupt(fiber)
      const released = yield* job(id)
      assert.strictEqual(released.status, "queued")
      assert.strictEqual(released.attempts, 0)
      assert.isUndefined(released.lockedBy)
    }).pipe(Effect.provide(MemoryStores.layer)))
})
