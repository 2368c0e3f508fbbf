/**
 * The behaviour every `KeyVault` must show (memory, PGlite, Postgres): keys are made and listed
 * per tenant with their DID fragments, and their signatures verify under their public keys
 * (checked here with @noble/curves, independently of the vault).
 */
import { assert, layer } from "@effect/vitest"
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, type Layer } from "effect"
import * as Ids from "@sigil/core/Ids"
import * as KeyVault from "../src/Tenants/KeyVault.js"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, newTenant, plus } from "./fixtures.js"

export const keyVaultContract = <E>(
  name: string,
  stores: Layer.Layer<KeyVault.KeyVault | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`KeyVault contract: ${name}`, (it) => {
    const vault = KeyVault.KeyVault
    const t0 = at("2025-03-01T12:00:00.750Z")

    it.effect("generates keys with the next fragment of their kind, created in whole seconds", () =>
      Effect.gen(function*() {
        const v = yield* vault
        const tenant = yield* newTenant()
        const ed1 = yield* v.generate(tenant.id, "ed25519", t0)
        const secp1 = yield* v.generate(tenant.id, "secp256k1", t0)
        const ed2 = yield* v.generate(tenant.id, "ed25519", plus(t0, 1000))
        assert.deepStrictEqual([ed1.fragment, secp1.fragment, ed2.fragment], ["key-ed25519-1", "key-1", "key-ed25519-2"])
        assert.deepStrictEqual(ed1.createdAt, KeyVault.wholeSeconds(t0))
        assert.strictEqual(ed1.tenantId, tenant.id)
        assert.strictEqual(ed1.publicKey.length, 32)
        assert.strictEqual(secp1.publicKey.length, 33)
        assert.include([2, 3], secp1.publicKey[0])
        assert.strictEqual(ed1.revokedAt, undefined)
        assert.notStrictEqual(ed1.keyId, ed2.keyId)
        assert.deepStrictEqual(yield* v.keys(tenant.id), [ed1, secp1, ed2])
      }))

    it.effect("keeps each tenant's keys apart", () =>
      Effect.gen(function*() {
        const v = yield* vault
        const a = yield* newTenant()
        const b = yield* newTenant()
        const ka = yield* v.generate(a.id, "secp256k1", t0)
        const kb = yield* v.generate(b.id, "secp256k1", t0)
        assert.strictEqual(kb.fragment, "key-1")
        assert.deepStrictEqual(yield* v.keys(a.id), [ka])
        assert.deepStrictEqual(yield* v.keys(b.id), [kb])
        assert.deepStrictEqual(yield* v.keys(Ids.unsafeMake("tnt")), [])
      }))

    it.effect("signs with Ed25519: the signature verifies under the public key", () =>
      Effect.gen(function*() {
        const v = yield* vault
        const tenant = yield* newTenant()
        const key = yield* v.generate(tenant.id, "ed25519", t0)
        const message = new TextEncoder().encode("canonical N-Quads ✓")
        const signature = yield* v.signEd25519(key.keyId, message)
        assert.strictEqual(signature.length, 64)
        assert.isTrue(ed25519.verify(signature, message, key.publicKey))
        assert.isFalse(ed25519.verify(signature, new TextEncoder().encode("other"), key.publicKey))
      }))

    it.effect("signs a digest with secp256k1: verifies, and recovers the public key", () =>
      Effect.gen(function*() {
        const v = yield* vault
        const tenant = yield* newTenant()
        const key = yield* v.generate(tenant.id, "secp256k1", t0)
        const digest = crypto.getRandomValues(new Uint8Array(32))
        const sig = yield* v.signSecp256k1(key.keyId, digest)
        const signature = new secp256k1.Signature(sig.r, sig.s)
        assert.isTrue(secp256k1.verify(signature.toBytes("compact"), digest, key.publicKey, { prehash: false }))
        // Low-s, as Ethereum requires.
        assert.isTrue(sig.s <= secp256k1.Point.CURVE().n / 2n)
        const recovered = signature.addRecoveryBit(sig.yParity).recoverPublicKey(digest).toBytes(true)
        assert.deepStrictEqual(recovered, key.publicKey)
      }))

    it.effect("a revoked key stays listed with its revocation time; the newest unrevoked one is active", () =>
      Effect.gen(function*() {
        const v = yield* vault
        const tenant = yield* newTenant()
        const k1 = yield* v.generate(tenant.id, "ed25519", t0)
        const k2 = yield* v.generate(tenant.id, "ed25519", plus(t0, 5000))
        yield* v.revoke(k2.keyId, at("2025-06-01T00:00:00.900Z"))
        const keys = yield* v.keys(tenant.id)
        assert.deepStrictEqual(keys, [k1, { ...k2, revokedAt: at("2025-06-01T00:00:00.000Z") }])
        assert.deepStrictEqual(KeyVault.activeKey(keys, "ed25519"), k1)
        assert.strictEqual(KeyVault.activeKey(keys, "secp256k1"), undefined)
      }))

    it.effect("an unknown key is KeyNotFound", () =>
      Effect.gen(function*() {
        const v = yield* vault
        const keyId = Ids.unsafeMake("key")
        const failures = [
          yield* Effect.flip(v.signEd25519(keyId, new Uint8Array(1))),
          yield* Effect.flip(v.signSecp256k1(keyId, new Uint8Array(32))),
          yield* Effect.flip(v.revoke(keyId, t0))
        ]
        for (const failure of failures) {
          assert.strictEqual(failure._tag, "KeyNotFound")
          if (failure._tag === "KeyNotFound") assert.strictEqual(failure.keyId, keyId)
        }
      }))
  })
}
