/**
 * The workers: which core service runs each kind of job, how often to re-check an anchor, and
 * the recurring housekeeping jobs. Any number of processes may run them against one database.
 *
 * @since 0.1.0
 */
import * as BatchAnchoring from "@sigil/service/Batches/BatchAnchoring"
import { AuditLog } from "@sigil/service/Access/AuditLog"
import * as Email from "@sigil/service/Email"
import { EmailDeliveryStore } from "@sigil/service/Email/EmailDeliveryStore"
import type { BatchId, CredentialId, DeliveryId } from "@sigil/core/Ids"
import { IdempotencyStore } from "@sigil/service/Access/IdempotencyStore"
import { type Job, JobQueue } from "@sigil/service/Pipeline/JobQueue"
import * as JobRunner from "@sigil/service/Pipeline/JobRunner"
import * as Plans from "@sigil/service/Tenants/Plans"
import * as BatchSigning from "@sigil/service/Batches/BatchSigning"
import * as WebhookDelivery from "@sigil/service/Webhooks/WebhookDelivery"
import { Clock, Duration, Effect, Random } from "effect"
import * as EmailMessage from "./EmailMessage.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly workerId: string
  readonly concurrency: number
  /** How often a pending anchor is checked again. */
  readonly confirmEvery: Duration.DurationInput
  readonly webhookSchedule: ReadonlyArray<number>
  /** Magic-link e-mails: delays between attempts, and how long a claim link works. */
  readonly mail: { readonly schedule: ReadonlyArray<number>; readonly tokenTtlMs: number }
}

const after = (now: Date, duration: Duration.DurationInput) => new Date(now.getTime() + Duration.toMillis(duration))

const batchOf = (payload: { readonly [k: string]: unknown }) => payload.batch_id as BatchId

/**
 * The job handlers.
 *
 * @since 0.1.0
 * @category handlers
 */
export const handlers = (options: Pick<Options, "confirmEvery" | "webhookSchedule" | "mail">) => ({
  sign_batch: (job: Job, now: Date) => Effect.as(BatchSigning.signBatch(batchOf(job.payload), now), JobRunner.done),
  anchor_batch: (job: Job, now: Date) => Effect.as(BatchAnchoring.anchorBatch(batchOf(job.payload), now), JobRunner.done),
  confirm_anchor: (job: Job, now: Date) =>
    Effect.map(BatchAnchoring.confirmAnchor(batchOf(job.payload), now), (outcome) =>
      outcome === "pending" ? JobRunner.again(after(now, options.confirmEvery), "waiting for confirmations") : JobRunner.done),
  deliver_webhook: (job: Job, now: Date) =>
    Effect.flatMap(Random.next, (random) =>
      Effect.as(
        WebhookDelivery.deliver(job.payload.delivery_id as DeliveryId, now, { schedule: options.webhookSchedule, random }),
        JobRunner.done
      )),
  send_email: (job: Job, now: Date) =>
    Effect.flatMap(Random.next, (random) =>
      Effect.map(
        Email.send(job.payload.credential_id as CredentialId, now, {
          schedule: options.mail.schedule,
          random,
          tokenTtlMs: options.mail.tokenTtlMs,
          renderHtml: EmailMessage.render
        }),
        (outcome) => (outcome._tag === "Retry" ? JobRunner.again(outcome.at, outcome.reason) : JobRunner.done)
      )),
  // Housekeeping reschedules itself: one job of each kind lives forever.
  purge_audit: (_job: Job, now: Date) =>
    Effect.as(
      Effect.flatMap(AuditLog, (log) =>
        log.purgeExpired(now, {
          developer: Plans.limits.developer.auditRetentionDays,
          starter: Plans.limits.starter.auditRetentionDays,
          institution: Plans.limits.institution.auditRetentionDays,
          industry: Plans.limits.industry.auditRetentionDays
        })),
      JobRunner.again(after(now, "1 day"), "daily")
    ),
  purge_idempotency: (_job: Job, now: Date) =>
    Effect.as(Effect.flatMap(IdempotencyStore, (s) => s.purgeExpired(now)), JobRunner.again(after(now, "1 hour"), "hourly")),
  purge_claim_tokens: (_job: Job, now: Date) =>
    Effect.as(Effect.flatMap(EmailDeliveryStore, (s) => s.purgeExpiredTokens(now)), JobRunner.again(after(now, "1 day"), "daily")),
  purge_jobs: (_job: Job, now: Date) =>
    Effect.as(
      Effect.flatMap(JobQueue, (q) =>
        q.purgeFinished(
          new Date(now.getTime() - DONE_JOB_RETENTION_DAYS * DAY_MS),
          new Date(now.getTime() - DEAD_JOB_RETENTION_DAYS * DAY_MS)
        )),
      JobRunner.again(after(now, "1 day"), "daily")
    )
})

const DAY_MS = 86_400_000

/**
 * How long finished jobs stay in the queue's table: done ones a week (their effects are in the
 * batches, events and deliveries), dead ones 90 days (an operator investigates them).
 *
 * @since 0.1.0
 * @category housekeeping
 */
export const DONE_JOB_RETENTION_DAYS = 7

/**
 * @since 0.1.0
 * @category housekeeping
 */
export const DEAD_JOB_RETENTION_DAYS = 90

/**
 * Makes sure the recurring jobs exist (their dedupe keys keep one of each).
 *
 * @since 0.1.0
 * @category housekeeping
 */
export const scheduleHousekeeping = Effect.gen(function*() {
  const jobs = yield* JobQueue
  const now = new Date(yield* Clock.currentTimeMillis)
  yield* jobs.enqueue("purge_audit", {}, now, { dedupeKey: "purge_audit", maxAttempts: 1_000_000 })
  yield* jobs.enqueue("purge_idempotency", {}, now, { dedupeKey: "purge_idempotency", maxAttempts: 1_000_000 })
  yield* jobs.enqueue("purge_claim_tokens", {}, now, { dedupeKey: "purge_claim_tokens", maxAttempts: 1_000_000 })
  yield* jobs.enqueue("purge_jobs", {}, now, { dedupeKey: "purge_jobs", maxAttempts: 1_000_000 })
})

/**
 * Runs the workers until interrupted (interruption releases the jobs in hand).
 *
 * @since 0.1.0
 * @category running
 */
export const run = (options: Options) =>
  Effect.zipRight(
    scheduleHousekeeping,
    JobRunner.run({
      workerId: options.workerId,
      handlers: handlers(options),
      lease: "30 seconds",
      idle: "250 millis",
      concurrency: options.concurrency,
      backoff: { baseMs: 1_000, capMs: 5 * 60_000 }
    })
  )
