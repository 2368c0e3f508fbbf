/**
 * Runs jobs from the `JobQueue`: claims a due job with a lease, keeps the lease alive while the
 * handler works, and completes, reschedules or retries the job by what the handler says. Any
 * number of runners, in any number of processes, can share one queue; a runner that dies loses
 * its leases and another takes its jobs over.
 *
 * On interruption (graceful shutdown) the job in hand is released without counting the
 * attempt, so another process picks it up at once.
 *
 * @since 0.1.0
 */
import { Cause, Clock, Duration, Effect, Fiber, Option, Random, Schedule } from "effect"
import type { Job, JobKind } from "./JobQueue.js"
import * as JobQueue from "./JobQueue.js"

/**
 * What a handler decided: the job is done, or should run again at a given time (not a failure:
 * e.g. waiting for confirmations).
 *
 * @since 0.1.0
 * @category models
 */
export type Result =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Again"; readonly at: Date; readonly reason: string }
  | { readonly _tag: "Dead"; readonly reason: string }

/**
 * @since 0.1.0
 * @category constructors
 */
export const done: Result = { _tag: "Done" }

/**
 * @since 0.1.0
 * @category constructors
 */
export const again = (at: Date, reason: string): Result => ({ _tag: "Again", at, reason })

/**
 * The job can never succeed (a payload that does not decode): dead at once, with the reason.
 *
 * @since 0.1.0
 * @category results
 */
export const dead = (reason: string): Result => ({ _tag: "Dead", reason })

/**
 * A handler: typed failures are transient (retried with backoff until the job's attempts are
 * used up); defects are logged and retried the same way.
 *
 * @since 0.1.0
 * @category models
 */
export type Handler<R> = (job: Job, now: Date) => Effect.Effect<Result, unknown, R>

/**
 * The services a set of handlers needs together.
 *
 * @since 0.1.0
 * @category models
 */
export type Requirements<H> = {
  readonly [K in keyof H]: H[K] extends (...args: ReadonlyArray<never>) => Effect.Effect<unknown, unknown, infer R> ? R : never
}[keyof H]

/**
 * @since 0.1.0
 * @category models
 */
export type Handlers = { readonly [kind: string]: Handler<any> }

/**
 * @since 0.1.0
 * @category models
 */
export interface Options<H extends Handlers> {
  readonly workerId: string
  readonly handlers: H
  /** How long a claim lasts without a heartbeat. */
  readonly lease: Duration.DurationInput
  /** The longest a loop sleeps with no job due and no wake-up (the safety net for a lost wake-up). */
  readonly idle: Duration.DurationInput
  /** Jobs run at once by this runner. */
  readonly concurrency: number
  readonly backoff: { readonly baseMs: number; readonly capMs: number }
}

const describe = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
    ? `${"_tag" in error ? `${String(error._tag)}: ` : ""}${error.message}`
    : String(error)

/**
 * Claims and runs one job if one is due; `false` when none was.
 *
 * @since 0.1.0
 * @category running
 */
export const runOne = <H extends Handlers>(
  options: Options<H>
): Effect.Effect<boolean, never, JobQueue.JobQueue | Requirements<H>> =>
  Effect.gen(function*() {
    const queue = yield* JobQueue.JobQueue
    const leaseMs = Duration.toMillis(options.lease)
    const kinds: ReadonlyArray<JobKind> = Object.keys(options.handlers)
    const now = () => Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const claimed = yield* queue.claim(kinds, options.workerId, yield* now(), leaseMs)
    if (Option.isNone(claimed)) return false
    const job = claimed.value
    const handler = options.handlers[job.kind]! as Handler<Requirements<H>>
    const heartbeat = yield* Effect.fork(
      Effect.repeat(
        Effect.flatMap(now(), (at) => queue.heartbeat(job.id, options.workerId, at, leaseMs)),
        { schedule: Schedule.spaced(Duration.millis(Math.max(50, leaseMs / 3))) }
      )
    )
    // Shutdown interrupts this fiber: hand the job back at once, without using the attempt.
    const outcome = yield* Effect.exit(Effect.flatMap(now(), (at) => handler(job, at))).pipe(
      Effect.onInterrupt(() => Effect.flatMap(now(), (at) => queue.release(job.id, options.workerId, at)))
    )
    yield* Fiber.interrupt(heartbeat)
    const at = yield* now()
    if (outcome._tag === "Success") {
      const result = outcome.value
      if (result._tag === "Done") yield* queue.complete(job.id, options.workerId, at)
      else if (result._tag === "Dead") {
        yield* Effect.logError(`job ${job.id} (${job.kind}) is dead: ${result.reason}`)
        yield* queue.kill(job.id, options.workerId, result.reason)
      } else yield* queue.retry(job.id, options.workerId, result.reason, result.at)
      return true
    }
    if (Cause.isInterruptedOnly(outcome.cause)) {
      yield* queue.release(job.id, options.workerId, at)
      return true
    }
    const failure = Cause.failureOption(outcome.cause)
    const reason = Option.isSome(failure) ? describe(failure.value) : Cause.pretty(outcome.cause)
    if (Option.isNone(failure)) {
      yield* Effect.logError(`job ${job.id} (${job.kind}) died`, outcome.cause)
    } else {
      yield* Effect.logWarning(`job ${job.id} (${job.kind}) will be retried: ${reason}`)
    }
    const delay = JobQueue.backoffMs(job.attempts, options.backoff, yield* Random.next)
    yield* queue.retry(job.id, options.workerId, reason, new Date(at.getTime() + delay))
    return true
  })

/**
 * Runs jobs forever: `concurrency` loops, each claiming the next due job. With none due, a loop
 * sleeps until the queue wakes it (a job enqueued or released, here or in another process), the
 * earliest known due time (a retry, a re-check, a lease that may expire), or at most `idle` —
 * the safety net should a wake-up be lost. An idle server so makes a couple of queries per loop
 * per `idle`, instead of one per loop every few hundred milliseconds.
 *
 * @since 0.1.0
 * @category running
 */
export const run = <H extends Handlers>(options: Options<H>): Effect.Effect<never, never, JobQueue.JobQueue | Requirements<H>> =>
  Effect.flatMap(JobQueue.JobQueue, (queue) => {
    const idleMs = Duration.toMillis(options.idle)
    const kinds: ReadonlyArray<JobKind> = Object.keys(options.handlers)
    const loop = (workerId: string) =>
      Effect.gen(function*() {
        const wake = yield* queue.wakeup
        if (yield* runOne({ ...options, workerId })) return
        const now = yield* Clock.currentTimeMillis
        const due = yield* queue.nextDueAt(kinds)
        // A job already due that this loop could not claim is being claimed by another: look again soon.
        const waitMs = Option.match(due, {
          onNone: () => idleMs,
          onSome: (at) => Math.min(idleMs, Math.max(MIN_WAIT_MS, at.getTime() - now))
        })
        yield* wake(Duration.millis(waitMs))
      })
    return Effect.forEach(
      Array.from({ length: options.concurrency }, (_, i) => i),
      (i) =>
        loop(`${options.workerId}/${i}`).pipe(
          Effect.catchAllCause((cause) => Effect.zipRight(Effect.logError("job runner loop", cause), Effect.sleep(options.idle))),
          Effect.forever
        ),
      { concurrency: "unbounded", discard: true }
    ).pipe(Effect.zipRight(Effect.never))
  })

const MIN_WAIT_MS = 25
