/**
 * The job pipeline: the handler of every job (`Pipeline/Jobs`), the recurring housekeeping jobs,
 * and the workers that run them (`Pipeline/JobRunner`). Any number of processes may run them
 * against one database. The server only chooses the options and starts `run`.
 *
 * @since 0.1.0
 */
import { Clock, Duration, Effect, Either, Random } from "effect"
import { AuditLog } from "./Access/AuditLog.js"
import { IdempotencyStore } from "./Access/IdempotencyStore.js"
import * as BatchAnchoring from "./Batches/BatchAnchoring.js"
import * as BatchSigning from "./Batches/BatchSigning.js"
import * as Email from "./Email.js"
import { EmailDeliveryStore } from "./Email/EmailDeliveryStore.js"
import { type Job as StoredJob, JobQueue } from "./Pipeline/JobQueue.js"
import * as JobRunner from "./Pipeline/JobRunner.js"
import * as Jobs from "./Pipeline/Jobs.js"
import * as Plans from "./Tenants/Plans.js"
import * as WebhookDelivery from "./Webhooks/WebhookDelivery.js"

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
  /** The longest a worker sleeps when nothing wakes it (default 15 s): the safety net for a lost wake-up. */
  readonly idle?: Duration.DurationInput | undefined
  /** Magic-link e-mails: delays between attempts, how long a claim link works, and the HTML of a message (the server's template). */
  readonly mail: {
    readonly schedule: ReadonlyArray<number>
    readonly tokenTtlMs: number
    readonly renderHtml: Email.SendOptions["renderHtml"]
  }
}

const after = (now: Date, duration: Duration.DurationInput) => new Date(now.getTime() + Duration.toMillis(duration))

/**
 * The handler of every job, keyed by the job's tag: a job without a handler does not compile.
 *
 * @since 0.1.0
 * @category handlers
 */
export const handlers = (options: Pick<Options, "confirmEvery" | "webhookSchedule" | "mail">) => ({
  SignBatch: (job: Jobs.JobOf<"SignBatch">, now: Date) => Effect.as(BatchSigning.sign(job.batchId, now), JobRunner.done),
  AnchorBatch: (job: Jobs.JobOf<"AnchorBatch">, now: Date) =>
    Effect.as(BatchAnchoring.anchor(job.batchId, now), JobRunner.done),
  ConfirmAnchor: (job: Jobs.JobOf<"ConfirmAnchor">, now: Date) =>
    Effect.map(BatchAnchoring.confirm(job.batchId, now), (outcome) =>
      outcome === "pending" ? JobRunner.again(after(now, options.confirmEvery), "waiting for confirmations") : JobRunner.done),
  DeliverWebhook: (job: Jobs.JobOf<"DeliverWebhook">, now: Date) =>
    Effect.flatMap(Random.next, (random) =>
      Effect.as(WebhookDelivery.deliver(job.deliveryId, now, { schedule: options.webhookSchedule, random }), JobRunner.done)),
  SendEmail: (job: Jobs.JobOf<"SendEmail">, now: Date) =>
    Effect.flatMap(Random.next, (random) =>
      Effect.map(
        Email.send(job.credentialId, now, {
          schedule: options.mail.schedule,
          random,
          tokenTtlMs: options.mail.tokenTtlMs,
          renderHtml: options.mail.renderHtml
        }),
        (outcome) => (outcome._tag === "Retry" ? JobRunner.again(outcome.at, outcome.reason) : JobRunner.done)
      )),
  // Housekeeping reschedules itself: one job of each kind lives forever.
  PurgeAudit: (_job: Jobs.JobOf<"PurgeAudit">, now: Date) =>
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
  PurgeIdempotency: (_job: Jobs.JobOf<"PurgeIdempotency">, now: Date) =>
    Effect.as(Effect.flatMap(IdempotencyStore, (s) => s.purgeExpired(now)), JobRunner.again(after(now, "1 hour"), "hourly")),
  PurgeClaimTokens: (_job: Jobs.JobOf<"PurgeClaimTokens">, now: Date) =>
    Effect.as(Effect.flatMap(EmailDeliveryStore, (s) => s.purgeExpiredTokens(now)), JobRunner.again(after(now, "1 day"), "daily")),
  PurgeJobs: (_job: Jobs.JobOf<"PurgeJobs">, now: Date) =>
    Effect.as(
      Effect.flatMap(JobQueue, (q) =>
        q.purgeFinished(
          new Date(now.getTime() - DONE_JOB_RETENTION_DAYS * DAY_MS),
          new Date(now.getTime() - DEAD_JOB_RETENTION_DAYS * DAY_MS)
        )),
      JobRunner.again(after(now, "1 day"), "daily")
    )
}) satisfies { readonly [T in Jobs.Tag]: (job: Jobs.JobOf<T>, now: Date) => Effect.Effect<JobRunner.Result, unknown, unknown> }

/**
 * The typed handlers as the runner takes them: by stored kind, each decoding its row first. A
 * row that does not decode is dead at once, with the reason. A partial table runs only its
 * kinds (the other kinds stay queued for a runner that has them).
 *
 * @since 0.1.0
 * @category handlers
 */
export const runnerHandlers = <H extends TypedHandlers>(
  typed: H
): { readonly [kind: string]: JobRunner.Handler<JobRunner.Requirements<H>> } =>
  Object.fromEntries(
    (Object.keys(typed) as Array<Jobs.Tag>).map((tag) => [
      Jobs.definitions[tag].kind,
      (stored: StoredJob, now: Date) =>
        Either.match(Jobs.decode(stored), {
          onLeft: (reason) => Effect.succeed(JobRunner.dead(reason)),
          onRight: (job) =>
            job._tag === tag
              ? (typed[tag] as (job: Jobs.Job, now: Date) => Effect.Effect<JobRunner.Result, unknown, JobRunner.Requirements<H>>)(job, now)
              : Effect.succeed(JobRunner.dead(`job kind ${stored.kind} decoded as ${job._tag}`))
        })
    ])
  )

/**
 * Handlers by job tag; `handlers` has one for every job.
 *
 * @since 0.1.0
 * @category handlers
 */
export type TypedHandlers = {
  readonly [T in Jobs.Tag]?: (job: Jobs.JobOf<T>, now: Date) => Effect.Effect<JobRunner.Result, unknown, any>
}

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
  const now = new Date(yield* Clock.currentTimeMillis)
  yield* Jobs.enqueue(Jobs.PurgeAudit.make({}), now)
  yield* Jobs.enqueue(Jobs.PurgeIdempotency.make({}), now)
  yield* Jobs.enqueue(Jobs.PurgeClaimTokens.make({}), now)
  yield* Jobs.enqueue(Jobs.PurgeJobs.make({}), now)
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
      handlers: runnerHandlers(handlers(options)),
      lease: "30 seconds",
      idle: options.idle ?? "15 seconds",
      concurrency: options.concurrency,
      backoff: { baseMs: 1_000, capMs: 5 * 60_000 }
    })
  )
