/**
 * The worker-thread hasher and the node:crypto primitives give exactly what core gives in the
 * calling thread with @noble: the same hashes, the same signatures, the same errors.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "@effect/vitest"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as Document from "@sigil/core/Document"
import * as DocumentHasher from "@sigil/core/DocumentHasher"
import * as Issuance from "@sigil/core/Issuance"
import * as Primitives from "@sigil/core/Primitives"
import * as ProofValueEncoder from "@sigil/core/ProofValueEncoder"
import { Effect, Either, FastCheck as fc, Layer } from "effect"
import { randomBytes } from "node:crypto"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import * as SigningPool from "../src/SigningPool.js"

const settings: Issuance.IssuerSettings = {
  tenantId: "tnt_01JPOOLTEST000000000000000",
  issuer: { did: "did:web:sigil.example:tenants:01jpooltest000000000000000", name: "Pool University", url: "https://pool.example" },
  recipientNameMode: "hashed",
  eddsaMethod: "did:web:sigil.example:tenants:01jpooltest000000000000000#key-ed25519-1",
  merkleMethod: "did:web:sigil.example:tenants:01jpooltest000000000000000#key-1"
}

const content = (i: number): Document.Content => ({
  recipient: { id: `urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, name: `Graduate ${i} — Zoë "Q" \\ \n` },
  achievement: {
    name: i % 7 === 0 ? "Badge of Honour" : "Bachelor of Science",
    description: "Awarded for completing the programme.",
    alignment: i % 3 === 0 ? [] : [{ targetFramework: "ESCO", targetCode: `S${i}`, targetName: "manage data" }]
  },
  issuanceDate: "2025-06-30T00:00:00Z",
  ...(i % 5 === 0 ? { expirationDate: "2030-01-01T00:00:00Z" } : {}),
  evidence: i % 2 === 0 ? [{ narrative: `Evidence ${i}` }] : []
})

// A deterministic source of ids and salts, so two runs build the same documents.
const counter = () => {
  let n = 0
  return {
    uuid: () => `urn:uuid:11111111-2222-4333-8444-${String(n++).padStart(12, "0")}`,
    salt: () => String(n++).padStart(32, "0")
  }
}

const pool = SigningPool.layer({ threads: 2, minBatch: 8 }).pipe(Layer.provideMerge(Canonicalizer.layerFast))

describe("SigningPool", () => {
  it.effect("hashes like the calling thread: Sigil's documents and foreign ones alike", () =>
    Effect.gen(function*() {
      const documents = Array.from({ length: 120 }, (_, i) =>
        Document.build(content(i), settings.issuer, { tenantId: settings.tenantId, recipientNameMode: i % 2 === 0 ? "hashed" : "plain" }, counter()))
      // Off the fast path: a key Sigil never writes (jsonld.js answers in the worker).
      const mixed = documents.map((d, i) => (i % 10 === 0 ? { ...d, description: "foreign" } : d))
      const hasher = yield* DocumentHasher.DocumentHasher
      const pooled = yield* hasher.hashAll(mixed)
      const local = yield* DocumentHasher.sequential({ canonicalize: Canonicalizer.jsonldCanonicalize }).hashAll(mixed)
      assert.deepStrictEqual(pooled.map((h) => Buffer.from(h).toString("hex")), local.map((h) => Buffer.from(h).toString("hex")))
    }).pipe(Effect.provide(pool)))

  it.effect("fails a batch with the calling thread's CanonicalizationError", () =>
    Effect.gen(function*() {
      const documents = Array.from({ length: 40 }, (_, i) =>
        Document.build(content(i), settings.issuer, { tenantId: settings.tenantId, recipientNameMode: "plain" }, counter()))
      const broken = documents.map((d, i) => (i === 33 ? { ...d, nickname: "undefined term" } : d))
      const hasher = yield* DocumentHasher.DocumentHasher
      const error = yield* Effect.flip(hasher.hashAll(broken))
      assert.strictEqual(error._tag, "CanonicalizationError")
      assert.deepStrictEqual(error.undefinedTerms, ["nickname"])
    }).pipe(Effect.provide(pool)))

  it.effect("signBatch with the pool signs exactly what it signs without it", () =>
    Effect.gen(function*() {
      const secret = ed25519.utils.randomSecretKey()
      const run = () => Issuance.signBatch({
        credentials: Array.from({ length: 64 }, (_, i) => content(i)),
        settings,
        signedAt: new Date("2025-06-30T10:00:00Z"),
        statusEntries: Array.from({ length: 64 }, (_, i) => i % 4 === 0 ? undefined : { statusListCredential: "https://sigil.example/status/1", statusListIndex: i }),
        sign: (m) => Effect.sync(() => Issuance.signEd25519(secret, m)),
        randomness: counter()
      })
      const pooled = yield* run().pipe(Effect.provide(pool))
      const plain = yield* run().pipe(Effect.provide(Canonicalizer.layerJsonld))
      assert.strictEqual(pooled.merkleRoot, plain.merkleRoot)
      assert.deepStrictEqual(pooled.documents, plain.documents)
    }))

  it.effect("completeWith encodes through the pool exactly what complete encodes in the calling thread", () =>
    Effect.gen(function*() {
      const secret = ed25519.utils.randomSecretKey()
      const batch = yield* Issuance.signBatch({
        credentials: Array.from({ length: 150 }, (_, i) => content(i)),
        settings,
        signedAt: new Date("2025-06-30T10:00:00Z"),
        sign: (m) => Effect.sync(() => Issuance.signEd25519(secret, m)),
        randomness: counter()
      })
      const anchor = { chainId: 84532, txHash: `0x${"cd".repeat(32)}`, created: new Date("2025-06-30T10:00:30Z") }
      const ids = () => {
        let n = 0
        return () => `urn:uuid:99999999-0000-4000-8000-${String(n++).padStart(12, "0")}`
      }
      const pooled = yield* Issuance.merkleProofsWith({ targetHashes: batch.targetHashes, anchor, verificationMethod: settings.merkleMethod, proofId: ids() })
      const inThread = Issuance.merkleProofs({ targetHashes: batch.targetHashes, anchor, verificationMethod: settings.merkleMethod, proofId: ids() })
      assert.deepStrictEqual(pooled, inThread)
      const encoder = yield* ProofValueEncoder.ProofValueEncoder
      assert.notStrictEqual(encoder, ProofValueEncoder.inThread)
    }).pipe(Effect.provide(pool)))

  it("node:crypto primitives give @noble's bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), fc.uint8Array({ maxLength: 300 }), (text, bytes) => {
        const surrogate = `${text}\uD800${text}`
        assert.deepStrictEqual(NodePrimitives.primitives.sha256Utf8(surrogate), Primitives.noble.sha256Utf8(surrogate))
        assert.deepStrictEqual(NodePrimitives.primitives.sha256(bytes), Primitives.noble.sha256(bytes))
      }),
      { numRuns: 300 }
    )
    for (let i = 0; i < 50; i++) {
      const secret = ed25519.utils.randomSecretKey()
      const message = new Uint8Array(randomBytes(i * 3))
      const signature = NodePrimitives.primitives.ed25519Sign(secret, message)
      assert.deepStrictEqual(signature, Primitives.noble.ed25519Sign(secret, message))
      const publicKey = ed25519.getPublicKey(secret)
      assert.isTrue(NodePrimitives.primitives.ed25519Verify(signature, message, publicKey))
      const tampered = signature.slice()
      tampered[i % 64]! ^= 1
      assert.isFalse(NodePrimitives.primitives.ed25519Verify(tampered, message, publicKey))
      assert.isFalse(NodePrimitives.primitives.ed25519Verify(signature, message, new Uint8Array(31)))
    }
    // A zeroed seed (a vault wipes its copy after use) is a different key, not a cached one.
    const secret = ed25519.utils.randomSecretKey()
    const message = new Uint8Array([1, 2, 3])
    const before = NodePrimitives.primitives.ed25519Sign(secret, message)
    secret.fill(0)
    assert.notDeepEqual(NodePrimitives.primitives.ed25519Sign(secret, message), before)
    assert.deepStrictEqual(NodePrimitives.primitives.ed25519Sign(secret, message), Primitives.noble.ed25519Sign(secret, message))
  })

  it.effect("a canonicalization that fails in the calling thread fails the same way", () =>
    Effect.gen(function*() {
      const result = yield* Effect.either(DocumentHasher.sequential({ canonicalize: Canonicalizer.fastCanonicalize }).hashAll([{ "@context": "https://example.com/nope" }]))
      assert.isTrue(Either.isLeft(result))
    }))
})
