/**
 * Job wake-ups across processes on the machine's PostgreSQL: two clients with pools of their own
 * (as two server processes have) share one database; a job enqueued through one wakes the other's
 * workers through `LISTEN/NOTIFY`, once the enqueuing transaction commits. Skipped, with a
 * message, when no server answers on 127.0.0.1:5432 (and failing instead when CI=true).
 */
import { JobQueue } from "@sigil/service/Pipeline/JobQueue"
import * as Transactor from "@sigil/service/Transactor"
import { Duration, Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, assert, describe, it } from "vitest"
import * as PgJobQueue from "../src/PgJobQueue.js"
import * as PgStore from "../src/PgStore.js"
import * as PgTransactor from "../src/PgTransactor.js"
import { postgres } from "../testkit/database.js"

const pg = await postgres()

const processOn = (queue: Layer.Layer<JobQueue, never, PgStore.Client>) => {
  if (pg === undefined) throw new Error("unreachable")
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(queue, PgTransactor.layer).pipe(Layer.provideMerge(PgStore.layerPostgres({ url: pg.url, maxConnections: 2 })))
  )
  afterAll(() => runtime.dispose())
  return runtime
}

const woken = (ticket: (timeout: Duration.DurationInput) => Effect.Effect<void>, within: Duration.DurationInput) =>
  Effect.map(Effect.timeoutOption(ticket(Duration.infinity), within), Option.isSome)

describe.skipIf(pg === undefined)("job wake-ups across processes (Postgres)", () => {
  it("an enqueue in one process wakes the other's workers at commit, not before", async () => {
    const a = processOn(PgJobQueue.layerCrossProcess)
    const b = processOn(PgJobQueue.layerCrossProcess)
    const kind = `wake-${crypto.randomUUID()}`
    // B listens from its first use; give its LISTEN connection a moment to be up by waiting for
    // one wake-up it must see (A's first enqueue), retrying until it arrives.
    await b.runPromise(Effect.flatMap(JobQueue, (q) => q.nextDueAt([kind])))
    let ready = false
    for (let i = 0; i < 50 && !ready; i++) {
      const ticket = await b.runPromise(Effect.flatMap(JobQueue, (q) => q.wakeup))
      await a.runPromise(Effect.flatMap(JobQueue, (q) => q.enqueue(kind, {}, new Date())))
      ready = await b.runPromise(woken(ticket, "200 millis"))
    }
    assert.isTrue(ready, "B's LISTEN connection came up")

    const ticket = await b.runPromise(Effect.flatMap(JobQueue, (q) => q.wakeup))
    const early = await a.runPromise(
      Transactor.transactionally(
        Effect.gen(function*() {
          yield* Effect.flatMap(JobQueue, (q) => q.enqueue(kind, {}, new Date()))
          return yield* woken(ticket, "300 millis")
        })
      )
    )
    assert.isFalse(early, "no wake-up in another process before the commit")
    assert.isTrue(await b.runPromise(woken(ticket, "10 seconds")), "the commit wakes the other process")
  })

  it("without cross-process wake-ups (PGlite's mode) the other process is not woken", async () => {
    const a = processOn(PgJobQueue.layer)
    const b = processOn(PgJobQueue.layer)
    const kind = `quiet-${crypto.randomUUID()}`
    const ticket = await b.runPromise(Effect.flatMap(JobQueue, (q) => q.wakeup))
    await a.runPromise(Effect.flatMap(JobQueue, (q) => q.enqueue(kind, {}, new Date())))
    assert.isFalse(await b.runPromise(woken(ticket, "500 millis")))
  })
})
