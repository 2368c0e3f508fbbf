/**
 * The databases of the store's tests: one PGlite per test file (a copy of the migrated
 * template `globalSetup` made), or a fresh database per test file on the machine's Postgres
 * (127.0.0.1:5432, trust auth), dropped afterwards. Suites share the file's database and start
 * from empty tables.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, inject } from "vitest"
import * as PgStore from "../src/PgStore.js"
import * as PgStores from "../src/PgStores.js"

export const POSTGRES_HOST = "127.0.0.1:5432"
export const MAINTENANCE_URL = `postgres://postgres@${POSTGRES_HOST}/test`
export const SKIP_MESSAGE = `PostgreSQL not reachable on ${POSTGRES_HOST}: skipping the real-Postgres runs`

/** A fixed test master key (32 bytes, hex). */
export const MASTER_KEY = Redacted.make("8f".repeat(32))

type Client = ManagedRuntime.ManagedRuntime<PgStore.Client, unknown>

/** A copy of the migrated PGlite template in a directory of its own. */
export const pgliteDataDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "sigil-pglite-"))
  cpSync(inject("pgliteTemplate"), dir, { recursive: true })
  return dir
}

/** This file's PGlite, started once and closed after its last test. */
export const pglite = (): Client => {
  const dir = pgliteDataDir()
  const runtime = ManagedRuntime.make(PgStore.layerPglite({ dataDir: dir }))
  afterAll(async () => {
    await runtime.dispose()
    rmSync(dir, { recursive: true, force: true })
  })
  return runtime
}

const maintenance = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.runPromise(
    effect.pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(MAINTENANCE_URL), connectTimeout: Duration.seconds(2), maxConnections: 1 }))
    )
  )

/** Whether a Postgres server answers on 127.0.0.1:5432 (within 2 s). */
export const postgresReachable = (): Promise<boolean> =>
  maintenance(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)).then(() => true, () => false)
    .then((reachable) => mayRunWithout(reachable, process.env))

/**
 * Outside CI a machine without Postgres skips the real-Postgres runs (PGlite still runs every
 * contract). In CI (`CI=true`) a skip would let the suite go green without ever touching
 * Postgres, so an unreachable server fails the file instead.
 */
export const mayRunWithout = (reachable: boolean, env: Record<string, string | undefined>): boolean => {
  if (!reachable && env.CI === "true") {
    throw new Error(`CI=true and PostgreSQL is not reachable on ${POSTGRES_HOST}: the Postgres suites must run in CI (start the cluster: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start)`)
  }
  return reachable
}

/** A fresh, empty database on the machine's Postgres, dropped after the file's last test. */
export const freshDatabase = async (): Promise<Redacted.Redacted<string>> => {
  const name = `sigil_t_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`
  await maintenance(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE DATABASE ${sql(name)}`))
  afterAll(() =>
    maintenance(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
  )
  return Redacted.make(`postgres://postgres@${POSTGRES_HOST}/${name}`)
}

/**
 * A fresh database for this file on the machine's Postgres, migrated, dropped after the last
 * test; `undefined` (and the skip message printed) when no server answers.
 */
export const postgres = async (
  options: { readonly maxConnections?: number } = {}
): Promise<{ readonly runtime: Client; readonly url: Redacted.Redacted<string> } | undefined> => {
  if (!(await postgresReachable())) {
    console.log(SKIP_MESSAGE)
    return undefined
  }
  const url = await freshDatabase()
  const runtime = ManagedRuntime.make(PgStore.layerPostgres({ url, maxConnections: options.maxConnections ?? 6 }))
  // Registered after the database's own afterAll, so it runs first: close the pool, then drop.
  afterAll(() => runtime.dispose())
  return { runtime, url }
}

/** The client of a file's runtime, as a layer (built once by the runtime, shared by suites). */
export const shared = (runtime: Client): Layer.Layer<PgStore.Client> =>
  Layer.effectContext(Effect.map(runtime.runtimeEffect, (rt) => rt.context)).pipe(Layer.orDie)

/** Empties every table but the migrations'. */
export const truncateAll = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ readonly name: string }>`SELECT tablename AS name FROM pg_tables
    WHERE schemaname = current_schema() AND tablename <> ${PgStore.MIGRATIONS_TABLE}`
  if (tables.length > 0) yield* sql`TRUNCATE ${sql.literal(tables.map((t) => `"${t.name}"`).join(", "))} CASCADE`
}).pipe(Effect.orDie)

/** Every port over the file's database, tables emptied when the layer is built (per suite). */
export const stores = (runtime: Client) =>
  PgStores.layer({ masterKey: MASTER_KEY }).pipe(
    Layer.provideMerge(Layer.effectDiscard(truncateAll).pipe(Layer.provideMerge(shared(runtime)))),
    Layer.orDie
  )
