/**
 * The typed job pipeline: what `enqueue` stores (the queue's wire form, unchanged), what `decode`
 * reads back, and a row that does not decode becoming a dead job with its reason.
 */
import { assert, describe, it } from "@effect/vitest"
import type { BatchId, CredentialId, DeliveryId } from "@sigil/core/Ids"
import { Effect, Either, Option } from "effect"
import * as MemoryStores from "../src/MemoryStores.js"
import * as Pipeline from "../src/Pipeline.js"
import { JobQueue } from "../src/Pipeline/JobQueue.js"
import * as JobRunner from "../src/Pipeline/JobRunner.js"
import * as Jobs from "../src/Pipeline/Jobs.js"

const batchId = "bat_01J00000000000000000000000" as BatchId
const now = new Date("2026-06-01T00:00:00Z")

const ran: Array<Jobs.Job> = []

const options = {
  workerId: "w",
  lease: "30 seconds",
  idle: "10 millis",
  concurrency: 1,
  backoff: { baseMs: 1_000, capMs: 60_000 },
  handlers: Pipeline.runnerHandlers(
    Object.fromEntries(
      (Object.keys(Jobs.definitions) as Array<Jobs.Tag>).map((tag) => [tag, (job: Jobs.Job) => {
        ran.push(job)
        return Effect.succeed(JobRunner.done)
      }])
    ) as unknown as { readonly [T in Jobs.Tag]: (job: Jobs.JobOf<T>, now: Date) => Effect.Effect<JobRunner.Result> }
  )
} as const

describe("Jobs", () => {
  it.effect("enqueue stores each job in the queue's wire form, with its dedupe key and attempts", () =>
    Effect.gen(function*() {
      const q = yield* JobQueue
      const cases: ReadonlyArray<readonly [Jobs.Job, string, object, string, number | undefined]> = [
        [Jobs.SignBatch.make({ batchId }), "sign_batch", { batch_id: batchId }, `sign:${batchId}`, Jobs.PIPELINE_MAX_ATTEMPTS],
        [Jobs.AnchorBatch.make({ batchId }), "anchor_batch", { batch_id: batchId }, `anchor:${batchId}`, Jobs.PIPELINE_MAX_ATTEMPTS],
        [Jobs.ConfirmAnchor.make({ batchId }), "confirm_anchor", { batch_id: batchId }, `confirm:${batchId}`, Jobs.PIPELINE_MAX_ATTEMPTS],
        [Jobs.DeliverWebhook.make({ deliveryId: "dlv_01J00000000000000000000000" as DeliveryId }), "deliver_webhook", { delivery_id: "dlv_01J00000000000000000000000" }, "deliver:dlv_01J00000000000000000000000", undefined],
        [Jobs.SendEmail.make({ credentialId: "crd_01J00000000000000000000000" as CredentialId }), "send_email", { credential_id: "crd_01J00000000000000000000000" }, "email:crd_01J00000000000000000000000", Jobs.EMAIL_MAX_ATTEMPTS],
        [Jobs.PurgeJobs.make({}), "purge_jobs", {}, "purge_jobs", Jobs.PIPELINE_MAX_ATTEMPTS]
      ]
      for (const [job, kind, payload, dedupeKey, maxAttempts] of cases) {
        const stored = Option.getOrThrow(yield* q.get(yield* Jobs.enqueue(job, now)))
        assert.strictEqual(stored.kind, kind)
        assert.deepStrictEqual(stored.payload, payload)
        assert.strictEqual(stored.dedupeKey, dedupeKey)
        if (maxAttempts !== undefined) assert.strictEqual(stored.maxAttempts, maxAttempts)
        assert.deepStrictEqual(Jobs.decode(stored), Either.right(job))
      }
      assert.deepStrictEqual([...Jobs.kinds].sort(), [
        "anchor_batch", "confirm_anchor", "deliver_webhook", "purge_audit", "purge_claim_tokens", "purge_idempotency", "purge_jobs", "send_email", "sign_batch"
      ])
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("a row whose payload does not decode is dead at once, with the reason, never run", () =>
    Effect.gen(function*() {
      const q = yield* JobQueue
      const epoch = new Date(0) // the test clock's now
      const bad = yield* q.enqueue("sign_batch", { batch_id: 42 }, epoch)
      const missing = yield* q.enqueue("confirm_anchor", {}, epoch)
      const good = yield* Jobs.enqueue(Jobs.AnchorBatch.make({ batchId }), epoch)
      ran.length = 0
      for (let i = 0; i < 3; i++) assert.isTrue(yield* JobRunner.runOne(options))
      assert.deepStrictEqual(ran, [Jobs.AnchorBatch.make({ batchId })])
      assert.strictEqual(Option.getOrThrow(yield* q.get(good)).status, "done")
      for (const id of [bad, missing]) {
        const job = Option.getOrThrow(yield* q.get(id))
        assert.strictEqual(job.status, "dead")
        assert.strictEqual(job.attempts, 1)
        assert.match(job.lastError ?? "", /^malformed (sign_batch|confirm_anchor) payload: /)
      }
    }).pipe(Effect.provide(MemoryStores.layer)))
})
