/**
 * The fast canonicalizer is jsonld.js, byte for byte, on Sigil's documents (issue #8):
 *
 * - property tests compare its N-Quads with jsonld.js 9's for random valid inputs — unicode,
 *   characters N-Quads must escape, every optional field present and absent, empty and long
 *   arrays, both recipient modes, erased names, status entries, expiring or not — 10,000 runs
 *   in CI (`CI=true`), 2,000 locally (`FAST_CANON_RUNS` overrides);
 * - documents beyond what the API accepts (odd IRIs, hand-edited shapes) either match or are
 *   left to jsonld.js, and `layerFast` then gives jsonld.js's answer, errors included;
 * - foreign documents (the third-party vectors) always go to jsonld.js;
 * - credentials issued through the fast path verify with cert-verifier-js and
 *   @digitalbazaar/vc.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import { readdirSync, statSync } from "node:fs"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as Contexts from "../src/Contexts.js"
import * as Document from "../src/Document.js"
import * as Eddsa from "../src/EddsaRdfc2022.js"
import * as FastCanonicalizer from "../src/FastCanonicalizer.js"
import * as Issuance from "../src/Issuance.js"
import * as TenantDid from "@sigil/core/TenantDid"
import {
  anyIri,
  credentialInputWith,
  issuer as issuerArbitrary,
  recipientNameMode,
  seededRandomness,
  text,
  uri
} from "./helpers/arbitraries.js"
import { makeTenant, makeWorld } from "../testkit/offlineTenant.js"
import { runCertVerifierJs } from "../testkit/certVerifierJs.js"
import { verifyWithDigitalBazaar } from "../testkit/digitalbazaarVc.js"
import { readFixture } from "../testkit/fixtures.js"

const RUNS = Number(process.env.FAST_CANON_RUNS ?? (process.env.CI === "true" ? 10_000 : 2_000))
const SIDE_RUNS = Math.max(200, Math.floor(RUNS / 10))
const tenantId = "tnt_01JFASTCANON0000000000000"
const did = "did:web:sigil.example:tenants:01jfastcanon0000000000000"

/** jsonld.js's answer: the N-Quads, or the error. */
const reference = (document: object) => Effect.runPromise(Effect.either(Canonicalizer.jsonldCanonicalize(document)))
const viaLayer = (document: object) =>
  Effect.runPromise(Effect.either(Effect.flatMap(Canonicalizer.Canonicalizer, (c) => c.canonicalize(document)).pipe(
    Effect.provide(Canonicalizer.layerFast)
  )))

/** Fast and jsonld.js agree: same N-Quads, or fast steps aside and the layer says what jsonld.js says. */
const agree = async (document: object): Promise<"fast" | "fallback"> => {
  const expected = await reference(document)
  const fast = FastCanonicalizer.canonicalize(document)
  if (fast !== undefined) {
    // A document the fast path takes is one jsonld.js canonicalizes without error (the
    // undefined-term check aside, which the layer repeats).
    if (Either.isLeft(expected)) {
      assert.include(expected.left.message, "Undefined JSON-LD terms", JSON.stringify(document))
    } else {
      assert.strictEqual(fast, expected.right, JSON.stringify(document))
    }
  }
  const layered = await viaLayer(document)
  if (Either.isRight(expected)) {
    assert.isTrue(Either.isRight(layered), JSON.stringify(document))
    assert.strictEqual(Either.getOrThrow(layered), expected.right)
  } else {
    assert.isTrue(Either.isLeft(layered), JSON.stringify(document))
    if (Either.isLeft(layered)) {
      assert.deepStrictEqual(layered.left.undefinedTerms, expected.left.undefinedTerms)
      if (fast === undefined) assert.strictEqual(layered.left.message, expected.left.message)
    }
  }
  return fast === undefined ? "fallback" : "fast"
}

const statusEntry = fc.option(
  fc.record({ statusListCredential: uri, statusListIndex: fc.integer({ min: 0, max: 131_071 }) }),
  { nil: undefined }
)

describe("FastCanonicalizer", () => {
  it("compiles every node of Sigil's documents from the bundled contexts", () => {
    assert.deepStrictEqual(FastCanonicalizer.problems(), [])
  })

  // RUNS inputs in PARTS tests, each yielding to the event loop now and then: one property of
  // 10,000 jsonld.js runs would hold vitest's worker for a minute without a break.
  const PARTS = 5
  for (let part = 1; part <= PARTS; part++) {
    const runs = Math.ceil(RUNS / PARTS)
    it(`matches jsonld.js byte for byte on random valid credentials (part ${part} of ${PARTS}: ${runs} of ${RUNS})`, async () => {
      let fast = 0
      await fc.assert(
        fc.asyncProperty(
          credentialInputWith({ maxAlignments: 12, maxEvidence: 12 }),
          issuerArbitrary,
          recipientNameMode,
          statusEntry,
          fc.boolean(),
          fc.integer(),
          async (raw, who, mode, status, erased, seed) => {
            if (fast % 100 === 99) await new Promise((resolve) => setImmediate(resolve))
            const input: Document.Content = raw
            const content: Document.Content = erased
              ? { ...input, recipient: { id: input.recipient.id } }
              : input
            const document = Document.build(content, { did, ...who }, { tenantId, recipientNameMode: mode, status }, seededRandomness(seed))
            if ((await agree(document)) === "fast") fast++
          }
        ),
        { numRuns: runs }
      )
      // Every valid input is on the fast path (repeated ids and identical alignments included).
      assert.strictEqual(fast, runs)
    }, 600_000)
  }

  it(`matches jsonld.js on the eddsa proof configurations (${SIDE_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        anyIri,
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom("assertionMethod", "authentication", "capabilityInvocation", "keyAgreement", "nonsense"),
        async (withStatus, method, created, purpose) => {
          const config = Eddsa.proofConfig(Document.contextFor(withStatus), {
            verificationMethod: method,
            created: new Date(created).toISOString().replace(/\.\d{3}Z$/, "Z"),
            proofPurpose: purpose
          })
          const path = await agree(config)
          if (purpose !== "nonsense" && /^[a-z]+:\/\/[a-z0-9.]+\/?[A-Za-z0-9/#-]*$/.test(method)) assert.strictEqual(path, "fast")
        }
      ),
      { numRuns: SIDE_RUNS }
    )
  }, 600_000)

  it(`matches jsonld.js or steps aside on documents beyond the API's inputs (${SIDE_RUNS} runs)`, async () => {
    const content = fc.record({
      recipient: fc.record({ id: anyIri, name: fc.option(text(40), { nil: undefined }), salt: fc.option(text(20), { nil: undefined }) }),
      achievement: fc.record({
        id: fc.option(anyIri, { nil: undefined }),
        name: fc.string({ unit: "binary", maxLength: 30 }),
        description: fc.string({ unit: "grapheme", maxLength: 30 }),
        criteria: fc.option(fc.record({ narrative: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) }), { nil: undefined }),
        alignment: fc.option(
          fc.array(
            fc.record({
              targetFramework: fc.string({ maxLength: 8 }),
              targetCode: fc.string({ maxLength: 8 }),
              targetName: fc.string({ maxLength: 8 }),
              targetUrl: fc.option(anyIri, { nil: undefined })
            }),
            { maxLength: 5 }
          ),
          { nil: undefined }
        )
      }),
      issuanceDate: fc.string({ maxLength: 25 }),
      expirationDate: fc.option(fc.string({ maxLength: 25 }), { nil: undefined }),
      evidence: fc.option(
        fc.array(fc.record({ id: fc.option(anyIri, { nil: undefined }), narrative: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) }), { maxLength: 4 }),
        { nil: undefined }
      )
    })
    const issuer = fc.record({
      did: anyIri,
      name: fc.string({ unit: "binary", maxLength: 20 }),
      url: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
      image: fc.option(anyIri, { nil: undefined })
    })
    const status = fc.option(fc.record({ statusListCredential: anyIri, statusListIndex: fc.nat() }), { nil: undefined })
    await fc.assert(
      fc.asyncProperty(content, issuer, recipientNameMode, status, fc.integer(), async (c, who, mode, s, seed) => {
        await agree(Document.build(c, who, { tenantId, recipientNameMode: mode, status: s }, seededRandomness(seed)))
      }),
      { numRuns: SIDE_RUNS }
    )
  }, 600_000)

  describe("hand-edited documents", () => {
    const base = Document.build(
      {
        recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name: "Ada" },
        achievement: {
          name: "Badge",
          description: "Earned it",
          alignment: [{ targetFramework: "O*NET", targetCode: "15-1252.00", targetName: "Software Developers" }]
        },
        issuanceDate: "2025-01-01T00:00:00Z",
        evidence: [{ narrative: "A thesis" }]
      },
      { did, name: "Université", url: "https://univ.example", image: "https://univ.example/logo.png" },
      { tenantId, recipientNameMode: "hashed", status: { statusListCredential: "https://sigil.example/status/1", statusListIndex: 7 } },
      seededRandomness(42)
    )
    const subject = base.credentialSubject as Document.JsonObject
    const achievement = subject.achievement as Document.JsonObject

    it("takes Sigil's documents, in either form of `type`, empty arrays, repeated ids and alignments", async () => {
      const alignment = (achievement.alignment as ReadonlyArray<Document.JsonObject>)[0]!
      assert.strictEqual(await agree(base), "fast")
      // The same node twice is one node (jsonld.js merges it).
      assert.strictEqual(await agree({ ...base, issuer: { ...(base.issuer as Document.JsonObject), id: subject.id! } }), "fast")
      assert.strictEqual(
        await agree({ ...base, evidence: [{ id: "urn:x:1", type: ["Evidence"], narrative: "a" }, { id: "urn:x:1", type: ["Evidence"], narrative: "a" }, { id: "urn:x:1", type: ["Evidence"] }] }),
        "fast"
      )
      // Identical alignments share a first-degree hash; nothing else touches them, so they are interchangeable.
      assert.strictEqual(
        await agree({ ...base, credentialSubject: { ...subject, achievement: { ...achievement, alignment: [alignment, alignment, alignment] } } }),
        "fast"
      )
      assert.strictEqual(await agree({ ...base, type: ["OpenBadgeCredential", "VerifiableCredential"] }), "fast")
      assert.strictEqual(await agree({ ...base, issuer: { ...(base.issuer as Document.JsonObject), type: "Profile" } }), "fast")
      assert.strictEqual(await agree({ ...base, evidence: [] }), "fast")
      assert.strictEqual(
        await agree({ ...base, credentialSubject: { ...subject, achievement: { ...achievement, alignment: [] } } }),
        "fast"
      )
    })

    it("steps aside for anything else, and the layer answers as jsonld.js", async () => {
      const foreign: ReadonlyArray<Document.JsonObject> = [
        { ...base, description: "a key Sigil never writes" },
        { ...base, "@context": [...(base["@context"] as ReadonlyArray<string>), Contexts.BLOCKCERTS_V3] },
        { ...base, "@context": [Contexts.VC_V2, Contexts.OB_V3] }, // a status entry without its context
        { ...base, type: ["VerifiableCredential"] },
        { ...base, type: ["VerifiableCredential", "OpenBadgeCredential", "OpenBadgeCredential"] },
        { ...base, id: "relative/id" },
        { ...base, id: "_:b0" },
        { ...base, id: "name:colliding-scheme" },
        { ...base, name: 42 },
        { ...base, name: ["Badge", "Badge"] },
        { ...base, validFrom: { "@value": "2025-01-01T00:00:00Z" } },
        { ...base, issuer: did },
        { ...base, evidence: { id: "urn:x:1", type: ["Evidence"] } },
        { ...base, proof: [] },
        { ...base, credentialSubject: { ...subject, achievement: { ...achievement, criteria: { id: "urn:x:c", narrative: "n" } } } },
        // An undefined term, and a literal that looks like one: errors, as jsonld.js says.
        { ...base, credentialSubject: { ...subject, nickname: "Ada" } },
        { ...base, name: "<http://fallback.org/sneaky>" }
      ]
      for (const document of foreign.slice(0, -1)) {
        assert.strictEqual(await agree(document), "fallback", JSON.stringify(document))
      }
      // The look-alike literal is Sigil's shape: fast, and refused by the same check.
      assert.strictEqual(await agree(foreign.at(-1)!), "fast")
      const refused = await viaLayer(foreign.at(-1)!)
      assert.isTrue(Either.isLeft(refused))
    })

    it("escapes literals and IRIs as rdf-canonize does", async () => {
      const odd = {
        ...base,
        name: "\"q\" \\ \n \r \t \b \f \u0000 \u0007 \u001f \u007f \u0080 \u2028 🎓 \uD800",
        issuer: { ...(base.issuer as Document.JsonObject), id: "urn:x:a\"b{c}|d^e`f\u0001\u007f" }
      }
      assert.strictEqual(await agree(odd), "fast")
    })
  })

  it("leaves every third-party vector to jsonld.js, which then answers", async () => {
    const root = new URL("./fixtures/vectors/", import.meta.url)
    const files: Array<string> = []
    const walk = (dir: URL, prefix: string) => {
      for (const name of readdirSync(dir)) {
        const url = new URL(name, dir)
        if (statSync(url).isDirectory()) walk(new URL(`${name}/`, dir), `${prefix}${name}/`)
        else if (name.endsWith(".json") && !name.startsWith("expected") && !/routes|chain|SOURCES/.test(name)) files.push(`${prefix}${name}`)
      }
    }
    walk(root, "")
    const fast: Array<string> = []
    let credentials = 0
    for (const file of files) {
      const document = readFixture<Record<string, unknown>>(`vectors/${file}`)
      if (typeof document !== "object" || document === null || !("@context" in document)) continue
      const { proof: _proof, ...unsecured } = document
      credentials++
      if ((await agree(unsecured)) === "fast") fast.push(file)
    }
    // The minimal OB 3.0 credential of the spec (and 1EdTech's two signed copies of it) has
    // exactly Sigil's shape — the same contexts, keys and types: the fast path takes those,
    // and `agree` checked them byte for byte. Every other vector goes to jsonld.js.
    assert.deepStrictEqual(fast, [
      "ob3/1edtech-validator_simple-multiple-proofs.json",
      "ob3/1edtech-validator_simple.eddsa-rdfc-2022.json",
      "ob3/ob3-spec_basic-openbadgecredential.unsigned.json"
    ])
    assert.isAbove(credentials - fast.length, 10)
  }, 120_000)

  it("credentials issued through the fast path verify with cert-verifier-js and @digitalbazaar/vc", async () => {
    const samples = fc.sample(fc.tuple(credentialInputWith({ maxAlignments: 6, maxEvidence: 6 }), fc.boolean()), { numRuns: 12, seed: 8 })
    for (const mode of ["hashed", "plain"] as const) {
      const tenant = makeTenant({ keysCreatedAt: new Date("2025-06-01T00:00:00Z"), recipientNameMode: mode })
      const world = makeWorld([tenant])
      const anchoredAt = new Date("2025-06-30T10:00:30Z")
      const contents = await Promise.all(samples.map(async ([raw, erased]) => {
        const input: Document.Content = raw
        // Valid today for the verifiers: issued in 2025, expiring (when it does) in 2099.
        const dated: Document.Content = {
          ...input,
          issuanceDate: "2025-01-01T00:00:00Z",
          expirationDate: input.expirationDate == null ? undefined : "2099-12-31T00:00:00Z"
        }
        return erased ? { ...dated, recipient: { id: input.recipient.id } } : dated
      }))
      const { batch, credentials, txHash } = await Effect.runPromise(Effect.gen(function*() {
        const batch = yield* Issuance.signBatch({
          credentials: contents,
          settings: tenant.settings,
          signedAt: new Date("2025-06-30T10:00:00Z"),
          sign: (m) => Effect.sync(() => Issuance.signEd25519(tenant.ed25519Secret, m))
        })
        const anchor = world.anchor(batch.merkleRoot, tenant.address, anchoredAt, 84532)
        return { batch, credentials: Issuance.complete(batch, tenant.settings, anchor), txHash: anchor.txHash }
      }).pipe(Effect.provide(world.layer)))
      const didDocument = TenantDid.didDocument({ urls: tenant.urls, keys: tenant.keys })
      const profile = TenantDid.issuerProfile({ urls: tenant.urls, name: tenant.settings.issuer.name, keys: tenant.keys })
      for (const credential of credentials) {
        const { proof: _proof, ...unsecured } = credential
        assert.isDefined(FastCanonicalizer.canonicalize(unsecured), "issued on the fast path")
        const cvjs = await runCertVerifierJs(credential, {
          baseShim: true,
          didDocuments: { [tenant.urls.did]: didDocument },
          routes: { [tenant.urls.profile]: profile },
          transactions: {
            [txHash]: { remoteHash: batch.merkleRoot.slice(2), issuingAddress: tenant.address, time: anchoredAt.toISOString() }
          }
        })
        assert.strictEqual(cvjs.status, "success", `${cvjs.message}\n${JSON.stringify(credential)}`)
        const db = await verifyWithDigitalBazaar(credential, { documents: { [tenant.urls.did]: didDocument } })
        assert.isTrue(db.verified, JSON.stringify(db.errors))
      }
    }
  }, 300_000)
})
