/**
 * Documents built from random valid inputs are clean JSON-LD (safe-mode expansion passes, no
 * undefined term) and valid Open Badges 3.0 / VC 2.0 credentials by their JSON Schemas.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as Contexts from "../src/Contexts.js"
import * as Document from "../src/Document.js"
import { credentialInput, issuer, recipientNameMode } from "./helpers/arbitraries.js"
import { jsonld } from "../testkit/jsonldLib.js"
import { validateOb3, validateVc2 } from "../testkit/schemas.js"

const runs = process.env.CI === "true" ? 300 : 60
const tenantId = "tnt_01JDOCTEST0000000000000000"
const did = "did:web:sigil.example:tenants:01jdoctest0000000000000000"

// A proof array as the OB schema wants it; its content is not under test here.
const withProofs = (document: Document.JsonObject) => ({
  ...document,
  proof: [{
    type: "DataIntegrityProof",
    cryptosuite: "eddsa-rdfc-2022",
    created: "2025-01-01T00:00:00Z",
    verificationMethod: `${did}#key-ed25519-1`,
    proofPurpose: "assertionMethod",
    proofValue: "z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKM6jPWEUDBt1qNCGKx"
  }]
})

describe("Document", () => {
  it.effect.prop(
    "random valid inputs give clean JSON-LD and valid OB 3.0 / VC 2.0 credentials",
    [credentialInput, issuer, recipientNameMode, fc.option(fc.integer({ min: 0, max: 131_071 }), { nil: undefined })],
    ([raw, who, mode, statusIndex]) =>
      Effect.gen(function*() {
        const input: Document.Content = raw
        const document = yield* Document.make(input, { did, ...who }, {
          tenantId,
          recipientNameMode: mode,
          status: statusIndex === undefined
            ? undefined
            : { statusListCredential: "https://sigil.example/tenants/x/status/1", statusListIndex: statusIndex }
        })
        // Safe mode throws on anything lossy, undefined terms first.
        const expanded = yield* Effect.promise(() =>
          jsonld.expand(document, { safe: true, documentLoader: Contexts.documentLoader })
        )
        assert.strictEqual(expanded.length, 1)
        yield* Canonicalizer.jsonldCanonicalize(document)
        const ob3 = validateOb3(withProofs(document))
        assert.isTrue(ob3.valid, JSON.stringify(ob3.errors))
        const vc2 = validateVc2(withProofs(document))
        assert.isTrue(vc2.valid, JSON.stringify(vc2.errors))
        // Decisions §2: the email never enters the document; the name only in plain mode.
        const text = JSON.stringify(document)
        if (raw.recipient.email !== undefined) assert.notInclude(text, JSON.stringify(raw.recipient.email).slice(1, -1))
        const subject = document.credentialSubject as Document.JsonObject
        assert.strictEqual("name" in subject, mode === "plain")
      }),
    { fastCheck: { numRuns: runs } }
  )

  it("derives one stable achievement id per tenant, name and description", () => {
    const a = Document.achievementId(tenantId, "MSc", "Two years")
    assert.strictEqual(a, Document.achievementId(tenantId, "MSc", "Two years"))
    assert.notStrictEqual(a, Document.achievementId("tnt_01JOTHER00000000000000000", "MSc", "Two years"))
    assert.notStrictEqual(a, Document.achievementId(tenantId, "MSc", "Three years"))
    assert.match(a, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it("fills what the OB schema requires: criteria, alignment targetUrl, evidence ids", () => {
    const document = Document.build({
      recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name: "Ada" },
      achievement: {
        name: "Badge",
        description: "Earned it",
        alignment: [{ targetFramework: "O*NET", targetCode: "15-1252.00", targetName: "Software Developers" }]
      },
      issuanceDate: "2025-01-01T00:00:00Z",
      evidence: [{ narrative: "Portfolio" }]
    }, { did, name: "Uni" }, { tenantId, recipientNameMode: "plain" })
    const achievement = (document.credentialSubject as Document.JsonObject).achievement as Document.JsonObject
    assert.deepStrictEqual(achievement.criteria, { narrative: "Earned it" })
    const [alignment] = achievement.alignment as ReadonlyArray<Document.JsonObject>
    assert.strictEqual(alignment!.targetUrl, "urn:sigil:alignment:O*NET:15-1252.00")
    const [evidence] = document.evidence as ReadonlyArray<Document.JsonObject>
    assert.match(evidence!.id as string, /^urn:uuid:/)
    assert.deepStrictEqual(evidence!.type, ["Evidence"])
    assert.deepStrictEqual(document["@context"], [Contexts.VC_V2, Contexts.OB_V3])
  })
})
