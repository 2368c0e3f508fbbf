/**
 * The job queue across OS processes on the machine's PostgreSQL: two worker processes share one
 * queue; every job runs exactly once; when one worker is killed (SIGKILL) in the middle of a
 * job, the other takes the job over once its lease has expired; a job enqueued by one process
 * wakes a sleeping `JobRunner` in another (LISTEN/NOTIFY). Skipped, with a message, when no
 * server answers on 127.0.0.1:5432.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { JobQueue } from "@sigil/service/Pipeline/JobQueue"
import { Effect, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { assert, beforeAll, describe, it } from "vitest"
import * as PgJobQueue from "../src/PgJobQueue.js"
import { postgres } from "../testkit/database.js"

const WORKER = fileURLToPath(new URL("./fixtures/worker.ts", import.meta.url))
const RUNNER = fileURLToPath(new URL("./fixtures/runner.ts", import.meta.url))
const ROOT = fileURLToPath(new URL("../../..", import.meta.url))

const pg = await postgres({ maxConnections: 4 })

interface Worker {
  readonly child: ChildProcess
  /** Resolves with the first stdout line starting with `prefix`; rejects if the process exits first. */
  readonly line: (prefix: string) => Promise<string>
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>
  readonly stderr: () => string
}

const spawnWorker = (config: Record<string, unknown>, script = WORKER): Worker => {
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"]
  })
  const lines: Array<string> = []
  const waiters: Array<{ prefix: string; resolve: (line: string) => void; reject: (e: Error) => void }> = []
  let stderr = ""
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)))
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line)
    for (const w of waiters.filter((w) => line.startsWith(w.prefix))) w.resolve(line)
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      for (const w of waiters) w.reject(new Error(`worker exited (${code ?? signal}) before "${w.prefix}": ${stderr}`))
      resolve({ code, signal })
    })
  )
  const line = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((l) => l.startsWith(prefix))
      if (seen !== undefined) resolve(seen)
      else waiters.push({ prefix, resolve, reject })
    })
  return { child, line, exited, stderr: () => stderr }
}

/** Rejects when `promise` has not settled within `ms` (a deadline, not a wait). */
const within = <A>(ms: number, what: string, promise: Promise<A>): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/** Resolves once `condition` holds, looking every 20 ms; rejects after `ms`. */
const until = (ms: number, what: string, condition: () => Promise<boolean>): Promise<void> =>
  within(ms, what, (async () => {
    while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20))
  })())

const go = (...workers: ReadonlyArray<Worker>) => {
  for (const w of workers) w.child.stdin!.write("GO\n")
}

interface Run {
  readonly job_id: string
  readonly worker: string
  readonly event: "start" | "done"
  readonly at: Date
}

describe.skipIf(pg === undefined)("JobQueue across two OS processes (Postgres)", () => {
  const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | JobQueue>) =>
    pg!.runtime.runPromise(Effect.provide(effect, PgJobQueue.layer))

  beforeAll(() =>
    run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`CREATE TABLE job_runs (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        job_id text NOT NULL,
        worker text NOT NULL,
        event text NOT NULL,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`))
  )

  const enqueue = (kind: string, n: number) =>
    run(Effect.flatMap(JobQueue, (q) => Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) => q.enqueue(kind, { i }, new Date()))))

  const runsOf = (kind: string) =>
    run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<Run>`SELECT r.job_id, r.worker, r.event, r.at FROM job_runs r JOIN jobs j ON j.id = r.job_id
        WHERE j.kind = ${kind} ORDER BY r.seq`))

  const jobsOf = (kind: string) =>
    run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ readonly id: string; readonly status: string; readonly attempts: number }>`SELECT id, status, attempts
        FROM jobs WHERE kind = ${kind}`))

  const tally = (runs: ReadonlyArray<Run>, event: Run["event"]) => {
    const counts = new Map<string, number>()
    for (const r of runs) if (r.event === event) counts.set(r.job_id, (counts.get(r.job_id) ?? 0) + 1)
    return counts
  }

  it("two processes share 1,000 jobs: each runs exactly once", async () => {
    const kind = `work-${crypto.randomUUID()}`
    const ids = await enqueue(kind, 1000)
    const config = { url: Redacted.value(pg!.url), kind, leaseMs: 5000, workMs: 1 }
    const a = spawnWorker({ ...config, workerId: "a" })
    const b = spawnWorker({ ...config, workerId: "b" })
    await Promise.all([a.line("READY"), b.line("READY")])
    go(a, b)
    const [ea, eb] = await Promise.all([a.exited, b.exited])
    assert.deepStrictEqual([ea.code, eb.code], [0, 0], a.stderr() + b.stderr())

    const runs = await runsOf(kind)
    const starts = tally(runs, "start")
    const dones = tally(runs, "done")
    assert.strictEqual(starts.size, 1000)
    assert.strictEqual(dones.size, 1000)
    assert.isTrue([...starts.values()].every((n) => n === 1), "a job started twice")
    assert.isTrue([...dones.values()].every((n) => n === 1), "a job completed twice")
    assert.deepStrictEqual([...dones.keys()].sort(), [...ids].sort())
    const byWorker = (w: string) => runs.filter((r) => r.event === "done" && r.worker === w).length
    console.log(`1,000 jobs: worker a ran ${byWorker("a")}, worker b ran ${byWorker("b")}`)
    assert.isAbove(byWorker("a"), 50)
    assert.isAbove(byWorker("b"), 50)
    const jobs = await jobsOf(kind)
    assert.isTrue(jobs.every((j) => j.status === "done" && j.attempts === 1))
  }, 180_000)

  it("a worker killed mid-job (SIGKILL): the other takes the job over once its lease expires", async () => {
    const kind = `work-${crypto.randomUUID()}`
    const leaseMs = 1500
    await enqueue(kind, 200)
    const config = { url: Redacted.value(pg!.url), kind, leaseMs, workMs: 2 }
    const victim = spawnWorker({ ...config, workerId: "victim", hangAfter: 20 })
    const survivor = spawnWorker({ ...config, workerId: "survivor" })
    await Promise.all([victim.line("READY"), survivor.line("READY")])
    go(victim, survivor)
    const hung = (await victim.line("HANG ")).slice("HANG ".length)
    victim.child.kill("SIGKILL")
    assert.strictEqual((await victim.exited).signal, "SIGKILL")
    const end = await survivor.exited
    assert.strictEqual(end.code, 0, survivor.stderr())

    const runs = await runsOf(kind)
    const starts = tally(runs, "start")
    const dones = tally(runs, "done")
    assert.strictEqual(dones.size, 200)
    assert.isTrue([...dones.values()].every((n) => n === 1), "a job completed twice")
    for (const [id, n] of starts) assert.strictEqual(n, id === hung ? 2 : 1, id)
    const ofHung = runs.filter((r) => r.job_id === hung)
    assert.deepStrictEqual(ofHung.map((r) => `${r.worker}:${r.event}`), ["victim:start", "survivor:start", "survivor:done"])
    // Taken over only once the victim's lease had run out.
    assert.isAtLeast(ofHung[1]!.at.getTime() - ofHung[0]!.at.getTime(), leaseMs - 50)
    const jobs = await jobsOf(kind)
    assert.isTrue(jobs.every((j) => j.status === "done"))
    assert.strictEqual(jobs.find((j) => j.id === hung)!.attempts, 2)
  }, 180_000)

  it("a job enqueued by this process wakes a JobRunner sleeping in another at once, and a delayed one at its time", async () => {
    const kind = `wake-${crypto.randomUUID()}`
    // The runner's safety poll is ten minutes: only a wake-up (or a due time it learnt of) brings
    // it to a job within the deadlines below.
    const runner = spawnWorker({ url: Redacted.value(pg!.url), kind, idleMs: 600_000 }, RUNNER)
    try {
      await within(60_000, "runner READY", runner.line("READY"))
      // Its LISTEN connection is up once Postgres shows it (this process listens on nothing yet).
      const listening = () =>
        run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ readonly n: number }>`SELECT count(*)::integer AS n FROM pg_stat_activity
            WHERE datname = current_database() AND query = ${`LISTEN "${PgJobQueue.WAKEUP_CHANNEL}"`}`))
      await until(60_000, "runner LISTENing", async () => (await listening())[0]!.n > 0)
      const enqueue = (runAt?: Date) =>
        pg!.runtime.runPromise(
          Effect.provide(Effect.flatMap(JobQueue, (q) => q.enqueue(kind, {}, new Date(), { runAt })), PgJobQueue.layerCrossProcess)
        )

      const enqueuedAt = Date.now()
      const now = await enqueue()
      const ranNow = await within(60_000, "the enqueued job run", runner.line(`RAN ${now} `))
      console.log(`woken across processes: run ${Number(ranNow.split(" ")[2]) - enqueuedAt} ms after the enqueue`)

      const runAt = new Date(Date.now() + 1500)
      const later = await enqueue(runAt)
      const ranLater = await within(60_000, "the delayed job run", runner.line(`RAN ${later} `))
      assert.isAtLeast(Number(ranLater.split(" ")[2]), runAt.getTime(), "run before its time")
      // Completed by the runner right after it said RAN.
      await until(60_000, "both jobs done", async () => (await jobsOf(kind)).every((j) => j.status === "done"))
      assert.strictEqual((await jobsOf(kind)).length, 2)
    } finally {
      runner.child.kill("SIGTERM")
      await runner.exited
    }
  }, 180_000)
})
