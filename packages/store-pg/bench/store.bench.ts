/**
 * The store's throughput on the embedded PGlite and on the machine's PostgreSQL
 * (127.0.0.1:5432; skipped with a message when no server answers):
 *
 * - `POST /batches`' write: one 500-credential batch (~2 KB signed documents, recipients, the
 *   `batch.created` event and the signing job) in one transaction; median of several rounds;
 * - the job queue: 10,000 jobs enqueued, then claimed and completed by one worker (and, on
 *   Postgres, by four concurrent workers), in jobs/s.
 *
 * Run: `npm run bench -- store` (or `npx tsx packages/store-pg/bench/store.bench.ts`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import * as BatchStore from "@sigil/service/Batches/BatchStore"
import * as EventStore from "@sigil/service/Events/EventStore"
import * as Ids from "@sigil/core/Ids"
import * as JobQueue from "@sigil/service/Pipeline/JobQueue"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import * as Transactor from "@sigil/service/Transactor"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { batchOf, tenantOf } from "@sigil/service/testkit/fixtures"
import * as PgStore from "../src/PgStore.js"
import * as PgStores from "../src/PgStores.js"

const ROUNDS = 7
const JOBS = 10_000
const MASTER_KEY = Redacted.make("8f".repeat(32))
const MAINTENANCE_URL = "postgres://postgres@127.0.0.1:5432/test"

const ms = (since: number) => performance.now() - since
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const insertBatches = Effect.gen(function*() {
  const tenant = tenantOf({ plan: "industry" })
  yield* (yield* TenantStore.TenantStore).create(tenant)
  const batches = yield* BatchStore.BatchStore
  const events = yield* EventStore.EventStore
  const jobs = yield* JobQueue.JobQueue
  const times: Array<number> = []
  const sample = batchOf(tenant.id, { n: 1, documentSize: 2048 })
  const docBytes = JSON.stringify(sample.credentials[0]!.document).length
  for (let round = 0; round < ROUNDS; round++) {
    const { batch, credentials, recipients } = batchOf(tenant.id, { n: 500, documentSize: 2048 })
    const start = performance.now()
    yield* Transactor.transactionally(Effect.gen(function*() {
      yield* batches.insert(batch, credentials, recipients)
      yield* events.append({
        id: Ids.unsafeMake("evt"),
        type: "batch.created",
        tenantId: tenant.id,
        environment: "test",
        data: { batch_id: batch.id, credentials_count: 500, environment: "test" },
        createdAt: new Date()
      }, [])
      yield* jobs.enqueue("sign_batch", { batchId: batch.id }, new Date(), { dedupeKey: `sign:${batch.id}` })
    }))
    times.push(ms(start))
  }
  return { median: median(times), min: Math.min(...times), docBytes }
})

const queueRun = (workers: number) =>
  Effect.gen(function*() {
    const q = yield* JobQueue.JobQueue
    const kind = `bench-${workers}-${crypto.randomUUID()}`
    const enqueueStart = performance.now()
    // Enqueued in transactions of 500, as a batch's jobs would be.
    for (let i = 0; i < JOBS; i += 500) {
      yield* Transactor.transactionally(
        Effect.forEach(Array.from({ length: 500 }, (_, k) => i + k), (n) => q.enqueue(kind, { n }, new Date()), { discard: true })
      )
    }
    const enqueueMs = ms(enqueueStart)
    const worker = (id: string) =>
      Effect.gen(function*() {
        let n = 0
        for (;;) {
          const job = yield* q.claim([kind], id, new Date(), 30_000)
          if (Option.isNone(job)) return n
          yield* q.complete(job.value.id, id, new Date())
          n++
        }
      })
    const start = performance.now()
    const done = yield* Effect.all(Array.from({ length: workers }, (_, i) => worker(`w${i}`)), { concurrency: "unbounded" })
    const elapsed = ms(start)
    const total = done.reduce((a, b) => a + b, 0)
    if (total !== JOBS) return yield* Effect.dieMessage(`claimed ${total} of ${JOBS}`)
    return { enqueuePerSecond: (JOBS / enqueueMs) * 1000, perSecond: (JOBS / elapsed) * 1000, seconds: elapsed / 1000 }
  })

const suite = (label: string, client: Layer.Layer<PgStore.Client, unknown>, workerCounts: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const version = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly v: string }>`SELECT version() AS v`)
    console.log(`\n${label}: ${version[0]!.v.split(" on ")[0]}`)
    const insert = yield* insertBatches
    console.log(
      `  insert one 500-credential batch (~${(insert.docBytes / 1024).toFixed(1)} KB documents) + event + job, in one transaction:` +
        ` median ${insert.median.toFixed(0)} ms, best ${insert.min.toFixed(0)} ms (${ROUNDS} rounds)`
    )
    for (const workers of workerCounts) {
      const r = yield* queueRun(workers)
      console.log(
        `  ${JOBS.toLocaleString("en")} jobs, ${workers} worker${workers > 1 ? "s" : ""}: claim+complete ${r.perSecond.toFixed(0)} jobs/s` +
          ` (${r.seconds.toFixed(1)} s); enqueue ${r.enqueuePerSecond.toFixed(0)} jobs/s`
      )
    }
  }).pipe(
    Effect.provide(PgStores.layer({ masterKey: MASTER_KEY }).pipe(Layer.provideMerge(client))),
    Effect.scoped
  ) as Effect.Effect<void, unknown, never>

const maintenance = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  effect.pipe(Effect.provide(PgClient.layer({
    url: Redacted.make(MAINTENANCE_URL),
    connectTimeout: Duration.seconds(2),
    maxConnections: 1
  })))

const main = Effect.gen(function*() {
  const dir = mkdtempSync(join(tmpdir(), "sigil-bench-"))
  // PGlite runs one statement at a time: more workers only queue on its one connection.
  yield* suite("PGlite (file-backed, socket server, pool of 1)", PgStore.layerPglite({ dataDir: dir }), [1]).pipe(
    Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  )

  const reachable = yield* maintenance(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)).pipe(
    Effect.as(true),
    Effect.catchAll(() => Effect.succeed(false))
  )
  if (!reachable) {
    console.log("\nPostgreSQL not reachable on 127.0.0.1:5432: skipping the Postgres figures")
    return
  }
  const name = `sigil_bench_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`
  yield* maintenance(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE DATABASE ${sql(name)}`))
  yield* suite(
    "PostgreSQL (127.0.0.1:5432, pool of 10)",
    PgStore.layerPostgres({ url: Redacted.make(`postgres://postgres@127.0.0.1:5432/${name}`), maxConnections: 10 }),
    [1, 4]
  ).pipe(
    Effect.ensuring(
      maintenance(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`)).pipe(
        Effect.orDie
      )
    )
  )
})

Effect.runPromise(main).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
