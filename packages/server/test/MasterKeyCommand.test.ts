/**
 * `npm run admin -- master-key rotate` on the embedded store: the secrets move to the new key,
 * the key file follows, and the server's store opens and signs under it; refusals change
 * nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import * as Envelope from "@sigil/store-pg/Envelope"
import * as PgStore from "@sigil/store-pg/PgStore"
import * as PgStores from "@sigil/store-pg/PgStores"
import { ConfigProvider, Effect, Either, Layer, Redacted } from "effect"
import { spawnSync } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { afterAll } from "vitest"
import { tenantOf } from "@sigil/service/testkit/fixtures"
import * as MasterKeyCommand from "../src/MasterKeyCommand.js"
import { newDataDir } from "../testkit/process.js"

const repoRoot = path.resolve(import.meta.dirname, "../../..")
const dir = newDataDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const keyFile = path.join(dir, "master.key")

// The embedded store of `dir` under a master key, opened for `effect` and closed after.
const withStore = <A, E>(master: string, effect: Effect.Effect<A, E, PgStores.Ports>) =>
  effect.pipe(
    Effect.provide(PgStores.layer({ masterKey: Redacted.make(master) }).pipe(
      Layer.provide(PgStore.layerPglite({ dataDir: path.join(dir, "pglite") }))
    )),
    Effect.scoped
  )

const rotateWith = (env: Record<string, string>) =>
  Effect.either(MasterKeyCommand.rotate.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

const canSign = (master: string, keyId: string) =>
  withStore(master, Effect.flatMap(KeyVault.KeyVault, (v) => Effect.either(v.signEd25519(keyId, new Uint8Array(32))))).pipe(
    Effect.map(Either.isRight)
  )

describe("master-key rotate on the embedded store", () => {
  it.effect("moves the secrets and the key file to the new key; refusals change nothing", () =>
    Effect.gen(function*() {
      const first = Envelope.generateMasterKey()
      writeFileSync(keyFile, `${first}\n`)
      const key = yield* withStore(first, Effect.gen(function*() {
        const tenant = tenantOf()
        yield* (yield* TenantStore.TenantStore).create(tenant)
        return yield* (yield* KeyVault.KeyVault).generate(tenant.id, "ed25519", new Date())
      }))

      // No new key, or a malformed one: refused, the file untouched.
      const missing = yield* rotateWith({ SIGIL_DATA_DIR: dir })
      assert.include(Either.isLeft(missing) ? missing.left : "", "SIGIL_NEW_MASTER_KEY")
      const malformed = yield* rotateWith({ SIGIL_DATA_DIR: dir, SIGIL_NEW_MASTER_KEY: "short" })
      assert.include(Either.isLeft(malformed) ? malformed.left : "", "SIGIL_NEW_MASTER_KEY")
      assert.strictEqual(readFileSync(keyFile, "utf8").trim(), first)

      // The store is in use (a server holds it): refused, nothing changed.
      const second = Envelope.generateMasterKey()
      const whileOpen = yield* withStore(first, rotateWith({ SIGIL_DATA_DIR: dir, SIGIL_NEW_MASTER_KEY: second }))
      assert.include(Either.isLeft(whileOpen) ? whileOpen.left : "", "stop the server first")
      assert.isTrue(yield* canSign(first, key.keyId))

      // The command line itself, as an operator runs it.
      const { DATABASE_URL: _url, SIGIL_MASTER_KEY: _key, ...inherited } = process.env
      const run = spawnSync("npm", ["run", "--silent", "admin", "--", "master-key", "rotate"], {
        cwd: repoRoot,
        env: { ...inherited, SIGIL_DATA_DIR: dir, SIGIL_NEW_MASTER_KEY: second },
        encoding: "utf8"
      })
      assert.strictEqual(run.status, 0, run.stderr)
      assert.include(run.stdout, "1 secrets re-wrapped, 0 already under the new key")
      assert.strictEqual(readFileSync(keyFile, "utf8").trim(), second)
      assert.isTrue(yield* canSign(second, key.keyId))
      assert.isFalse(yield* canSign(first, key.keyId))
    }), { timeout: 120_000 })
})
