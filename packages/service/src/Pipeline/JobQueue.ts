/**
 * Port: durable jobs that any number of processes share. A worker claims a job with a lease;
 * if the worker dies, the lease expires and another worker takes the job over. Failed jobs
 * are retried with backoff until `maxAttempts`, then dead. On Postgres claims use
 * `FOR UPDATE SKIP LOCKED`.
 *
 * Jobs should be idempotent: a job whose worker crashed after doing the work but before
 * `complete` runs again.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Duration, type Effect, Layer, type Option } from "effect"
import type { JsonObject } from "@sigil/core/Document"
import type { JobId } from "@sigil/core/Ids"
import * as internal from "../internal/memory/jobQueue.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export type JobKind =
  | "sign_batch"
  | "anchor_batch"
  | "confirm_anchor"
  | "deliver_webhook"
  | "purge_audit"
  | "purge_idempotency"
  | "purge_jobs"
  | (string & {})

/**
 * @since 0.1.0
 * @category models
 */
export type JobStatus = "queued" | "running" | "done" | "dead"

/**
 * @since 0.1.0
 * @category models
 */
export interface Job {
  readonly id: JobId
  readonly kind: JobKind
  readonly payload: JsonObject
  readonly status: JobStatus
  /** Attempts started so far, this one included once claimed. */
  readonly attempts: number
  readonly maxAttempts: number
  readonly runAt: Date
  readonly leaseUntil: Date | undefined
  readonly lockedBy: string | undefined
  readonly lastError: string | undefined
  /** Jobs with the same key are enqueued once while one is queued or running. */
  readonly dedupeKey: string | undefined
  readonly createdAt: Date
}

/**
 * @since 0.1.0
 * @category models
 */
export interface EnqueueOptions {
  readonly runAt?: Date | undefined
  readonly maxAttempts?: number | undefined
  readonly dedupeKey?: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Returns the new job's id, or the existing one's when `dedupeKey` matches a live job. */
  readonly enqueue: (kind: JobKind, payload: JsonObject, now: Date, options?: EnqueueOptions) => Effect.Effect<JobId>
  /**
   * Claims the oldest due job of the given kinds (queued with `runAt <= now`, or running with
   * an expired lease) for `workerId` until `now + leaseMs`, counting an attempt.
   */
  readonly claim: (
    kinds: ReadonlyArray<JobKind>,
    workerId: string,
    now: Date,
    leaseMs: number
  ) => Effect.Effect<Option.Option<Job>>
  /** Extends the lease; `false` when the job is no longer this worker's. */
  readonly heartbeat: (id: JobId, workerId: string, now: Date, leaseMs: number) => Effect.Effect<boolean>
  /** Done; `false` when the job is no longer this worker's (its lease expired and was taken). */
  readonly complete: (id: JobId, workerId: string, now: Date) => Effect.Effect<boolean>
  /** Queued again for `runAt`, or dead when its attempts are used up. */
  readonly retry: (id: JobId, workerId: string, error: string, runAt: Date) => Effect.Effect<boolean>
  /** Dead at once (a permanent failure). */
  readonly kill: (id: JobId, workerId: string, error: string) => Effect.Effect<boolean>
  /** Releases the lease of a job this worker holds, without counting the attempt (graceful shutdown). */
  readonly release: (id: JobId, workerId: string, now: Date) => Effect.Effect<boolean>
  /**
   * The earliest time a job of these kinds can be claimed: a queued job's `runAt`, or a running
   * job's lease end (its worker may have died); none when no such job is queued or running.
   */
  readonly nextDueAt: (kinds: ReadonlyArray<JobKind>) => Effect.Effect<Option.Option<Date>>
  /**
   * A ticket for the next wake-up — a job enqueued (once its transaction commits) or released, in
   * this process or, on Postgres, in any process sharing the database. Take it before looking for
   * work; waiting on it returns at that wake-up or after the timeout, whichever comes first.
   */
  readonly wakeup: Effect.Effect<(timeout: Duration.DurationInput) => Effect.Effect<void>>
  readonly get: (id: JobId) => Effect.Effect<Option.Option<Job>>
  readonly counts: () => Effect.Effect<Readonly<Record<JobStatus, number>>>
  /**
   * Deletes the done jobs last due (`runAt`) before `doneBefore` and the dead ones last due
   * before `deadBefore`; returns how many. Queued and running jobs are never touched.
   */
  readonly purgeFinished: (doneBefore: Date, deadBefore: Date) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class JobQueue extends Context.Tag("@sigil/service/Pipeline/JobQueue")<JobQueue, Service>() {}

/**
 * Exponential backoff with a cap, for retries: `base * 2^(attempt-1)`, at most `cap`, with
 * ±20 % jitter from `random` (in [0, 1)).
 *
 * @since 0.1.0
 * @category combinators
 */
export const backoffMs = (attempt: number, options: { readonly baseMs: number; readonly capMs: number }, random: number): number => {
  const raw = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(raw * (0.8 + 0.4 * random))
}

/**
 * The attempts a job gets when `enqueue` is not told otherwise.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_ATTEMPTS = 10

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<JobQueue, never, MemoryStore> = Layer.effect(JobQueue, internal.make(DEFAULT_MAX_ATTEMPTS))
