import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Document from "../src/Document.js"
import type { JsonObject } from "../src/Document.js"
import * as Issuance from "../src/Issuance.js"
import * as Verifier from "../src/Verifier.js"
import { makeTenant, makeWorld, sampleContent } from "../testkit/offlineTenant.js"

const keysCreatedAt = new Date("2025-06-01T00:00:00Z")
const signedAt = new Date("2025-06-30T10:00:00Z")
const anchoredAt = new Date("2025-06-30T10:00:30Z")
const now = new Date("2026-01-01T00:00:00Z")

const verify = (document: unknown) => Verifier.verifyCredential(document, { now })
const subject = (document: JsonObject) => document.credentialSubject as JsonObject

describe("Issuance", () => {
  const tenant = makeTenant({ keysCreatedAt })
  const world = makeWorld([tenant])
  const issue = (credentials: ReadonlyArray<Document.Content>, t = tenant) =>
    Issuance.issueOffline({ credentials, settings: t.settings, ed25519SecretKey: t.ed25519Secret, signedAt })

  it.effect("a batch issued offline and anchored verifies credential by credential", () =>
    Effect.gen(function*() {
      const batch = yield* issue(Array.from({ length: 7 }, (_, i) => sampleContent(i)))
      assert.strictEqual(batch.documents.length, 7)
      assert.match(batch.merkleRoot, /^0x[0-9a-f]{64}$/)

      // Signed, not anchored yet: a valid VC 2.0 credential that says so.
      const early = yield* verify(batch.documents[0])
      assert.strictEqual(early.outcome, "not_anchored", JSON.stringify(early.steps))
      assert.strictEqual(early.steps.find((s) => s.name === "eddsaProof")?.status, "passed")

      const anchored = batch.complete(world.anchor(batch.merkleRoot, tenant.address, anchoredAt))
      for (const document of anchored) {
        const proofs = Document.proofsOf(document)
        assert.strictEqual(proofs[0]!.cryptosuite, "merkle-proof-2019", "the Merkle proof comes first")
        assert.strictEqual(proofs[1]!.cryptosuite, "eddsa-rdfc-2022")
        const result = yield* verify(document)
        assert.strictEqual(result.outcome, "verified", JSON.stringify(result.steps, null, 1))
        assert.strictEqual(result.anchor?.chainName, "devnet")
        assert.strictEqual(result.anchor?.sender, tenant.address)
      }
      // One transaction, one proof.created for the whole batch.
      assert.deepStrictEqual([...new Set(anchored.map((d) => Document.proofsOf(d)[0]!.created))], ["2025-06-30T10:00:30Z"])
    }).pipe(Effect.provide(world.layer)))

  it.effect("hashed names never appear in the document and verify against the salted hash", () =>
    Effect.gen(function*() {
      const [document] = (yield* issue([sampleContent(1)])).documents
      const text = JSON.stringify(document)
      assert.notInclude(text, "Zoë")
      const [identity] = subject(document!).identifier as ReadonlyArray<JsonObject>
      assert.strictEqual(identity!.identityHash, Document.identityHash("Graduate 1 — Zoë Ångström", identity!.salt as string))
    }).pipe(Effect.provide(world.layer)))

  it.effect("plain names are in clear; changing one breaks both proofs", () =>
    Effect.gen(function*() {
      const plain = makeTenant({ keysCreatedAt, recipientNameMode: "plain" })
      const local = makeWorld([plain])
      const batch = yield* issue([sampleContent(1), sampleContent(2)], plain)
      const [document] = batch.complete(local.anchor(batch.merkleRoot, plain.address, anchoredAt))
      assert.strictEqual(subject(document!).name, "Graduate 1 — Zoë Ångström")
      const tampered = { ...document!, credentialSubject: { ...subject(document!), name: "Mallory" } }
      const result = yield* verify(tampered).pipe(Effect.provide(local.layer))
      assert.strictEqual(result.outcome, "failed")
      assert.strictEqual(result.failedStep, "documentHash")
      const signedOnly = { ...batch.documents[0]!, credentialSubject: { ...subject(batch.documents[0]!), name: "Mallory" } }
      assert.strictEqual((yield* verify(signedOnly).pipe(Effect.provide(local.layer))).failedStep, "eddsaProof")
    }).pipe(Effect.provide(world.layer)))

  it.effect("a root anchored from another address fails the issuer-key step", () =>
    Effect.gen(function*() {
      const batch = yield* issue([sampleContent(1)])
      const [document] = batch.complete(world.anchor(batch.merkleRoot, "0x000000000000000000000000000000000000dead", anchoredAt))
      const result = yield* verify(document)
      assert.strictEqual(result.failedStep, "issuerKey")
    }).pipe(Effect.provide(world.layer)))

  it.effect("a block in the same second the key was created fails (Blockcerts compares whole seconds)", () =>
    Effect.gen(function*() {
      const batch = yield* issue([sampleContent(1)])
      const sameSecond = new Date(keysCreatedAt.getTime() + 900)
      const [document] = batch.complete(world.anchor(batch.merkleRoot, tenant.address, sameSecond))
      const result = yield* verify(document)
      assert.strictEqual(result.failedStep, "issuerKey")
      assert.include(result.message, "created after")
    }).pipe(Effect.provide(world.layer)))

  it.effect("revocation in the tenant's StatusList2021 is reported; other slots stay valid", () =>
    Effect.gen(function*() {
      const url = `${tenant.urls.base}/status/1`
      const batch = yield* Issuance.signBatch({
        credentials: [sampleContent(1), sampleContent(2)],
        settings: tenant.settings,
        signedAt,
        statusEntries: [{ statusListCredential: url, statusListIndex: 4242 }, { statusListCredential: url, statusListIndex: 17 }],
        sign: (m) => Effect.sync(() => Issuance.signEd25519(tenant.ed25519Secret, m))
      })
      const anchored = Issuance.complete(batch, tenant.settings, world.anchor(batch.merkleRoot, tenant.address, anchoredAt))
      yield* world.publishStatusList(tenant, url, [4242], anchoredAt)
      const revoked = yield* verify(anchored[0])
      assert.strictEqual(revoked.outcome, "revoked", JSON.stringify(revoked.steps, null, 1))
      assert.strictEqual((yield* verify(anchored[1])).outcome, "verified")
    }).pipe(Effect.provide(world.layer)))

  it.effect("an expired credential is authentic but expired", () =>
    Effect.gen(function*() {
      const batch = yield* issue([sampleContent(1, { expirationDate: "2025-12-31T00:00:00Z" })])
      const [document] = batch.complete(world.anchor(batch.merkleRoot, tenant.address, anchoredAt))
      assert.strictEqual(document!.validUntil, "2025-12-31T00:00:00Z")
      assert.strictEqual((yield* verify(document)).outcome, "expired")
    }).pipe(Effect.provide(world.layer)))
})
