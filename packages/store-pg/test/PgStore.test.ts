/**
 * The store itself: migrations, the embedded PGlite's persistence and lock, and secrets at rest.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import * as BatchStore from "@sigil/service/Batches/BatchStore"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import * as WebhookEndpointStore from "@sigil/service/Webhooks/WebhookEndpointStore"
import { Context, Effect, Either, Exit, Layer, Option, Redacted } from "effect"
import { createPrivateKey, createPublicKey } from "node:crypto"
import { rmSync } from "node:fs"
import { afterAll } from "vitest"
import { batchOf, endpointOf, secretOf, tenantOf } from "@sigil/service/testkit/fixtures"
import * as Envelope from "../src/Envelope.js"
import initial from "../src/migrations/0001_initial.js"
import * as PgKeyVault from "../src/PgKeyVault.js"
import * as PgStore from "../src/PgStore.js"
import * as PgStores from "../src/PgStores.js"
import { freshDatabase, MASTER_KEY, pgliteDataDir, postgresReachable, SKIP_MESSAGE } from "../testkit/database.js"

/** The Ed25519 public key of a raw 32-byte private key, computed by node:crypto (independently of the vault). */
const ed25519PublicKey = (secret: Uint8Array): Uint8Array => {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), secret])
  const jwk = createPublicKey(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" })).export({ format: "jwk" })
  return new Uint8Array(Buffer.from(jwk.x!, "base64url"))
}

const dir = pgliteDataDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `effect` on the embedded store in `dir`, opened for it and closed after. */
const onPglite = <A, E>(effect: Effect.Effect<A, E, PgStores.Ports | PgStore.Client>) =>
  effect.pipe(
    Effect.provide(PgStores.layer({ masterKey: MASTER_KEY }).pipe(Layer.provideMerge(PgStore.layerPglite({ dataDir: dir })))),
    Effect.scoped
  )

describe("PgStore on PGlite", () => {
  it.effect("keeps what it stored across a restart, and migrates only once", () =>
    Effect.gen(function*() {
      const tenant = tenantOf()
      const { batch, credentials, recipients } = batchOf(tenant.id, { n: 2, documentSize: 2048 })
      yield* onPglite(Effect.gen(function*() {
        yield* (yield* TenantStore.TenantStore).create(tenant)
        yield* (yield* BatchStore.BatchStore).insert(batch, credentials, recipients)
      }))
      yield* onPglite(Effect.gen(function*() {
        assert.deepStrictEqual(yield* (yield* TenantStore.TenantStore).get(tenant.id), Option.some(tenant))
        assert.deepStrictEqual(yield* (yield* BatchStore.BatchStore).credentialsOf(batch.id), credentials)
        assert.deepStrictEqual(yield* PgStore.migrate, [])
        const sql = yield* SqlClient.SqlClient
        const applied = yield* sql<{ readonly name: string }>`SELECT name FROM ${sql(PgStore.MIGRATIONS_TABLE)}`
        assert.deepStrictEqual(applied.map((r) => r.name), ["initial", "email_delivery", "rate_limit_decision", "idempotency_lease"])
      }))
    }), { timeout: 60_000 })

  it.effect("refuses a second opening of a data directory in use, and reopens once it is closed", () =>
    Effect.gen(function*() {
      const first = yield* Effect.exit(Effect.scoped(Effect.gen(function*() {
        yield* Layer.build(PgStore.layerPglite({ dataDir: dir }))
        return yield* Effect.exit(Effect.scoped(Layer.build(PgStore.layerPglite({ dataDir: dir }))))
      })))
      assert.isTrue(Exit.isSuccess(first))
      if (Exit.isSuccess(first)) {
        assert.isTrue(Exit.isFailure(first.value))
        assert.include(String(Exit.isFailure(first.value) ? first.value.cause : ""), "in use by process")
      }
      yield* onPglite(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`))
    }), { timeout: 60_000 })

  it.effect("seals tenant keys at rest: the row holds an envelope, never the key", () =>
    onPglite(Effect.gen(function*() {
      const tenant = tenantOf()
      yield* (yield* TenantStore.TenantStore).create(tenant)
      const vault = yield* KeyVault.KeyVault
      const key = yield* vault.generate(tenant.id, "ed25519", new Date())
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly secret_envelope: Uint8Array; readonly row: string }>`
        SELECT secret_envelope, t::text AS row FROM tenant_keys t WHERE key_id = ${key.keyId}`
      const master = Either.getOrThrow(Envelope.masterKey(MASTER_KEY))
      const secret = Either.getOrThrow(Envelope.open(master, row!.secret_envelope, `tenant-key:${key.keyId}`))
      assert.deepStrictEqual(ed25519PublicKey(secret), key.publicKey)
      assert.strictEqual(Buffer.from(row!.secret_envelope).indexOf(Buffer.from(secret)), -1)
      assert.notInclude(row!.row, Buffer.from(secret).toString("hex"))
      // Bound to its record: the envelope does not open as another key's.
      assert.isTrue(Either.isLeft(Envelope.open(master, row!.secret_envelope, "tenant-key:key_other")))
    })), { timeout: 60_000 })

  it.effect("a vault under another master key lists keys but cannot sign: SigningKeyUnavailable", () =>
    onPglite(Effect.gen(function*() {
      const tenant = tenantOf()
      yield* (yield* TenantStore.TenantStore).create(tenant)
      const key = yield* (yield* KeyVault.KeyVault).generate(tenant.id, "secp256k1", new Date())
      const other = yield* Effect.provide(
        KeyVault.KeyVault,
        PgKeyVault.layer({ masterKey: Redacted.make(Envelope.generateMasterKey()) })
      )
      assert.deepStrictEqual(yield* other.keys(tenant.id), [key])
      const failure = yield* Effect.flip(other.signSecp256k1(key.keyId, new Uint8Array(32)))
      assert.strictEqual(failure._tag, "SigningKeyUnavailable")
      assert.include(failure._tag === "SigningKeyUnavailable" ? failure.message : "", "another master key")
    })), { timeout: 60_000 })

  it.effect("seals webhook secrets at rest", () =>
    onPglite(Effect.gen(function*() {
      const tenant = tenantOf()
      yield* (yield* TenantStore.TenantStore).create(tenant)
      const webhooks = yield* WebhookEndpointStore.WebhookEndpointStore
      const secret = Redacted.value(secretOf())
      const endpoint = endpointOf(tenant.id)
      yield* webhooks.create(endpoint, Redacted.make(secret))
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly row: string; readonly secret_envelope: Uint8Array }>`
        SELECT t::text AS row, secret_envelope FROM webhook_endpoints t WHERE id = ${endpoint.id}`
      assert.notInclude(row!.row, secret)
      assert.strictEqual(Buffer.from(row!.secret_envelope).indexOf(Buffer.from(secret)), -1)
      assert.strictEqual(Redacted.value(Option.getOrThrow(yield* webhooks.secret(endpoint.id))), secret)
    })), { timeout: 60_000 })

  it.effect("an unusable master key fails the layer", () =>
    Effect.gen(function*() {
      const result = yield* Effect.exit(
        Effect.scoped(Layer.build(PgStores.layer({ masterKey: Redacted.make("too short") }).pipe(
          Layer.provide(PgStore.layerPglite({ dataDir: dir }))
        )))
      )
      assert.isTrue(Exit.isFailure(result))
      assert.include(String(Exit.isFailure(result) ? result.cause : ""), "InvalidMasterKey")
    }), { timeout: 60_000 })
})

const reachable = await postgresReachable()
if (!reachable) console.log(SKIP_MESSAGE)
// Created (and dropped after the last test) at collection: hooks cannot be added from a test.
const unmigrated = reachable ? await freshDatabase() : undefined
const atFirstMigration = reachable ? await freshDatabase() : undefined

describe.skipIf(!reachable)("PgStore on Postgres", () => {
  it.effect("several processes starting at once migrate one database once", () =>
    Effect.gen(function*() {
      const url = unmigrated!
      // Four separate pools stand for four server processes starting together.
      const results = yield* Effect.all(
        Array.from({ length: 4 }, () =>
          Effect.scoped(Effect.flatMap(Layer.build(PgStore.layerPostgres({ url, maxConnections: 2 })), () => Effect.void))),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(results.length, 4)
      const applied = yield* Effect.scoped(Effect.flatMap(
        Layer.build(PgStore.layerPostgres({ url, maxConnections: 1 })),
        (ctx) => {
          const sql = Context.get(ctx, SqlClient.SqlClient)
          return sql<{ readonly migration_id: number }>`SELECT migration_id FROM ${sql(PgStore.MIGRATIONS_TABLE)}`
        }
      ))
      assert.deepStrictEqual(applied.map((r) => r.migration_id), [1, 2, 3, 4])
    }), { timeout: 60_000 })

  it.effect("a database at 0001 with tenants takes the later migrations: their e-mail delivery is off", () =>
    Effect.gen(function*() {
      const url = atFirstMigration!
      const tenant = tenantOf()
      // The schema as it was before 0002, with a tenant in it.
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE ${sql(PgStore.MIGRATIONS_TABLE)} (
          migration_id integer PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), name text NOT NULL)`
        yield* Migrator.make({})({ loader: Migrator.fromRecord({ "0001_initial": initial }), table: PgStore.MIGRATIONS_TABLE })
        yield* sql`INSERT INTO tenants (id, name, plan, recipient_name_mode, created_at)
          VALUES (${tenant.id}, ${tenant.name}, ${tenant.plan}, ${tenant.recipientNameMode}, ${tenant.createdAt})`
      }).pipe(Effect.provide(PgClient.layer({ url, maxConnections: 1 })), Effect.scoped)
      const migrated = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const applied = yield* sql<{ readonly name: string }>`SELECT name FROM ${sql(PgStore.MIGRATIONS_TABLE)} ORDER BY migration_id`
        const stored = yield* Effect.flatMap(TenantStore.TenantStore, (s) => s.get(tenant.id))
        return { applied: applied.map((r) => r.name), stored }
      }).pipe(
        Effect.provide(PgStores.layer({ masterKey: MASTER_KEY }).pipe(Layer.provideMerge(PgStore.layerPostgres({ url, maxConnections: 1 })))),
        Effect.scoped
      )
      assert.deepStrictEqual(migrated.applied, ["initial", "email_delivery", "rate_limit_decision", "idempotency_lease"])
      assert.deepStrictEqual(migrated.stored, Option.some(tenant))
    }), { timeout: 60_000 })
})
