/**
 * Rotating the master key re-wraps every sealed secret in one transaction: the vault and the
 * webhook store work under the new key and no longer under the old one, a second run changes
 * nothing, and an envelope under a third key stops the rotation with nothing written.
 */
import { assert, describe, it } from "@effect/vitest"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import * as WebhookEndpointStore from "@sigil/service/Webhooks/WebhookEndpointStore"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import { endpointOf, secretOf, tenantOf } from "@sigil/service/testkit/fixtures"
import * as Envelope from "../src/Envelope.js"
import * as MasterKeyRotation from "../src/MasterKeyRotation.js"
import * as PgKeyVault from "../src/PgKeyVault.js"
import type * as PgStore from "../src/PgStore.js"
import * as PgTenantStore from "../src/PgTenantStore.js"
import * as PgWebhookEndpointStore from "../src/PgWebhookEndpointStore.js"
import { pglite, postgres, shared } from "../testkit/database.js"

const newKey = () => {
  const text = Redacted.make(Envelope.generateMasterKey())
  return { text, key: Either.getOrThrow(Envelope.masterKey(text)) }
}

// The vault and webhook store under one master key, over the file's database.
const under = (master: Redacted.Redacted<string>) =>
  Layer.mergeAll(PgKeyVault.layer({ masterKey: master }), PgWebhookEndpointStore.layer({ masterKey: master }))

const rotation = (client: Layer.Layer<PgStore.Client>) =>
  it.effect("re-wraps every sealed secret under the new key, once, all or nothing", () =>
    Effect.gen(function*() {
      const a = newKey()
      const b = newKey()
      const tenant = tenantOf()
      const secret = secretOf()
      const endpoint = endpointOf(tenant.id)
      const [ed, secp] = yield* Effect.gen(function*() {
        yield* (yield* TenantStore.TenantStore).create(tenant)
        const vault = yield* KeyVault.KeyVault
        yield* (yield* WebhookEndpointStore.WebhookEndpointStore).create(endpoint, secret)
        return [yield* vault.generate(tenant.id, "ed25519", new Date()), yield* vault.generate(tenant.id, "secp256k1", new Date())] as const
      }).pipe(Effect.provide(under(a.text)))

      assert.deepStrictEqual(yield* MasterKeyRotation.rotate(a.key, b.key), { rewrapped: 3, alreadyRotated: 0 })

      const signed = (master: Redacted.Redacted<string>) =>
        Effect.gen(function*() {
          const vault = yield* KeyVault.KeyVault
          return {
            ed: Either.isRight(yield* Effect.either(vault.signEd25519(ed.keyId, new Uint8Array(32)))),
            secp: Either.isRight(yield* Effect.either(vault.signSecp256k1(secp.keyId, new Uint8Array(32))))
          }
        }).pipe(Effect.provide(under(master)))
      // A webhook secret that does not open is a defect of its delivery: read it only where it opens.
      const webhookSecret = (master: Redacted.Redacted<string>) =>
        Effect.flatMap(WebhookEndpointStore.WebhookEndpointStore, (w) => w.secret(endpoint.id)).pipe(
          Effect.map((s) => Redacted.value(Option.getOrThrow(s))),
          Effect.provide(under(master))
        )
      assert.deepStrictEqual(yield* signed(b.text), { ed: true, secp: true })
      assert.strictEqual(yield* webhookSecret(b.text), Redacted.value(secret))
      assert.deepStrictEqual(yield* signed(a.text), { ed: false, secp: false })

      // A second run (after a crash, say) finds everything done.
      assert.deepStrictEqual(yield* MasterKeyRotation.rotate(a.key, b.key), { rewrapped: 0, alreadyRotated: 3 })

      // A key sealed under a third master key: the next rotation stops and writes nothing.
      const c = newKey()
      const stray = yield* Effect.flatMap(KeyVault.KeyVault, (v) => v.generate(tenant.id, "ed25519", new Date())).pipe(
        Effect.provide(under(c.text))
      )
      const d = newKey()
      const failure = yield* Effect.flip(MasterKeyRotation.rotate(b.key, d.key))
      assert.strictEqual(failure._tag, "RotationFailed")
      assert.include(failure.message, stray.keyId)
      assert.include(failure.message, "nothing was changed")
      assert.deepStrictEqual(yield* signed(b.text), { ed: true, secp: true })
      assert.strictEqual(yield* webhookSecret(b.text), Redacted.value(secret))

      const same = yield* Effect.flip(MasterKeyRotation.rotate(b.key, b.key))
      assert.include(same.message, "the new master key is the current one")
    }).pipe(Effect.provide(PgTenantStore.layer.pipe(Layer.provideMerge(client)))), { timeout: 60_000 })

describe("MasterKeyRotation on PGlite", () => {
  rotation(shared(pglite()))
})

const pg = await postgres()
describe.skipIf(pg === undefined)("MasterKeyRotation on Postgres", () => {
  if (pg !== undefined) rotation(shared(pg.runtime))
})
