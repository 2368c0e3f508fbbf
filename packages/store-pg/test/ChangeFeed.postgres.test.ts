/**
 * The change feed across processes on the machine's PostgreSQL: two clients with pools of their
 * own (as two server processes have) share one database. An announcement in a transaction of
 * one reaches the other's listeners at the commit, never for a rollback; the feed says it is
 * live only while it hears its own pings; when its listening connection is killed it stops
 * being live, listens again on a new connection and says `Reset`. Skipped, with a message,
 * when no server answers on 127.0.0.1:5432 (and failing instead when CI=true).
 */
import * as ChangeFeed from "@sigil/service/ChangeFeed"
import * as Transactor from "@sigil/service/Transactor"
import * as Ids from "@sigil/core/Ids"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, assert, describe, it } from "vitest"
import * as PgChangeFeed from "../src/PgChangeFeed.js"
import * as PgStore from "../src/PgStore.js"
import * as PgTransactor from "../src/PgTransactor.js"
import { postgres } from "../testkit/database.js"

const pg = await postgres()

/** Polls `probe` until it gives a value (never a fixed sleep). */
const eventually = async <A>(probe: () => Promise<A | undefined>, timeoutMs: number, what: string): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

// A short heartbeat, so the loss of a connection shows within seconds.
const HEARTBEAT = Duration.millis(300)

const processOn = () => {
  if (pg === undefined) throw new Error("unreachable")
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(PgChangeFeed.layer({ heartbeat: HEARTBEAT }), PgTransactor.layer).pipe(
      Layer.provideMerge(PgStore.layerPostgres({ url: pg.url, maxConnections: 2 }))
    )
  )
  afterAll(() => runtime.dispose())
  return runtime
}

type Runtime = ReturnType<typeof processOn>

/** Every change the process's listeners hear, from now on. */
const record = async (runtime: Runtime) => {
  const heard: Array<ChangeFeed.Change> = []
  await runtime.runPromise(Effect.flatMap(ChangeFeed.ChangeFeed, (feed) =>
    Effect.forkDaemon(Effect.scoped(Effect.zipRight(feed.subscribe((c) => heard.push(c)), Effect.never)))))
  return heard
}

const isLive = (runtime: Runtime) => runtime.runPromise(Effect.map(ChangeFeed.ChangeFeed, (feed) => feed.isLive()))

describe.skipIf(pg === undefined)("the change feed across processes (Postgres)", () => {
  it("an announcement reaches the other process at the commit, and a rollback announces nothing", async () => {
    const a = processOn()
    const b = processOn()
    const heard = await record(b)
    await eventually(async () => ((await isLive(a)) && (await isLive(b)) ? true : undefined), 20_000, "both feeds live")
    const committed = Ids.unsafeMake("tnt")
    const rolledBack = Ids.unsafeMake("tnt")

    const early = await a.runPromise(Transactor.transactionally(Effect.gen(function*() {
      yield* ChangeFeed.announce(committed)
      // Long enough for a notification to cross if it were sent before the commit.
      yield* Effect.sleep("300 millis")
      return heard.some((c) => c._tag === "TenantChanged" && c.tenantId === committed)
    })))
    assert.isFalse(early, "nothing reaches another process before the commit")
    await eventually(async () => heard.some((c) => c._tag === "TenantChanged" && c.tenantId === committed) || undefined, 10_000, "the announcement")

    await a.runPromise(Effect.either(Transactor.transactionally(Effect.zipRight(ChangeFeed.announce(rolledBack), Effect.fail("abort")))))
    // A later announcement arrives, so the rolled-back one would have arrived before it.
    const later = Ids.unsafeMake("tnt")
    await a.runPromise(Transactor.transactionally(ChangeFeed.announce(later)))
    await eventually(async () => heard.some((c) => c._tag === "TenantChanged" && c.tenantId === later) || undefined, 10_000, "the later announcement")
    assert.isFalse(heard.some((c) => c._tag === "TenantChanged" && c.tenantId === rolledBack), "a rollback announces nothing")
  })

  it("a killed listening connection: not live, then listening again, with a Reset", async () => {
    const b = processOn()
    const heard = await record(b)
    await eventually(async () => ((await isLive(b)) ? true : undefined), 20_000, "the feed live")
    const resetsBefore = heard.filter((c) => c._tag === "Reset").length
    // Every connection LISTENing on the channel in this database, as Postgres sees them.
    await b.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE ${`LISTEN%${PgChangeFeed.CHANNEL}%`}`))
    await eventually(async () => ((await isLive(b)) ? undefined : true), 20_000, "the feed no longer live")
    await eventually(async () => ((await isLive(b)) ? true : undefined), 20_000, "the feed live again")
    assert.isAbove(heard.filter((c) => c._tag === "Reset").length, resetsBefore, "a Reset on coming back")
  })
})
