/**
 * `SIGIL_DB_POOL_SIZE`: read and checked with the rest of the configuration, and the size of
 * the pool the server's store opens on Postgres.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { freshDatabase, postgresReachable, SKIP_MESSAGE } from "@sigil/store-pg/testkit/database"
import * as Server from "../src/Server.js"
import * as ServerConfig from "../src/ServerConfig.js"

const load = (env: Record<string, string>) =>
  Effect.either(ServerConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("SIGIL_DB_POOL_SIZE", () => {
  it.effect("defaults to 10, takes a whole number from 1 to 1000, refuses anything else", () =>
    Effect.gen(function*() {
      assert.strictEqual(Either.getOrThrow(yield* load({})).dbPoolSize, 10)
      assert.strictEqual(Either.getOrThrow(yield* load({ SIGIL_DB_POOL_SIZE: "25" })).dbPoolSize, 25)
      for (const bad of ["0", "1001", "2.5", "many"]) assert.isTrue(Either.isLeft(yield* load({ SIGIL_DB_POOL_SIZE: bad })), bad)
    }))
})

const reachable = await postgresReachable()
if (!reachable) console.log(SKIP_MESSAGE)
const url = reachable ? await freshDatabase() : undefined

describe.skipIf(!reachable)("the store's pool on Postgres", () => {
  it.effect("opens at most SIGIL_DB_POOL_SIZE connections, however many queries wait", () =>
    Effect.gen(function*() {
      const config = Either.getOrThrow(yield* load({ DATABASE_URL: Redacted.value(url!), SIGIL_DB_POOL_SIZE: "3" }))
      assert.isTrue(Option.isSome(config.databaseUrl))
      const pids = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Eight queries at once, each holding its connection a second (time enough to open every connection the pool may): the pool grows to its size and no further.
        return yield* Effect.all(
          Array.from({ length: 8 }, () => sql<{ readonly pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(1)`),
          { concurrency: "unbounded" }
        )
      }).pipe(
        Effect.provide(Server.storeLayer(config, { masterKey: Redacted.make("8f".repeat(32)), adminToken: Redacted.make("t") })),
        Effect.scoped
      )
      assert.strictEqual(new Set(pids.map((rows) => rows[0]!.pid)).size, 3)
    }), { timeout: 60_000 })
})
