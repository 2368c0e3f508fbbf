/**
 * The recurring housekeeping jobs: scheduled once each however often the server starts, and
 * the finished-jobs purge keeps the queue's table from growing forever.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as MemoryStores from "../src/MemoryStores.js"
import * as Pipeline from "../src/Pipeline.js"
import { JobQueue } from "../src/Pipeline/JobQueue.js"
import * as Jobs from "../src/Pipeline/Jobs.js"

const DAY = 86_400_000
const handlers = Pipeline.handlers({
  confirmEvery: "5 seconds",
  webhookSchedule: [0],
  mail: { schedule: [0], tokenTtlMs: DAY, renderHtml: () => "" }
})

// Runs one job of `kind` to the end through the queue, as a worker would.
const finish = (kind: string, at: Date, status: "done" | "dead") =>
  Effect.gen(function*() {
    const q = yield* JobQueue
    const id = yield* q.enqueue(kind, {}, at)
    Option.getOrThrow(yield* q.claim([kind], "w", at, 30_000))
    yield* status === "done" ? q.complete(id, "w", at) : q.kill(id, "w", "permanent")
    return id
  })

describe("housekeeping", () => {
  it.effect("schedules each recurring job once, however often the server starts", () =>
    Effect.gen(function*() {
      const q = yield* JobQueue
      yield* Pipeline.scheduleHousekeeping
      yield* Pipeline.scheduleHousekeeping
      const kinds = ["purge_audit", "purge_idempotency", "purge_claim_tokens", "purge_jobs"]
      for (const kind of kinds) {
        assert.isTrue(Option.isSome(yield* q.claim([kind], "w", new Date(), 30_000)), kind)
        assert.isTrue(Option.isNone(yield* q.claim([kind], "w", new Date(), 30_000)), `${kind} twice`)
      }
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("purge_jobs drops done jobs after a week and dead ones after 90 days, then comes back daily", () =>
    Effect.gen(function*() {
      const q = yield* JobQueue
      const now = new Date("2026-06-01T00:00:00Z")
      const daysAgo = (n: number) => new Date(now.getTime() - n * DAY)
      const oldDone = yield* finish("sign_batch", daysAgo(Pipeline.DONE_JOB_RETENTION_DAYS + 1), "done")
      const recentDone = yield* finish("sign_batch", daysAgo(Pipeline.DONE_JOB_RETENTION_DAYS - 1), "done")
      const oldDead = yield* finish("anchor_batch", daysAgo(Pipeline.DEAD_JOB_RETENTION_DAYS + 1), "dead")
      const recentDead = yield* finish("anchor_batch", daysAgo(Pipeline.DONE_JOB_RETENTION_DAYS + 1), "dead")
      const waiting = yield* q.enqueue("deliver_webhook", {}, daysAgo(365))

      const result = yield* handlers.PurgeJobs(Jobs.PurgeJobs.make({}), now)

      assert.deepStrictEqual(result, { _tag: "Again", at: new Date(now.getTime() + DAY), reason: "daily" })
      assert.isTrue(Option.isNone(yield* q.get(oldDone)))
      assert.isTrue(Option.isNone(yield* q.get(oldDead)))
      for (const kept of [recentDone, recentDead, waiting]) assert.isTrue(Option.isSome(yield* q.get(kept)))
    }).pipe(Effect.provide(MemoryStores.layer)))
})
