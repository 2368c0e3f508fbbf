/**
 * The behaviour every `JobQueue` must show (memory, PGlite, Postgres). Each test uses job
 * kinds of its own, so claims never reach another test's jobs.
 */
import { assert, layer } from "@effect/vitest"
import { Duration, Effect, type Layer, Option } from "effect"
import * as Ids from "@sigil/core/Ids"
import * as Pipeline from "../src/Pipeline.js"
import * as JobQueue from "../src/Pipeline/JobQueue.js"
import * as JobRunner from "../src/Pipeline/JobRunner.js"
import * as Jobs from "../src/Pipeline/Jobs.js"
import * as Transactor from "../src/Transactor.js"
import { at, plus, SECOND, unique } from "./fixtures.js"

export const jobQueueContract = <E>(name: string, stores: Layer.Layer<JobQueue.JobQueue | Transactor.Transactor, E>): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`JobQueue contract: ${name}`, (it) => {
    const queue = JobQueue.JobQueue
    const t0 = at("2025-03-01T12:00:00.000Z")
    const LEASE = 30 * SECOND

    it.effect("enqueues a job with its payload, queued to run now", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("sign_batch")
        const payload = { batchId: Ids.unsafeMake("bat"), nested: { list: [1, "two", null] } }
        const id = yield* q.enqueue(kind, payload, t0)
        assert.match(id, /^job_[A-Z0-9]{26}$/)
        assert.deepStrictEqual(
          yield* q.get(id),
          Option.some({
            id,
            kind,
            payload,
            status: "queued" as const,
            attempts: 0,
            maxAttempts: JobQueue.DEFAULT_MAX_ATTEMPTS,
            runAt: t0,
            leaseUntil: undefined,
            lockedBy: undefined,
            lastError: undefined,
            dedupeKey: undefined,
            createdAt: t0
          })
        )
        assert.isTrue(Option.isNone(yield* q.get(Ids.unsafeMake("job"))))
      }))

    it.effect("claims the oldest due job of the kinds asked for", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("anchor_batch")
        const otherKind = unique("deliver_webhook")
        const late = yield* q.enqueue(kind, { n: 1 }, t0, { runAt: plus(t0, 10 * SECOND) })
        const b = yield* q.enqueue(kind, { n: 2 }, plus(t0, 2))
        const a = yield* q.enqueue(kind, { n: 3 }, plus(t0, 1))
        const c = yield* q.enqueue(kind, { n: 4 }, plus(t0, 2))
        const other = yield* q.enqueue(otherKind, { n: 5 }, t0)
        const now = plus(t0, SECOND)
        const claimed: Array<string> = []
        for (;;) {
          const job = yield* q.claim([kind], "w1", now, LEASE)
          if (Option.isNone(job)) break
          claimed.push(job.value.id)
          assert.strictEqual(job.value.status, "running")
          assert.strictEqual(job.value.attempts, 1)
          assert.strictEqual(job.value.lockedBy, "w1")
          assert.deepStrictEqual(job.value.leaseUntil, plus(now, LEASE))
        }
        // runAt first, then createdAt, then id; the future job and the other kind wait.
        const [first, second] = b < c ? [b, c] : [c, b]
        assert.deepStrictEqual(claimed, [a, first, second])
        assert.strictEqual(Option.getOrThrow(yield* q.get(late)).status, "queued")
        assert.strictEqual(Option.getOrThrow(yield* q.claim([kind, otherKind], "w1", now, LEASE)).id, other)
        assert.strictEqual(Option.getOrThrow(yield* q.claim([kind], "w1", plus(t0, 10 * SECOND), LEASE)).id, late)
        assert.isTrue(Option.isNone(yield* q.claim([], "w1", plus(t0, 60 * SECOND), LEASE)))
      }))

    it.effect("dedupes on the key while a job is queued or running, not after", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("confirm_anchor")
        const dedupeKey = unique("batch")
        const id = yield* q.enqueue(kind, { n: 1 }, t0, { dedupeKey })
        assert.strictEqual(yield* q.enqueue(kind, { n: 2 }, t0, { dedupeKey }), id)
        assert.strictEqual(Option.getOrThrow(yield* q.get(id)).dedupeKey, dedupeKey)
        yield* q.claim([kind], "w1", t0, LEASE)
        assert.strictEqual(yield* q.enqueue(kind, { n: 3 }, t0, { dedupeKey }), id)
        assert.isTrue(yield* q.complete(id, "w1", t0))
        const again = yield* q.enqueue(kind, { n: 4 }, t0, { dedupeKey })
        assert.notStrictEqual(again, id)
        assert.deepStrictEqual(Option.getOrThrow(yield* q.get(again)).payload, { n: 4 })
      }))

    it.effect("a crashed worker's job is taken over once its lease expires", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("sign_batch")
        const id = yield* q.enqueue(kind, {}, t0)
        yield* q.claim([kind], "w1", t0, 1000)
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w2", plus(t0, 999), 1000)))
        const taken = Option.getOrThrow(yield* q.claim([kind], "w2", plus(t0, 1000), 1000))
        assert.strictEqual(taken.id, id)
        assert.strictEqual(taken.attempts, 2)
        assert.strictEqual(taken.lockedBy, "w2")
        // The first worker has lost it: nothing it does counts any more.
        assert.isFalse(yield* q.heartbeat(id, "w1", plus(t0, 1001), 1000))
        assert.isFalse(yield* q.complete(id, "w1", plus(t0, 1001)))
        assert.isFalse(yield* q.retry(id, "w1", "late", plus(t0, 5000)))
        assert.isFalse(yield* q.kill(id, "w1", "late"))
        assert.isFalse(yield* q.release(id, "w1", plus(t0, 1001)))
        assert.isTrue(yield* q.complete(id, "w2", plus(t0, 1500)))
        const done = Option.getOrThrow(yield* q.get(id))
        assert.strictEqual(done.status, "done")
        assert.strictEqual(done.leaseUntil, undefined)
        assert.strictEqual(done.lockedBy, undefined)
      }))

    it.effect("a heartbeat extends the lease", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("sign_batch")
        const id = yield* q.enqueue(kind, {}, t0)
        yield* q.claim([kind], "w1", t0, 1000)
        assert.isTrue(yield* q.heartbeat(id, "w1", plus(t0, 800), 1000))
        assert.deepStrictEqual(Option.getOrThrow(yield* q.get(id)).leaseUntil, plus(t0, 1800))
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w2", plus(t0, 1500), 1000)))
        // Late but not taken: still the worker's own.
        assert.isTrue(yield* q.heartbeat(id, "w1", plus(t0, 1900), 1000))
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w2", plus(t0, 2500), 1000)))
        assert.isTrue(Option.isSome(yield* q.claim([kind], "w2", plus(t0, 2900), 1000)))
      }))

    it.effect("retries at the time given until the attempts are used up, then the job is dead", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("deliver_webhook")
        const id = yield* q.enqueue(kind, {}, t0, { maxAttempts: 2 })
        yield* q.claim([kind], "w1", t0, LEASE)
        const runAt = plus(t0, 5 * SECOND)
        assert.isTrue(yield* q.retry(id, "w1", "503 from endpoint", runAt))
        const queued = Option.getOrThrow(yield* q.get(id))
        assert.strictEqual(queued.status, "queued")
        assert.strictEqual(queued.attempts, 1)
        assert.strictEqual(queued.lastError, "503 from endpoint")
        assert.deepStrictEqual(queued.runAt, runAt)
        assert.strictEqual(queued.lockedBy, undefined)
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w1", plus(runAt, -1), LEASE)))
        const second = Option.getOrThrow(yield* q.claim([kind], "w1", runAt, LEASE))
        assert.strictEqual(second.attempts, 2)
        assert.isTrue(yield* q.retry(id, "w1", "timeout", plus(runAt, SECOND)))
        const dead = Option.getOrThrow(yield* q.get(id))
        assert.strictEqual(dead.status, "dead")
        assert.strictEqual(dead.lastError, "timeout")
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w1", plus(runAt, 60 * SECOND), LEASE)))
      }))

    it.effect("a killed job is dead at once", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("anchor_batch")
        const id = yield* q.enqueue(kind, {}, t0)
        yield* q.claim([kind], "w1", t0, LEASE)
        assert.isTrue(yield* q.kill(id, "w1", "chain rejected the transaction"))
        const dead = Option.getOrThrow(yield* q.get(id))
        assert.strictEqual(dead.status, "dead")
        assert.strictEqual(dead.lastError, "chain rejected the transaction")
        assert.isFalse(yield* q.kill(id, "w1", "again"))
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w1", plus(t0, LEASE * 2), LEASE)))
      }))

    // The only test here with the pipeline's real kinds (the runner claims by kind); the rows
    // are written as an older version or a hand-made INSERT would leave them.
    it.effect("the pipeline's runner makes a job whose payload does not decode dead, with the reason, and never runs it", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const batchId = Ids.unsafeMake("bat")
        const wrongType = yield* q.enqueue("sign_batch", { batch_id: 42 }, t0)
        const missing = yield* q.enqueue("confirm_anchor", {}, plus(t0, 1))
        const good = yield* Jobs.enqueue(Jobs.SignBatch.make({ batchId }), plus(t0, 2))
        const ran: Array<Jobs.Job> = []
        const record = (job: Jobs.Job) => Effect.as(Effect.sync(() => ran.push(job)), JobRunner.done)
        const options = {
          workerId: "w1",
          lease: "30 seconds",
          idle: "1 second",
          concurrency: 1,
          backoff: { baseMs: 1_000, capMs: 1_000 },
          handlers: Pipeline.runnerHandlers({ SignBatch: record, ConfirmAnchor: record })
        } as const
        for (let i = 0; i < 3; i++) assert.isTrue(yield* JobRunner.runOne(options))
        assert.isFalse(yield* JobRunner.runOne(options))
        assert.deepStrictEqual(ran, [Jobs.SignBatch.make({ batchId })])
        assert.strictEqual(Option.getOrThrow(yield* q.get(good)).status, "done")
        for (const [id, kind] of [[wrongType, "sign_batch"], [missing, "confirm_anchor"]] as const) {
          const job = Option.getOrThrow(yield* q.get(id))
          assert.strictEqual(job.status, "dead", kind)
          assert.strictEqual(job.attempts, 1, "dead on its first claim, not retried")
          assert.isTrue(job.lastError?.startsWith(`malformed ${kind} payload: `), job.lastError)
        }
      }))

    it.effect("a released job is claimable at once, its attempt not counted", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("purge_audit")
        const id = yield* q.enqueue(kind, {}, t0)
        yield* q.claim([kind], "w1", t0, LEASE)
        assert.isTrue(yield* q.release(id, "w1", plus(t0, 10)))
        const released = Option.getOrThrow(yield* q.get(id))
        assert.strictEqual(released.status, "queued")
        assert.strictEqual(released.attempts, 0)
        assert.strictEqual(released.leaseUntil, undefined)
        const again = Option.getOrThrow(yield* q.claim([kind], "w2", plus(t0, 20), LEASE))
        assert.strictEqual(again.attempts, 1)
        assert.strictEqual(again.lockedBy, "w2")
      }))

    it.effect("a job whose lease expires on its last attempt is dead, not taken over", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("sign_batch")
        const poison = yield* q.enqueue(kind, {}, t0, { maxAttempts: 1 })
        const next = yield* q.enqueue(kind, {}, plus(t0, 1))
        yield* q.claim([kind], "w1", plus(t0, 1), 1000)
        const claimed = Option.getOrThrow(yield* q.claim([kind], "w2", plus(t0, 2000), 1000))
        assert.strictEqual(claimed.id, next)
        const dead = Option.getOrThrow(yield* q.get(poison))
        assert.strictEqual(dead.status, "dead")
        assert.strictEqual(dead.attempts, 1)
        assert.isString(dead.lastError)
      }))

    it.effect("tells the earliest due time of its kinds: a queued job's run time, a running job's lease end", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const [a, b] = [unique("confirm_anchor"), unique("deliver_webhook")]
        assert.isTrue(Option.isNone(yield* q.nextDueAt([a, b])))
        assert.isTrue(Option.isNone(yield* q.nextDueAt([])))
        yield* q.enqueue(a, {}, t0, { runAt: plus(t0, 9 * SECOND) })
        const soon = yield* q.enqueue(b, {}, t0, { runAt: plus(t0, 3 * SECOND) })
        assert.deepStrictEqual(yield* q.nextDueAt([a, b]), Option.some(plus(t0, 3 * SECOND)))
        assert.deepStrictEqual(yield* q.nextDueAt([a]), Option.some(plus(t0, 9 * SECOND)))
        // Claimed: due again when its lease ends (its worker may die).
        yield* q.claim([b], "w1", plus(t0, 3 * SECOND), LEASE)
        assert.deepStrictEqual(yield* q.nextDueAt([b]), Option.some(plus(t0, 3 * SECOND + LEASE)))
        yield* q.complete(soon, "w1", plus(t0, 4 * SECOND))
        assert.isTrue(Option.isNone(yield* q.nextDueAt([b])), "done jobs are never due")
      }))

    // Timeouts below bound how long a test waits for a wake-up that must come (generous), or
    // how long it watches for one that must not come before a commit (short: an early wake-up
    // is the failure, a slow machine cannot cause it).
    const woken = (ticket: (timeout: Duration.DurationInput) => Effect.Effect<void>, within: Duration.DurationInput) =>
      Effect.map(Effect.timeoutOption(ticket(Duration.infinity), within), Option.isSome)

    it.effect("wakes its workers when a job is enqueued, and only once the enqueuing transaction commits", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("sign_batch")
        const direct = yield* q.wakeup
        yield* q.enqueue(kind, {}, t0)
        assert.isTrue(yield* woken(direct, "10 seconds"), "an enqueue outside a transaction wakes at once")

        const committed = yield* q.wakeup
        yield* Transactor.transactionally(
          Effect.gen(function*() {
            yield* q.enqueue(kind, {}, t0)
            assert.isFalse(yield* woken(committed, "150 millis"), "no wake-up before the commit")
          })
        )
        assert.isTrue(yield* woken(committed, "10 seconds"), "the commit wakes")

        const rolledBack = yield* q.wakeup
        yield* Effect.either(Transactor.transactionally(Effect.zipRight(q.enqueue(kind, {}, t0), Effect.fail("abort"))))
        assert.isFalse(yield* woken(rolledBack, "300 millis"), "a rolled-back enqueue wakes no one")
      }))

    it.effect("wakes its workers when a job is released", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("anchor_batch")
        const id = yield* q.enqueue(kind, {}, t0)
        yield* q.claim([kind], "w1", t0, LEASE)
        const ticket = yield* q.wakeup
        assert.isTrue(yield* q.release(id, "w1", plus(t0, 10)))
        assert.isTrue(yield* woken(ticket, "10 seconds"))
      }))

    it.effect("counts jobs by status", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("purge_idempotency")
        const before = yield* q.counts()
        assert.deepStrictEqual(Object.keys(before).sort(), ["dead", "done", "queued", "running"])
        const ids = [yield* q.enqueue(kind, {}, t0), yield* q.enqueue(kind, {}, t0), yield* q.enqueue(kind, {}, t0)]
        const a = Option.getOrThrow(yield* q.claim([kind], "w", t0, LEASE))
        const b = Option.getOrThrow(yield* q.claim([kind], "w", t0, LEASE))
        yield* q.complete(a.id, "w", t0)
        yield* q.kill(b.id, "w", "no")
        yield* q.claim([kind], "w", t0, LEASE)
        const after = yield* q.counts()
        assert.deepStrictEqual(
          {
            queued: after.queued - before.queued,
            running: after.running - before.running,
            done: after.done - before.done,
            dead: after.dead - before.dead
          },
          { queued: 0, running: 1, done: 1, dead: 1 }
        )
        assert.strictEqual(ids.length, 3)
      }))

    it.effect("purges done jobs and dead ones after their own windows, never live ones", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("purge_jobs")
        // An era no other test uses, so the count is ours alone.
        const old = at("2001-01-01T00:00:00.000Z")
        const finish = (status: "done" | "dead") =>
          Effect.gen(function*() {
            const id = yield* q.enqueue(kind, {}, old)
            const job = Option.getOrThrow(yield* q.claim([kind], "w", old, LEASE))
            assert.strictEqual(job.id, id)
            yield* status === "done" ? q.complete(id, "w", old) : q.kill(id, "w", "permanent")
            return id
          })
        const done = yield* finish("done")
        const dead = yield* finish("dead")
        const running = yield* q.enqueue(kind, {}, old)
        assert.strictEqual(Option.getOrThrow(yield* q.claim([kind], "w", old, LEASE)).id, running)
        const queued = yield* q.enqueue(kind, {}, old)
        // Dead jobs are kept longer (an operator reads them): a window that only reaches done ones.
        assert.strictEqual(yield* q.purgeFinished(plus(old, 1), old), 1)
        assert.isTrue(Option.isNone(yield* q.get(done)))
        assert.isTrue(Option.isSome(yield* q.get(dead)))
        assert.strictEqual(yield* q.purgeFinished(plus(old, 1), plus(old, 1)), 1)
        assert.isTrue(Option.isNone(yield* q.get(dead)))
        assert.strictEqual(yield* q.purgeFinished(plus(old, 1), plus(old, 1)), 0)
        assert.strictEqual(Option.getOrThrow(yield* q.get(queued)).status, "queued")
        assert.strictEqual(Option.getOrThrow(yield* q.get(running)).status, "running")
      }))

    it.effect("concurrent workers claim each job exactly once", () =>
      Effect.gen(function*() {
        const q = yield* queue
        const kind = unique("deliver_webhook")
        const ids = yield* Effect.all(Array.from({ length: 30 }, (_, n) => q.enqueue(kind, { n }, t0)))
        const worker = (name: string) =>
          Effect.gen(function*() {
            const mine: Array<string> = []
            for (;;) {
              const job = yield* q.claim([kind], name, plus(t0, SECOND), LEASE)
              if (Option.isNone(job)) return mine
              mine.push(job.value.id)
              assert.isTrue(yield* q.complete(job.value.id, name, plus(t0, SECOND)))
            }
          })
        const runs = yield* Effect.all(["w1", "w2", "w3", "w4"].map(worker), { concurrency: "unbounded" })
        assert.deepStrictEqual(runs.flat().sort(), [...ids].sort())
      }))
  })
}
