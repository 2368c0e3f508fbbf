import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as Contexts from "../src/Contexts.js"

const fixture = (path: string) => new URL(`./fixtures/vectors/${path}`, import.meta.url)
const json = (path: string) => JSON.parse(readFileSync(fixture(path), "utf8"))
const text = (path: string) => readFileSync(fixture(path), "utf8")
const withoutProof = ({ proof: _proof, ...rest }: Record<string, unknown>) => rest

const canonicalize = (doc: object) =>
  Effect.flatMap(Canonicalizer.Canonicalizer, (c) => c.canonicalize(doc)).pipe(Effect.provide(Canonicalizer.layerJsonld))

describe("Canonicalizer", () => {
  it.effect("reproduces the RDFC-1.0 N-Quads of the recommended OB 3.0 credential byte for byte", () =>
    Effect.gen(function*() {
      const nquads = yield* canonicalize(json("ob3-blockcerts-generated/recommended.unsigned.json"))
      assert.strictEqual(nquads, text("ob3-blockcerts-generated/recommended.unsigned.rdfc-1.0.nq"))
      assert.strictEqual(
        Canonicalizer.hashHex(nquads),
        "143531b457d60be1c2ba924f4f2ea67a9a85319793ae3d652529165dde53c996"
      )
    }))

  it.effect("reproduces cert-issuer's N-Quads and targetHash of the real Sepolia credential", () =>
    Effect.gen(function*() {
      const nquads = yield* canonicalize(withoutProof(json("blockcerts/credentials/ethereum-sepolia-v3.json")))
      assert.strictEqual(nquads, text("blockcerts/codec/ethereum-sepolia-v3.nquads"))
      assert.strictEqual(
        Canonicalizer.hashHex(nquads),
        "b2c64ed78cccda992431c265a1d0bb657e8cefd14b1ef15ceadcc697c566994f"
      )
    }))

  it.effect("refuses a term no context defines, naming it (issuanceDate under VC 2.0)", () =>
    Effect.gen(function*() {
      const doc = { ...json("ob3-blockcerts-generated/recommended.unsigned.json"), issuanceDate: "2025-01-01T00:00:00Z" }
      const error = yield* Effect.flip(canonicalize(doc))
      assert.strictEqual(error._tag, "CanonicalizationError")
      assert.deepStrictEqual(error.undefinedTerms, ["issuanceDate"])
    }))

  it.effect("never fetches: a context that is not bundled is an error", () =>
    Effect.gen(function*() {
      const doc = { ...json("ob3-blockcerts-generated/recommended.unsigned.json") }
      doc["@context"] = [...doc["@context"], "https://example.com/some/context.jsonld"]
      const error = yield* Effect.flip(canonicalize(doc))
      assert.include(error.message, "https://example.com/some/context.jsonld")
    }))

  it.effect("refuses __proto__ as an identifier, type or key (jsonld.js would pollute Object.prototype), and stays healthy", () =>
    Effect.gen(function*() {
      const doc = json("ob3-blockcerts-generated/recommended.unsigned.json")
      const hostile = [
        { ...doc, issuer: { ...doc.issuer, id: "__proto__" } },
        { ...doc, credentialSubject: { ...doc.credentialSubject, type: ["AchievementSubject", "__proto__"] } },
        { ...doc, evidence: [{ ...doc.evidence[0], "@id": "constructor" }] },
        JSON.parse(`{"@context": ${JSON.stringify(doc["@context"])}, "__proto__": {"id": "x"}}`)
      ]
      for (const document of hostile) {
        const error = yield* Effect.flip(canonicalize(document))
        assert.include(error.message, "Object.prototype")
      }
      assert.deepStrictEqual(Object.keys(Object.prototype), [])
      const nquads = yield* canonicalize(doc)
      assert.strictEqual(Canonicalizer.hashHex(nquads), "143531b457d60be1c2ba924f4f2ea67a9a85319793ae3d652529165dde53c996")
    }))

  it("serves every bundled URL and refuses others", async () => {
    for (const url of Contexts.urls) {
      const remote = await Contexts.documentLoader(url)
      assert.isObject(remote.document)
    }
    let refused = false
    await Contexts.documentLoader("https://evil.example/ctx").catch(() => (refused = true))
    assert.isTrue(refused)
  })
})
