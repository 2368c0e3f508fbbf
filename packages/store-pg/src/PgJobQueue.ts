/**
 * `JobQueue` on Postgres, our own (docs/decisions/job-queue.md says why not graphile-worker or
 * pg-boss): one `jobs` table, claims with `FOR UPDATE SKIP LOCKED` so any number of processes
 * share the queue without blocking each other, leases that expire so a crashed worker's job is
 * taken over, attempts with retry times chosen by the caller (`JobQueue.backoffMs`), a dead
 * state, and dedupe keys enforced by a partial unique index over live jobs. Enqueueing inside
 * `Transactor.withTransaction` commits the job with the state change that needs it.
 *
 * Every time comes from the caller (`now`), never from the database clock, so the memory and
 * Postgres queues behave alike and tests control time.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import type { JsonObject } from "@sigil/core/Document"
import type { JobId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import { PgClient } from "@effect/sql-pg"
import { DEFAULT_MAX_ATTEMPTS, type Job, JobQueue, type JobStatus } from "@sigil/service/Pipeline/JobQueue"
import * as Wakeups from "@sigil/service/Pipeline/Wakeups"
import { afterCommit } from "@sigil/service/Transactor"
import { Duration, Effect, Layer, Option, Schedule, type Scope, Stream } from "effect"
import { type Count, countOf, jsonText, op, opt } from "./internal/sql.js"

interface Row {
  readonly id: string
  readonly kind: string
  readonly payload: JsonObject
  readonly status: JobStatus
  readonly attempts: number
  readonly max_attempts: number
  readonly run_at: Date
  readonly lease_until: Date | null
  readonly locked_by: string | null
  readonly last_error: string | null
  readonly dedupe_key: string | null
  readonly created_at: Date
}

const toJob = (r: Row): Job => ({
  id: r.id as JobId,
  kind: r.kind,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  runAt: r.run_at,
  leaseUntil: opt(r.lease_until),
  lockedBy: opt(r.locked_by),
  lastError: opt(r.last_error),
  dedupeKey: opt(r.dedupe_key),
  createdAt: r.created_at
})

/**
 * The error a job gets when its worker's lease expired on its last attempt.
 *
 * @since 0.1.0
 * @category constants
 */
export const LEASE_EXPIRED_ON_LAST_ATTEMPT = "lease expired on the last attempt"

/**
 * The channel on which an enqueue tells every process sharing the database that work is there.
 *
 * @since 0.1.0
 * @category constants
 */
export const WAKEUP_CHANNEL = "sigil_jobs"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Several processes share the database (Postgres): an enqueue also sends `NOTIFY sigil_jobs`
   * (inside its transaction, so only at commit) and a dedicated connection `LISTEN`s, waking
   * this process's workers for jobs enqueued anywhere. Off for PGlite (one process, one
   * connection): wake-ups stay in the process.
   */
  readonly crossProcess: boolean
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeWith = (options: Options): Effect.Effect<JobQueue["Type"], never, SqlClient.SqlClient | Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const signal = Wakeups.make()
    const pg = options.crossProcess ? yield* Effect.serviceOption(PgClient.PgClient) : Option.none()
    if (Option.isSome(pg)) {
      // Every (re)connection wakes the workers too: notifications sent while it was down are lost.
      yield* pg.value.listen(WAKEUP_CHANNEL).pipe(
        Stream.runForEach(() => signal.notify),
        Effect.zipRight(Effect.fail("listen ended")),
        Effect.tapErrorCause((cause) => Effect.logWarning("job wake-ups: LISTEN lost, reconnecting", cause)),
        Effect.retry(Schedule.spaced(Duration.seconds(1))),
        Effect.ignore,
        Effect.forkScoped
      )
    }
    // A payload of its own: the listening client drops notifications whose payload is empty.
    const announce = Option.isSome(pg)
      ? Effect.zipRight(sql`SELECT pg_notify(${WAKEUP_CHANNEL}, 'job')`, afterCommit(signal.notify))
      : afterCommit(signal.notify)
    return makeQueue(sql, signal, announce)
  })

const makeQueue = (sql: SqlClient.SqlClient, signal: Wakeups.WakeSignal, announce: Effect.Effect<void, SqlError>): JobQueue["Type"] =>
  ((sql) => {
    const LIVE = sql.literal("('queued', 'running')")

    const insert = (job: Job) =>
      sql<{ readonly id: string }>`INSERT INTO jobs ${
        sql.insert({
          id: job.id,
          kind: job.kind,
          payload: jsonText(job.payload),
          status: job.status,
          attempts: job.attempts,
          max_attempts: job.maxAttempts,
          run_at: job.runAt,
          dedupe_key: job.dedupeKey ?? null,
          created_at: job.createdAt
        })
      } ON CONFLICT (dedupe_key) WHERE status IN ${LIVE} DO NOTHING RETURNING id`

    // Both candidates, the oldest due queued job and the oldest expired lease, each found by
    // its own partial index and locked with SKIP LOCKED; the older of the two is claimed. An
    // expired job with no attempt left is declared dead instead (the caller claims again).
    const claimOnce = (kinds: ReadonlyArray<string>, workerId: string, now: Date, leaseMs: number) =>
      sql<Row>`WITH due AS (
          SELECT id, run_at, created_at FROM jobs
          WHERE status = 'queued' AND run_at <= ${now} AND kind IN ${sql.in(kinds)}
          ORDER BY run_at, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
        ), expired AS (
          SELECT id, run_at, created_at FROM jobs
          WHERE status = 'running' AND lease_until <= ${now} AND kind IN ${sql.in(kinds)}
          ORDER BY run_at, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
        ), pick AS (
          SELECT id FROM (SELECT * FROM due UNION ALL SELECT * FROM expired) candidates
          ORDER BY run_at, created_at, id LIMIT 1
        )
        UPDATE jobs j SET
          status = CASE WHEN j.status = 'running' AND j.attempts >= j.max_attempts THEN 'dead' ELSE 'running' END,
          attempts = CASE WHEN j.status = 'running' AND j.attempts >= j.max_attempts THEN j.attempts ELSE j.attempts + 1 END,
          lease_until = CASE WHEN j.status = 'running' AND j.attempts >= j.max_attempts THEN NULL
            ELSE ${new Date(now.getTime() + leaseMs)}::timestamptz END,
          locked_by = CASE WHEN j.status = 'running' AND j.attempts >= j.max_attempts THEN NULL ELSE ${workerId}::text END,
          last_error = CASE WHEN j.status = 'running' AND j.attempts >= j.max_attempts
            THEN ${LEASE_EXPIRED_ON_LAST_ATTEMPT}::text ELSE j.last_error END
        FROM pick WHERE j.id = pick.id
        RETURNING j.*`

    // An update of a job this worker holds; `true` when it did.
    const held = (id: JobId, workerId: string, set: Fragment) =>
      sql`UPDATE jobs SET ${set} WHERE id = ${id} AND status = 'running' AND locked_by = ${workerId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    return JobQueue.of({
      enqueue: (kind, payload, now, options) =>
        Effect.gen(function*() {
          const job: Job = {
            id: Ids.unsafeMake("job"),
            kind,
            payload,
            status: "queued",
            attempts: 0,
            maxAttempts: options?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
            runAt: options?.runAt ?? now,
            leaseUntil: undefined,
            lockedBy: undefined,
            lastError: undefined,
            dedupeKey: options?.dedupeKey,
            createdAt: now
          }
          for (let i = 0; i < 5; i++) {
            const [inserted] = yield* insert(job)
            if (inserted !== undefined) {
              yield* announce
              return inserted.id as JobId
            }
            const [live] = yield* sql<{ readonly id: string }>`SELECT id FROM jobs
              WHERE dedupe_key = ${job.dedupeKey!} AND status IN ${LIVE}`
            // Finished between the two statements: try the insert again.
            if (live !== undefined) return live.id as JobId
          }
          return yield* Effect.dieMessage("JobQueue.enqueue: the dedupe key kept changing hands")
        }).pipe(op("PgJobQueue.enqueue")),
      claim: (kinds, workerId, now, leaseMs) =>
        Effect.gen(function*() {
          if (kinds.length === 0) return Option.none<Job>()
          for (;;) {
            const [row] = yield* claimOnce(kinds, workerId, now, leaseMs)
            if (row === undefined) return Option.none<Job>()
            if (row.status === "running") return Option.some(toJob(row))
          }
        }).pipe(op("PgJobQueue.claim")),
      heartbeat: (id, workerId, now, leaseMs) =>
        held(id, workerId, sql`lease_until = ${new Date(now.getTime() + leaseMs)}`).pipe(op("PgJobQueue.heartbeat")),
      complete: (id, workerId) =>
        held(id, workerId, sql`status = 'done', lease_until = NULL, locked_by = NULL`).pipe(op("PgJobQueue.complete")),
      retry: (id, workerId, error, runAt) =>
        held(
          id,
          workerId,
          sql`status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
            run_at = CASE WHEN attempts >= max_attempts THEN run_at ELSE ${runAt}::timestamptz END,
            last_error = ${error}, lease_until = NULL, locked_by = NULL`
        ).pipe(op("PgJobQueue.retry")),
      kill: (id, workerId, error) =>
        held(id, workerId, sql`status = 'dead', last_error = ${error}, lease_until = NULL, locked_by = NULL`).pipe(
          op("PgJobQueue.kill")
        ),
      release: (id, workerId) =>
        held(
          id,
          workerId,
          sql`status = 'queued', attempts = GREATEST(attempts - 1, 0), lease_until = NULL, locked_by = NULL`
        ).pipe(Effect.tap((released) => (released ? announce : Effect.void)), op("PgJobQueue.release")),
      nextDueAt: (kinds) =>
        (kinds.length === 0
          ? Effect.succeed(Option.none<Date>())
          : sql<{ readonly at: Date | null }>`SELECT min(CASE WHEN status = 'queued' THEN run_at ELSE lease_until END) AS at
              FROM jobs WHERE status IN ${LIVE} AND kind IN ${sql.in(kinds)}`.pipe(
            Effect.map((rows) => Option.fromNullable(rows[0]?.at ?? null))
          )).pipe(op("PgJobQueue.nextDueAt")),
      wakeup: signal.ticket,
      get: (id) =>
        sql<Row>`SELECT * FROM jobs WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toJob)),
          op("PgJobQueue.get")
        ),
      counts: () =>
        sql<{ readonly status: JobStatus; readonly n: number }>`SELECT status, count(*)::integer AS n FROM jobs
          GROUP BY status`.pipe(
          Effect.map((rows) => {
            const counts: Record<JobStatus, number> = { queued: 0, running: 0, done: 0, dead: 0 }
            for (const r of rows) counts[r.status] = r.n
            return counts
          }),
          op("PgJobQueue.counts")
        ),
      // A daily sweep: no index of its own (one would cost every completion a write).
      purgeFinished: (doneBefore, deadBefore) =>
        sql<Count>`WITH purged AS (
            DELETE FROM jobs
            WHERE (status = 'done' AND run_at < ${doneBefore}) OR (status = 'dead' AND run_at < ${deadBefore})
            RETURNING 1)
          SELECT count(*)::integer AS n FROM purged`.pipe(
          Effect.map(countOf),
          op("PgJobQueue.purgeFinished")
        )
    })
  })(sql)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<JobQueue, never, SqlClient.SqlClient> = Layer.scoped(JobQueue, makeWith({ crossProcess: false }))

/**
 * With wake-ups across processes (Postgres; see `Options.crossProcess`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerCrossProcess: Layer.Layer<JobQueue, never, SqlClient.SqlClient> = Layer.scoped(
  JobQueue,
  makeWith({ crossProcess: true })
)
