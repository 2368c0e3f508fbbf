/**
 * The typed job pipeline: what `enqueue` stores (the queue's wire form, unchanged) and what
 * `decode` reads back. A row that does not decode becoming a dead job with its reason is in the
 * JobQueue contract (`testkit/JobQueue.contract.ts`), run on memory, PGlite and Postgres.
 */
import { assert, describe, it } from "@effect/vitest"
import type { BatchId, CredentialId, DeliveryId } from "@sigil/core/Ids"
import { Effect, Either, Option } from "effect"
import * as MemoryStores from "../src/MemoryStores.js"
import { JobQueue } from "../src/Pipeline/JobQueue.js"
import * as Jobs from "../src/Pipeline/Jobs.js"

const batchId = "bat_01J00000000000000000000000" as BatchId
const now = new Date("2026-06-01T00:00:00Z")

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

  it.effect("decode names why a row is not a job: an unknown kind, a payload of the wrong shape", () =>
    Effect.gen(function*() {
      const q = yield* JobQueue
      const stored = Option.getOrThrow(yield* q.get(yield* Jobs.enqueue(Jobs.SignBatch.make({ batchId }), now)))
      assert.deepStrictEqual(Jobs.decode({ ...stored, kind: "sign_batches" }), Either.left('unknown job kind "sign_batches"'))
      const wrong = Jobs.decode({ ...stored, payload: { batch_id: "crd_01J00000000000000000000000" } })
      assert.isTrue(Either.isLeft(wrong) && wrong.left.startsWith("malformed sign_batch payload: "))
    }).pipe(Effect.provide(MemoryStores.layer)))
})
