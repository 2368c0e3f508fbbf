/**
 * Every job the pipeline runs, as one typed union, and how each is stored in the `JobQueue`: its
 * kind and payload (the queue's wire form, unchanged since the first migration, so queued rows
 * keep working), its default deduplication key and its attempts. `enqueue` takes a typed job;
 * `decode` turns a claimed row back into one, and a row that does not decode is a dead job with
 * its reason, never a cast.
 *
 * @since 0.1.0
 */
import * as Ids from "@sigil/core/Ids"
import type { JsonObject } from "@sigil/core/Document"
import { Effect, Either, ParseResult, Schema } from "effect"
import type { EnqueueOptions, Job as StoredJob, JobKind } from "./JobQueue.js"
import { JobQueue } from "./JobQueue.js"

/**
 * Signs a pending batch (`Batches/BatchSigning`).
 *
 * @since 0.1.0
 * @category jobs
 */
export const SignBatch = Schema.TaggedStruct("SignBatch", { batchId: Ids.BatchId })

/**
 * Sends a signed batch's anchoring transaction (`Batches/BatchAnchoring`).
 *
 * @since 0.1.0
 * @category jobs
 */
export const AnchorBatch = Schema.TaggedStruct("AnchorBatch", { batchId: Ids.BatchId })

/**
 * Checks a sent anchoring transaction until it is final (`Batches/BatchAnchoring`).
 *
 * @since 0.1.0
 * @category jobs
 */
export const ConfirmAnchor = Schema.TaggedStruct("ConfirmAnchor", { batchId: Ids.BatchId })

/**
 * One attempt of one webhook delivery (`Webhooks/WebhookDelivery`).
 *
 * @since 0.1.0
 * @category jobs
 */
export const DeliverWebhook = Schema.TaggedStruct("DeliverWebhook", { deliveryId: Ids.DeliveryId })

/**
 * One attempt of one magic-link e-mail (`Email`).
 *
 * @since 0.1.0
 * @category jobs
 */
export const SendEmail = Schema.TaggedStruct("SendEmail", { credentialId: Ids.CredentialId })

/**
 * Housekeeping: expired audit records, idempotency keys, claim tokens and finished jobs. Each
 * reschedules itself, so one job of each kind lives forever.
 *
 * @since 0.1.0
 * @category jobs
 */
export const PurgeAudit = Schema.TaggedStruct("PurgeAudit", {})

/**
 * @since 0.1.0
 * @category jobs
 */
export const PurgeIdempotency = Schema.TaggedStruct("PurgeIdempotency", {})

/**
 * @since 0.1.0
 * @category jobs
 */
export const PurgeClaimTokens = Schema.TaggedStruct("PurgeClaimTokens", {})

/**
 * @since 0.1.0
 * @category jobs
 */
export const PurgeJobs = Schema.TaggedStruct("PurgeJobs", {})

/**
 * @since 0.1.0
 * @category jobs
 */
export const Job = Schema.Union(
  SignBatch,
  AnchorBatch,
  ConfirmAnchor,
  DeliverWebhook,
  SendEmail,
  PurgeAudit,
  PurgeIdempotency,
  PurgeClaimTokens,
  PurgeJobs
)

/**
 * @since 0.1.0
 * @category jobs
 */
export type Job = typeof Job.Type

/**
 * @since 0.1.0
 * @category jobs
 */
export type Tag = Job["_tag"]

/**
 * @since 0.1.0
 * @category jobs
 */
export type JobOf<T extends Tag> = Extract<Job, { readonly _tag: T }>

/**
 * Attempts of a pipeline job (signing, anchoring, confirming): effectively unbounded, since a
 * failure is an outage to wait out, never a reason to drop a batch (decisions §4).
 *
 * @since 0.1.0
 * @category constants
 */
export const PIPELINE_MAX_ATTEMPTS = 1_000_000

/**
 * Attempts of one e-mail job: the message's own schedule decides when it is `failed`; this
 * only bounds a job that keeps dying.
 *
 * @since 0.1.0
 * @category constants
 */
export const EMAIL_MAX_ATTEMPTS = 100

/**
 * Attempts of a webhook job, when the queue's default applies (the delivery's own schedule
 * enqueues each next attempt as a job of its own).
 *
 * @since 0.1.0
 * @category constants
 */
export const WEBHOOK_MAX_ATTEMPTS: number | undefined = undefined

/** How a job is stored: kind, payload (both unchanged on the wire), and its defaults. */
interface Definition<J extends Job> {
  readonly kind: JobKind
  readonly payload: Schema.Schema<J, JsonObject>
  readonly dedupeKey: (job: J) => string
  readonly maxAttempts: number | undefined
}

const withPayload = <J extends Job, F extends Schema.Struct.Fields>(
  job: Schema.Schema<J, any>,
  wire: F,
  to: (wire: Schema.Struct.Type<F>) => J,
  from: (job: J) => Schema.Struct.Type<F>
): Schema.Schema<J, JsonObject> =>
  Schema.transform(Schema.Struct(wire), Schema.typeSchema(job), {
    strict: false,
    decode: (w) => to(w as Schema.Struct.Type<F>),
    encode: (j) => from(j as J)
  }) as unknown as Schema.Schema<J, JsonObject>

// The batch pipeline's jobs: `{ batch_id }` on the wire, deduplicated per batch, never dropped.
const batchJob = <T extends "SignBatch" | "AnchorBatch" | "ConfirmAnchor">(
  tag: T,
  kind: JobKind,
  dedupePrefix: string
): Definition<JobOf<T>> => ({
  kind,
  payload: Schema.transform(
    Schema.Struct({ batch_id: Ids.BatchId }),
    Schema.Struct({ _tag: Schema.Literal(tag), batchId: Ids.BatchId }),
    { strict: false, decode: (w) => ({ _tag: tag, batchId: w.batch_id }), encode: (j) => ({ batch_id: j.batchId }) }
  ) as unknown as Schema.Schema<JobOf<T>, JsonObject>,
  dedupeKey: (j) => `${dedupePrefix}:${(j as { readonly batchId: Ids.BatchId }).batchId}`,
  maxAttempts: PIPELINE_MAX_ATTEMPTS
})

const housekeeping = <T extends "PurgeAudit" | "PurgeIdempotency" | "PurgeClaimTokens" | "PurgeJobs">(
  tag: T,
  kind: JobKind
): Definition<JobOf<T>> => ({
  kind,
  payload: Schema.transform(Schema.Struct({}), Schema.Struct({ _tag: Schema.Literal(tag) }), {
    strict: true,
    decode: () => ({ _tag: tag }),
    encode: () => ({})
  }) as unknown as Schema.Schema<JobOf<T>, JsonObject>,
  dedupeKey: () => kind,
  maxAttempts: PIPELINE_MAX_ATTEMPTS
})

/**
 * Each job's stored form and defaults.
 *
 * @since 0.1.0
 * @category definitions
 */
export const definitions: { readonly [T in Tag]: Definition<JobOf<T>> } = {
  SignBatch: batchJob("SignBatch", "sign_batch", "sign"),
  AnchorBatch: batchJob("AnchorBatch", "anchor_batch", "anchor"),
  // Waiting for confirmations is not failing: a confirmation job may run many times.
  ConfirmAnchor: batchJob("ConfirmAnchor", "confirm_anchor", "confirm"),
  DeliverWebhook: {
    kind: "deliver_webhook",
    payload: withPayload(
      DeliverWebhook,
      { delivery_id: Ids.DeliveryId },
      (w) => DeliverWebhook.make({ deliveryId: w.delivery_id }),
      (j) => ({ delivery_id: j.deliveryId })
    ),
    dedupeKey: (j) => `deliver:${j.deliveryId}`,
    maxAttempts: WEBHOOK_MAX_ATTEMPTS
  },
  SendEmail: {
    kind: "send_email",
    payload: withPayload(
      SendEmail,
      { credential_id: Ids.CredentialId },
      (w) => SendEmail.make({ credentialId: w.credential_id }),
      (j) => ({ credential_id: j.credentialId })
    ),
    dedupeKey: (j) => `email:${j.credentialId}`,
    maxAttempts: EMAIL_MAX_ATTEMPTS
  },
  PurgeAudit: housekeeping("PurgeAudit", "purge_audit"),
  PurgeIdempotency: housekeeping("PurgeIdempotency", "purge_idempotency"),
  PurgeClaimTokens: housekeeping("PurgeClaimTokens", "purge_claim_tokens"),
  PurgeJobs: housekeeping("PurgeJobs", "purge_jobs")
}

const byKind: ReadonlyMap<JobKind, Tag> = new Map(
  (Object.keys(definitions) as Array<Tag>).map((tag) => [definitions[tag].kind, tag])
)

/**
 * Every stored kind the pipeline knows.
 *
 * @since 0.1.0
 * @category definitions
 */
export const kinds: ReadonlyArray<JobKind> = [...byKind.keys()]

/**
 * Enqueues a job with its definition's deduplication key and attempts (both may be overridden,
 * with a run time).
 *
 * @since 0.1.0
 * @category enqueueing
 */
export const enqueue = <J extends Job>(job: J, now: Date, options: EnqueueOptions = {}): Effect.Effect<Ids.JobId, never, JobQueue> => {
  const definition = definitions[job._tag as Tag] as unknown as Definition<J>
  const payload = Schema.encodeSync(definition.payload)(job)
  return Effect.flatMap(JobQueue, (queue) =>
    queue.enqueue(definition.kind, payload, now, {
      runAt: options.runAt,
      dedupeKey: options.dedupeKey ?? definition.dedupeKey(job),
      maxAttempts: options.maxAttempts ?? definition.maxAttempts
    }))
}

/**
 * A claimed row as a typed job, or why it is not one (an unknown kind, a payload that does not
 * decode). The runner makes such a job dead with that reason.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (stored: StoredJob): Either.Either<Job, string> => {
  const tag = byKind.get(stored.kind)
  if (tag === undefined) return Either.left(`unknown job kind ${JSON.stringify(stored.kind)}`)
  const definition = definitions[tag] as unknown as Definition<Job>
  return Schema.decodeUnknownEither(definition.payload)(stored.payload).pipe(
    Either.mapLeft((error) => `malformed ${stored.kind} payload: ${ParseResult.TreeFormatter.formatErrorSync(error)}`)
  )
}
