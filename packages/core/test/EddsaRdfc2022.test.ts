import { ed25519 } from "@noble/curves/ed25519.js"
import { assert, describe, it } from "@effect/vitest"
import bs58 from "bs58"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Canonicalizer from "../src/Canonicalizer.js"
import type { JsonObject } from "../src/Document.js"
import * as Document from "../src/Document.js"
import * as Eddsa from "../src/EddsaRdfc2022.js"

const json = (path: string): JsonObject =>
  JSON.parse(readFileSync(new URL(`./fixtures/vectors/${path}`, import.meta.url), "utf8"))

// The public key of a `did:key`-style fragment `z6Mk…` (multicodec 0xed01 + 32 bytes).
const keyFromFragment = (vm: string) => bs58.decode(vm.slice(vm.indexOf("#z") + 2)).slice(2)
const eddsaProof = (doc: JsonObject) => Document.proofsOf(doc).find(Eddsa.isEddsaProof)!

const verify = (doc: JsonObject, proof: JsonObject, publicKey: Uint8Array) =>
  Eddsa.verify(doc, proof, publicKey).pipe(Effect.provide(Canonicalizer.layerJsonld))

describe("EddsaRdfc2022", () => {
  for (const file of ["1edtech-validator_simple.eddsa-rdfc-2022.json", "1edtech-validator_complete.eddsa-rdfc-2022.json"]) {
    it.effect(`verifies the real 1EdTech signature of ${file}, and not a tampered copy`, () =>
      Effect.gen(function*() {
        const doc = json(`ob3/${file}`)
        const proof = eddsaProof(doc)
        const key = keyFromFragment(proof.verificationMethod as string)
        assert.isUndefined(yield* verify(doc, proof, key))
        const tampered = { ...doc, name: `${String(doc.name)}!` }
        assert.strictEqual(yield* verify(tampered, proof, key), "the Ed25519 signature does not match the document")
      }))
  }

  it.effect("verifies the eddsa proof of the dual-proof vector, whose Merkle proof comes after it", () =>
    Effect.gen(function*() {
      const doc = json("ob3-blockcerts-generated/recommended.eddsa-rdfc-2022+merkle-proof-2019.mocknet.json")
      const key = ed25519.getPublicKey(new Uint8Array(32).fill(7))
      assert.isUndefined(yield* verify(doc, eddsaProof(doc), key))
    }))

  it.effect("signs so that verification passes, and fails for another key or a changed proof option", () =>
    Effect.gen(function*() {
      const unsigned = Document.withoutProof(json("ob3-blockcerts-generated/recommended.unsigned.json"))
      const canonicalizer = yield* Canonicalizer.Canonicalizer
      const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsigned))
      const secretKey = ed25519.utils.randomSecretKey()
      const options = { verificationMethod: "did:web:example.org:tenants:abc#key-ed25519-1", created: "2025-01-15T00:00:01Z" }
      const proof = yield* Eddsa.sign({
        context: unsigned["@context"],
        documentHash,
        options,
        optionsHash: yield* Eddsa.optionsHash(unsigned["@context"], options),
        sign: (message) => Effect.succeed(ed25519.sign(message, secretKey))
      })
      const signed = { ...unsigned, proof: [proof] }
      assert.isUndefined(yield* Eddsa.verify(signed, proof, ed25519.getPublicKey(secretKey)))
      assert.isDefined(yield* Eddsa.verify(signed, proof, ed25519.getPublicKey(ed25519.utils.randomSecretKey())))
      assert.isDefined(yield* Eddsa.verify(signed, { ...proof, created: "2025-01-15T00:00:02Z" }, ed25519.getPublicKey(secretKey)))
      assert.strictEqual(
        yield* Eddsa.verify(signed, { ...proof, proofValue: "not-multibase" }, ed25519.getPublicKey(secretKey)),
        "proofValue is not base58btc multibase"
      )
    }).pipe(Effect.provide(Canonicalizer.layerJsonld)))
})
