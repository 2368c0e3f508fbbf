/**
 * The SQL client every repository of this package runs on, with the schema migrated: real
 * Postgres with a pool (`layerPostgres`), or the embedded PGlite in a data directory
 * (`layerPglite`), the default when no database URL is configured. The same migrations, the
 * same client (`@effect/sql-pg` over node-postgres) and the same repositories serve both.
 *
 * Build the layer once per process and share it: every build opens its own pool (and, for
 * PGlite, its own database), and the migrator must run on the client the app uses
 * (research/feasibility.md §3).
 *
 * @since 0.1.0
 */
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, type Redacted } from "effect"
import { join } from "node:path"
import * as Pglite from "./internal/pglite.js"
import initial from "./migrations/0001_initial.js"
import emailDelivery from "./migrations/0002_email_delivery.js"
import rateLimitDecision from "./migrations/0003_rate_limit_decision.js"
import idempotencyLease from "./migrations/0004_idempotency_lease.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface PostgresOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly url: Redacted.Redacted<string>
  /** The pool's size; 10 by default. */
  readonly maxConnections?: number | undefined
  /** 5 seconds by default. */
  readonly connectTimeout?: Duration.DurationInput | undefined
  readonly applicationName?: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface PgliteOptions {
  /** The data directory (created if missing); in memory, gone on close, when undefined. */
  readonly dataDir: string | undefined
}

/**
 * The services a store layer provides: the generic SQL client and the Postgres one.
 *
 * @since 0.1.0
 * @category models
 */
export type Client = SqlClient.SqlClient | PgClient.PgClient

/**
 * The migrations, in order.
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrations: Migrator.Loader = Migrator.fromRecord({
  "0001_initial": initial,
  "0002_email_delivery": emailDelivery,
  "0003_rate_limit_decision": rateLimitDecision,
  "0004_idempotency_lease": idempotencyLease
})

/**
 * The table the migrator records applied migrations in.
 *
 * @since 0.1.0
 * @category migrations
 */
export const MIGRATIONS_TABLE = "effect_sql_migrations"

// Any number from a fixed namespace: the key of the advisory lock migrations run under.
const MIGRATION_LOCK = 5_163_761_001

/**
 * Applies the pending migrations. Several processes starting at once against one database
 * take turns on an advisory lock, so none sees a half-created migrations table.
 *
 * @since 0.1.0
 * @category migrations
 */
export const migrate: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(${sql.literal(String(MIGRATION_LOCK))})`
    // The migrator probes this table and creates it when the probe fails; inside a
    // transaction a failed probe would abort everything, so it exists before it looks.
    yield* sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
      migration_id integer PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now(),
      name text NOT NULL
    )`
    return yield* Migrator.make({})({ loader: migrations, table: MIGRATIONS_TABLE })
  }))
}).pipe(Effect.withSpan("PgStore.migrate"))

const migrated = <E>(client: Layer.Layer<Client, E>): Layer.Layer<Client, E | SqlError | Migrator.MigrationError> =>
  Layer.effectDiscard(migrate).pipe(Layer.provideMerge(client))

/**
 * Real Postgres, with a pool, migrated.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerPostgres = (options: PostgresOptions): Layer.Layer<Client, SqlError | Migrator.MigrationError> =>
  migrated(PgClient.layer({
    url: options.url,
    maxConnections: options.maxConnections ?? 10,
    connectTimeout: options.connectTimeout ?? Duration.seconds(5),
    applicationName: options.applicationName ?? "sigil"
  }))

/**
 * The embedded store: PGlite persisted in `dataDir`, served on a free port of 127.0.0.1 to a
 * client pool of one connection (PGlite runs one statement at a time, and one transaction at a
 * time across connections anyway), migrated. Everything closes when the layer's scope ends.
 *
 * One process per data directory: a lock file (`sigil.lock`) refuses a second one.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerPglite = (options: PgliteOptions): Layer.Layer<Client, SqlError | Migrator.MigrationError> =>
  migrated(Layer.unwrapScoped(Effect.map(
    Pglite.serve({ dataDir: options.dataDir, connections: 1 }),
    ({ host, port }) =>
      PgClient.layer({
        host,
        port,
        username: "postgres",
        database: "postgres",
        maxConnections: 1,
        connectTimeout: Duration.seconds(30),
        applicationName: "sigil"
      })
  )))

/**
 * Postgres when a URL is given, else the embedded PGlite in `<dataDir>/pglite` (the data
 * directory also holds other state, and initdb wants a directory of its own): what the server
 * wires from `DATABASE_URL` and `SIGIL_DATA_DIR`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: {
  readonly url: Redacted.Redacted<string> | undefined
  readonly dataDir: string
  readonly maxConnections?: number | undefined
}): Layer.Layer<Client, SqlError | Migrator.MigrationError> =>
  options.url !== undefined
    ? layerPostgres({ url: options.url, maxConnections: options.maxConnections })
    : layerPglite({ dataDir: join(options.dataDir, "pglite") })
