/**
 * Proves the offline harness around the third-party verifiers (testkit/) on known vectors,
 * so that Sigil's own credentials can be run through the same calls.
 *
 * Everything here is offline: every HTTP request goes through a fetch stub that answers only known
 * routes and records anything else (asserted empty). The verifiers mutate process-wide state
 * (global fetch, cert-verifier-js's DID resolver URL, its module cache for the Base shim), so every
 * test in this file runs sequentially.
 */
import { assert, describe, it } from "@effect/vitest"
import { SHIM_CHAINS } from "../testkit/baseShim.js"
import {
  blockcertsTargetHash,
  encodeMerkleProofValue,
  merkleTree,
  secp256k1TestKey,
  type DecodedMerkleProof
} from "../testkit/blockcertsIssuer.js"
import { type CvjsResult, type CvjsRunOptions, type CvjsTransaction, runCertVerifierJs } from "../testkit/certVerifierJs.js"
import {
  ed25519TestKey,
  multikeyControllerDocument,
  signEddsaRdfc2022,
  verifyWithDigitalBazaar
} from "../testkit/digitalbazaarVc.js"
import { readFixture } from "../testkit/fixtures.js"
import { validateOb3, validateVc2 } from "../testkit/schemas.js"
import { buildSigilFixture, KEY_CREATED, type SigilFixture } from "../testkit/sigilFixture.js"
import { didWebUrl, OB3_ACHIEVEMENT_SCHEMA_URL, runVerifierCore } from "../testkit/verifierCore.js"

type Json = Record<string, unknown>

const SLOW = { timeout: 120_000 }
const BC = "vectors/blockcerts/"
const GEN = "vectors/ob3-blockcerts-generated/"
const OB3 = "vectors/ob3/"

const asJson = (value: unknown): Json => value as Json
const proofsOf = (credential: Json): Array<Json> => ([] as Array<Json>).concat(credential["proof"] as Json | Array<Json>)

/** A copy of `credential` with `credentialSubject.name` changed (a post-issuance edit). */
const tamperSubjectName = (credential: Json): Json => {
  const copy = structuredClone(credential)
  asJson(copy["credentialSubject"])["name"] = "Mallory"
  return copy
}

/** Explains a failed cvjs expectation with what cvjs did. */
const cvjsTrace = (r: CvjsResult): string =>
  JSON.stringify({ status: r.status, message: r.message, failedStep: r.failedStep, unexpected: r.unexpected, chains: r.chains })

// ---------------------------------------------------------------------------------------------

describe.sequential("cert-verifier-js 6.35.0: the Blockcerts vectors", () => {
  interface Expected {
    readonly status: "success" | "failure"
    readonly step?: string
    readonly message?: string
    readonly note?: string
  }
  interface Replay {
    readonly anchor?: string
    readonly transactionData?: CvjsTransaction | null
    readonly sameAs?: string
  }
  const expectedResults = readFixture<Record<string, Expected | string>>(`${BC}expected-results.json`)
  const httpRoutes = readFixture<{ routes: Record<string, string> }>(`${BC}http-routes.json`)
  const chainReplay = readFixture<{ vectors: Record<string, Replay> }>(`${BC}chain-replay.json`)

  // http-routes.json also lists a `…#tenant-abc` resolver URL: a server never sees a fragment, so
  // the stub answers it from the same route without one. Routes into ../../contexts/ (the research
  // copy) are served from Sigil's own contexts.
  const routes = Object.fromEntries(
    Object.entries(httpRoutes.routes)
      .filter(([url, file]) => !url.includes("#") && !file.startsWith("../../contexts/"))
      .map(([url, file]) => [url, readFixture(`${BC}${file}`)])
  )

  const transactionsFor = (vector: string): Record<string, CvjsTransaction> => {
    let replay = chainReplay.vectors[vector]
    if (replay?.sameAs !== undefined) replay = chainReplay.vectors[replay.sameAs]
    const txId = replay?.anchor?.split(":").pop()
    return txId !== undefined && replay?.transactionData ? { [txId]: replay.transactionData } : {}
  }

  for (const [vector, expected] of Object.entries(expectedResults)) {
    if (typeof expected === "string") continue // _note
    it(`${vector} → ${expected.status}${expected.step ? ` at ${expected.step}` : ""}`, SLOW, async () => {
      const result = await runCertVerifierJs(readFixture(`${BC}${vector}`), { routes, transactions: transactionsFor(vector) })
      assert.strictEqual(result.status, expected.status, cvjsTrace(result))
      assert.strictEqual(result.failedStep, expected.step, cvjsTrace(result))
      if (expected.message !== undefined) assert.strictEqual(result.message, expected.message)
      if (expected.note?.includes("mocknet") === true) assert.match(result.label ?? "", /Mocknet/)
      assert.deepStrictEqual(result.unexpected, [])
    })
  }
})

// ---------------------------------------------------------------------------------------------

describe.sequential("cert-verifier-js 6.35.0: the generated OB 3.0 + Blockcerts vectors", () => {
  interface Outcome {
    readonly status: "success" | "failure"
    readonly message: string
    readonly failedSteps: ReadonlyArray<string>
    readonly fetched: ReadonlyArray<string>
  }
  const expected = readFixture<Record<string, { certVerifierJs?: Outcome; serveAt?: Record<string, string> }>>(`${GEN}expected.json`)
  // Every issuer profile the vectors name, plus the revocation list they point to (the research
  // stub answered it 404, which cvjs ignores; serving the real empty list keeps `unexpected` empty).
  const routes: Record<string, unknown> = {
    "https://www.blockcerts.org/samples/3.0/revocation-list-blockcerts.json": readFixture(`${BC}resources/revocation-list-blockcerts.empty.json`)
  }
  for (const entry of Object.values(expected)) {
    for (const [url, file] of Object.entries(entry.serveAt ?? {})) routes[url] = readFixture(`${GEN}${file}`)
  }

  for (const [vector, entry] of Object.entries(expected)) {
    const outcome = entry.certVerifierJs
    if (outcome === undefined) continue
    it(`${vector} → ${outcome.status}`, SLOW, async () => {
      const result = await runCertVerifierJs(readFixture(`${GEN}${vector}`), { routes })
      assert.strictEqual(result.status, outcome.status, cvjsTrace(result))
      assert.strictEqual(result.message, outcome.message)
      assert.deepStrictEqual(
        result.steps.filter((s) => s.status === "failure").map((s) => `${s.code}: ${s.errorMessage ?? ""}`),
        [...outcome.failedSteps]
      )
      assert.deepStrictEqual([...new Set(result.fetched)].sort(), [...new Set(outcome.fetched)].sort())
      assert.deepStrictEqual(result.unexpected, [])
    })
  }

  it("a revocation list that cannot be fetched is ignored (cvjs is fail-open there)", SLOW, async () => {
    const { ["https://www.blockcerts.org/samples/3.0/revocation-list-blockcerts.json"]: _omitted, ...withoutList } = routes
    const result = await runCertVerifierJs(readFixture(`${GEN}recommended.merkle-proof-2019.mocknet.json`), { routes: withoutList })
    assert.strictEqual(result.status, "success", cvjsTrace(result))
    assert.deepStrictEqual(result.unexpected, [
      "https://www.blockcerts.org/samples/3.0/revocation-list-blockcerts.json?assertionId=urn%3Auuid%3A2d5a1d0e-6f61-4a8c-9a4f-4f3a8e0f2b10"
    ])
  })
})

// ---------------------------------------------------------------------------------------------

describe.sequential("the test-only Blockcerts issuer reproduces the reference vectors", () => {
  it("targetHash of recommended.unsigned.json (jsonld 9 URDNA2015 + fallback check)", SLOW, async () => {
    const hash = await blockcertsTargetHash(readFixture(`${GEN}recommended.unsigned.json`))
    assert.strictEqual(hash, readFixture<Record<string, Json>>(`${GEN}expected.json`)["recommended.unsigned.json"]!["blockcerts_targetHash"])
  })

  it("refuses undefined terms (issuanceDate under VC 2.0)", SLOW, async () => {
    const doc = { ...readFixture<Json>(`${GEN}recommended.unsigned.json`), issuanceDate: "2025-01-15T00:00:00Z" }
    let error: unknown
    await blockcertsTargetHash(doc).catch((e: unknown) => (error = e))
    assert.match(String(error), /undefined JSON-LD terms.*fallback\.org\/issuanceDate/)
  })

  it("Merkle tree = cert-issuer's golden vector", () => {
    type Vector = { leaves: Array<string>; merkleRoot: string; paths: ReturnType<typeof merkleTree>["paths"] }
    const v = readFixture<{ vectors: Array<Vector> }>(`${BC}codec/merkle-tree-vectors.json`).vectors[0]!
    const tree = merkleTree(v.leaves)
    assert.strictEqual(tree.root, v.merkleRoot)
    assert.deepStrictEqual(tree.paths, v.paths)
  })

  it("proofValue encoder reproduces the cert-issuer (Python layout) vectors byte for byte", () => {
    const vectors = readFixture<{ vectors: Array<{ name: string; proofValue: string; decoded: { path: DecodedMerkleProof["path"]; merkleRoot: string; targetHash: string; anchors: Array<string> } }> }>(`${BC}codec/proofvalue-vectors.json`).vectors
    const networks: Record<string, number> = { mainnet: 1, testnet: 3, sepolia: 11155111 }
    const python = vectors.filter((v) => !v.name.startsWith("js-encoder"))
    assert.isAtLeast(python.length, 2)
    for (const v of python) {
      const anchors = v.decoded.anchors.map((a) => {
        const [, chain, network, txHash] = a.split(":")
        return { chain: chain as "btc" | "eth", network: networks[network!]!, txHash: txHash! }
      })
      assert.strictEqual(encodeMerkleProofValue({ ...v.decoded, anchors }), v.proofValue, v.name)
    }
  })

  it("the synthetic secp256k1 test key has the research's address", () => {
    assert.strictEqual(secp256k1TestKey("bc-research-demo-key-1").address, "0x7f8da4428f6fa5dc419c47e111a800d1c50a1280")
  })
})

// ---------------------------------------------------------------------------------------------

/** The `#key-ed25519-1` entry of a tenant DID document. */
const ed25519MethodOf = (didDocument: Json): Json =>
  (didDocument["verificationMethod"] as Array<Json>).find((vm) => String(vm["id"]).endsWith("#key-ed25519-1"))!

/** cvjs options for a Sigil fixture: its DID document, its Blockcerts profile, its transaction. */
const cvjsOptionsFor = (f: SigilFixture, tx: Partial<CvjsTransaction> = {}, baseShim = true): CvjsRunOptions => ({
  routes: { [f.tenant.profileUrl]: f.tenant.profile },
  didDocuments: { [f.tenant.did]: f.tenant.didDocument },
  transactions: { [f.txHash]: { ...f.transaction, ...tx } },
  baseShim
})

describe.sequential("cert-verifier-js 6.35.0 + the Base shim: Sigil-shaped credentials anchored on Base", () => {
  // Every sub-step that must have run and passed for a Sigil credential (Merkle proof, then eddsa
  // proof, then format / identity / status): nothing is skipped by the shim.
  const REQUIRED_STEPS = [
    "assertProofValidity", "getTransactionId", "computeLocalHash", "fetchRemoteHash", "compareHashes",
    "checkMerkleRoot", "checkReceipt", "parseIssuerKeys", "checkAuthenticity", "checkDocumentSignature",
    "validateDateFormat", "controlVerificationMethod", "checkRevokedStatus", "ensureValidityPeriodStarted",
    "checkExpiresDate", "deriveIssuingAddressFromPublicKey", "ensureVerificationMethodValidity", "compareIssuingAddress"
  ]
  // Built once, on first use (so any single test can run alone).
  let fixture: Promise<SigilFixture> | undefined
  const baseSepoliaFixture = (): Promise<SigilFixture> => (fixture ??= buildSigilFixture({ chainId: 84532 }))

  it("builds a Base Sepolia credential: did:web tenant, proof [merkle-proof-2019 @ eth/84532, eddsa-rdfc-2022]", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const proofs = proofsOf(baseSepolia.credential)
    assert.deepStrictEqual(proofs.map((p) => p["cryptosuite"]), ["merkle-proof-2019", "eddsa-rdfc-2022"])
    assert.strictEqual(baseSepolia.secp256k1.address, "0x7f8da4428f6fa5dc419c47e111a800d1c50a1280")
    assert.strictEqual(asJson(baseSepolia.credential["issuer"])["id"], "did:web:issuer.example.org:tenants:01jhx2a3b4c5d6e7f8g9h0jkmn")
  })

  it("stock cvjs (no shim) cannot verify it: the upstream gap", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(baseSepolia.credential, cvjsOptionsFor(baseSepolia, {}, false))
    // The network 84532 decodes to `blink:eth:undefined:…`, no chain object is found; the address
    // derivation then fails on the missing chain and verify() itself crashes.
    assert.strictEqual(result.status, "error", cvjsTrace(result))
    assert.strictEqual(result.message, "Cannot read properties of null (reading 'transactionLink')")
    assert.strictEqual(result.failedStep, "deriveIssuingAddressFromPublicKey")
    assert.deepStrictEqual(result.unexpected, [])
  })

  it("cvjs + shim + custom explorer verifies it, with every check running", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(baseSepolia.credential, cvjsOptionsFor(baseSepolia))
    assert.strictEqual(result.status, "success", cvjsTrace(result))
    assert.strictEqual(result.message, "All the signatures of this certificate have successfully verified.")
    assert.strictEqual(result.chains[0], "ethbasesepolia")
    const passed = new Set(result.steps.filter((s) => s.status === "success").map((s) => s.code))
    for (const step of REQUIRED_STEPS) assert.isTrue(passed.has(step), `step ${step} did not run and pass`)
    assert.deepStrictEqual(result.explorerLookups, [baseSepolia.txHash])
    assert.deepStrictEqual(result.unexpected, [])
  })

  it("the shim is scoped to its run: stock behaviour is back afterwards", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(baseSepolia.credential, cvjsOptionsFor(baseSepolia, {}, false))
    assert.strictEqual(result.status, "error", cvjsTrace(result))
  })

  for (const chain of SHIM_CHAINS.filter((c) => c.chainId !== 84532)) {
    it(`also verifies an anchor on ${chain.blockchain.name} (eth/${chain.chainId})`, SLOW, async () => {
      const f = await buildSigilFixture({ chainId: chain.chainId })
      const result = await runCertVerifierJs(f.credential, cvjsOptionsFor(f))
      assert.strictEqual(result.status, "success", cvjsTrace(result))
      assert.strictEqual(result.chains[0], chain.blockchain.code)
    })
  }

  it("tampered subject → failure at compareHashes", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(tamperSubjectName(baseSepolia.credential), cvjsOptionsFor(baseSepolia))
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "compareHashes")
    assert.strictEqual(result.message, "Computed hash does not match remote hash")
  })

  it("transaction data ≠ merkle root → failure at checkMerkleRoot", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(baseSepolia.credential, cvjsOptionsFor(baseSepolia, { remoteHash: "00".repeat(32) }))
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "checkMerkleRoot")
  })

  it("transaction sent by an address the issuer profile does not list → failure at checkAuthenticity", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const other = secp256k1TestKey("sigil-harness-other-key")
    const result = await runCertVerifierJs(baseSepolia.credential, cvjsOptionsFor(baseSepolia, { issuingAddress: other.address }))
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "checkAuthenticity")
  })

  it("transaction sent by another key of the same profile, not the proof's key → failure at compareIssuingAddress", SLOW, async () => {
    const other = secp256k1TestKey("sigil-harness-other-key")
    const f = await buildSigilFixture({
      chainId: 84532,
      extraProfileKeys: [{ id: `ecdsa-koblitz-pubkey:${other.address}`, created: KEY_CREATED }]
    })
    const result = await runCertVerifierJs(f.credential, cvjsOptionsFor(f, { issuingAddress: other.address }))
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "compareIssuingAddress")
  })

  it("transaction unknown to the custom explorer → failure at fetchRemoteHash, no fallback explorer queried", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(baseSepolia.credential, { ...cvjsOptionsFor(baseSepolia), transactions: {} })
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "fetchRemoteHash")
    assert.deepStrictEqual(result.unexpected, [])
  })

  it("the Ed25519 key needs its OKP publicKeyJwk: cvjs reads only the JWK (decisions §3)", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const didDocument = structuredClone(baseSepolia.tenant.didDocument)
    delete ed25519MethodOf(didDocument)["publicKeyJwk"]
    const result = await runCertVerifierJs(baseSepolia.credential, {
      ...cvjsOptionsFor(baseSepolia),
      didDocuments: { [baseSepolia.tenant.did]: didDocument }
    })
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "checkDocumentSignature")
    assert.strictEqual(result.message, "Cannot destructure property 'kty' of 'jwk' as it is undefined.")
  })

  it("block time before the key's `created` → failure at checkAuthenticity", SLOW, async () => {
    const baseSepolia = await baseSepoliaFixture()
    const result = await runCertVerifierJs(baseSepolia.credential, cvjsOptionsFor(baseSepolia, { time: "2024-12-31T23:59:59.000Z" }))
    assert.strictEqual(result.status, "failure", cvjsTrace(result))
    assert.strictEqual(result.failedStep, "checkAuthenticity")
  })
})

// ---------------------------------------------------------------------------------------------

/** The controller document for a vector whose eddsa key id is `<https issuer>#<multibase>`. */
const controllerDocsFor = (credential: Json): Record<string, unknown> => {
  const eddsa = proofsOf(credential).find((p) => p["cryptosuite"] === "eddsa-rdfc-2022")!
  const [controller, multibase] = String(eddsa["verificationMethod"]).split("#")
  return { [controller!]: multikeyControllerDocument(controller!, multibase!) }
}

describe.sequential("@digitalbazaar/vc 7.3: eddsa-rdfc-2022", () => {
  // The vectors carry validFrom/validUntil (the 1EdTech "complete" one expires 2030): pin the clock.
  const now = "2025-06-01T00:00:00Z"
  const vectors = [
    `${OB3}1edtech-validator_simple.eddsa-rdfc-2022.json`,
    `${OB3}1edtech-validator_complete.eddsa-rdfc-2022.json`,
    `${GEN}recommended.eddsa-rdfc-2022+merkle-proof-2019.mocknet.json`
  ]
  for (const vector of vectors) {
    it(`verifies ${vector}`, SLOW, async () => {
      const credential = readFixture<Json>(vector)
      const result = await verifyWithDigitalBazaar(credential, { documents: controllerDocsFor(credential), now })
      assert.isTrue(result.verified, result.errors.join("; "))
      assert.deepStrictEqual(result.unexpected, [])
    })
    it(`rejects a tampered copy of ${vector}`, SLOW, async () => {
      const credential = readFixture<Json>(vector)
      const result = await verifyWithDigitalBazaar(tamperSubjectName(credential), { documents: controllerDocsFor(credential), now })
      assert.isFalse(result.verified)
      assert.include(result.errors.join("; "), "Invalid signature")
    })
  }

  it("verifies the Sigil-shaped did:web credential (key resolved from the DID document by fragment)", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532 })
    const result = await verifyWithDigitalBazaar(f.credential, { documents: { [f.tenant.did]: f.tenant.didDocument } })
    assert.isTrue(result.verified, result.errors.join("; "))
    assert.deepStrictEqual(result.unexpected, [])
    assert.include(result.loaded, f.tenant.ed25519VerificationMethod)
    const tampered = await verifyWithDigitalBazaar(tamperSubjectName(f.credential), { documents: { [f.tenant.did]: f.tenant.didDocument } })
    assert.isFalse(tampered.verified)
  })

  it("rejects a valid signature whose key's controller is not the issuer (decisions §3)", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532 })
    const { proof: _proof, ...unsigned } = f.credential
    // The seed's `did:web:{host}#tenant-…` form: the tenant DID's key signs, the issuer differs.
    const document = { ...unsigned, issuer: { id: "did:web:issuer.example.org#tenant-abc", type: ["Profile"], name: "Example University" } }
    const key = await ed25519TestKey({
      seed: new Uint8Array(32).fill(9),
      id: f.tenant.ed25519VerificationMethod,
      controller: f.tenant.did
    })
    const didDocument = structuredClone(f.tenant.didDocument)
    const vm = (didDocument["verificationMethod"] as Array<Json>)[1]!
    vm["publicKeyMultibase"] = key.publicKeyMultibase
    delete vm["publicKeyJwk"]
    const proof = await signEddsaRdfc2022(document, key, "2025-01-15T00:00:01Z", { [f.tenant.did]: didDocument })
    const result = await verifyWithDigitalBazaar({ ...document, proof: [proof] }, { documents: { [f.tenant.did]: didDocument } })
    assert.isFalse(result.verified)
    assert.include(result.errors.join("; "), "Credential issuer must match the verification method controller.")
  })
})

// ---------------------------------------------------------------------------------------------

describe.sequential("@digitalcredentials/verifier-core 1.0.0-beta.11 (Learner Credential Wallet)", () => {
  const VC = "../../testkit/vectors/verifier-core/"
  const STATUS_LIST_URL =
    "https://raw.githubusercontent.com/digitalcredentials/verifier-core/refs/heads/main/src/test-fixtures/status/e5WK8CbZ1GjycuPombrj"
  const realRoutes = { [STATUS_LIST_URL]: readFixture(`${VC}status-e5WK8CbZ1GjycuPombrj.json`) }

  it("accepts a real eddsa-rdfc-2022 vector (did:key, Bitstring status); unregistered issuer and schema mismatch are only warnings", SLOW, async () => {
    const credential = readFixture<Json>(`${VC}v2EddsaWithValidStatus.json`)
    const result = await runVerifierCore(credential, { routes: realRoutes })
    assert.isTrue(result.accepted, JSON.stringify(result.errors))
    assert.deepStrictEqual(
      Object.fromEntries(result.log.map((s) => [s.id, s.valid])),
      { valid_signature: true, expiration: true, revocation_status: true, registered_issuer: false }
    )
    // Its `proof` is an object, which the OB 3.0 schema rejects: verifier-core only reports that.
    assert.deepStrictEqual(result.warnings, [
      "registered_issuer: issuer not found in any known registry",
      `schema_check: not valid against ${OB3_ACHIEVEMENT_SCHEMA_URL}`
    ])
    assert.deepStrictEqual(validateOb3(credential).errors, ["/proof must be array"])
    assert.deepStrictEqual([...new Set(result.fetched)].sort(), [OB3_ACHIEVEMENT_SCHEMA_URL, STATUS_LIST_URL].sort())
    assert.deepStrictEqual(result.unexpected, [])
  })

  it("rejects a tampered copy of it (fatal invalid_signature, no log)", SLOW, async () => {
    const result = await runVerifierCore(tamperSubjectName(readFixture(`${VC}v2EddsaWithValidStatus.json`)), { routes: realRoutes })
    assert.isFalse(result.accepted)
    assert.deepStrictEqual(result.errors.map((e) => e.name), ["invalid_signature"])
    assert.deepStrictEqual(result.log, [])
  })

  it("accepts the Sigil-shaped did:web credential: DID document fetched from https://…/tenants/<suffix>/did.json", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532 })
    const result = await runVerifierCore(f.credential, { didDocuments: { [f.tenant.did]: f.tenant.didDocument } })
    assert.isTrue(result.accepted, JSON.stringify(result.errors))
    assert.deepStrictEqual(result.warnings, ["registered_issuer: issuer not found in any known registry"])
    assert.include(result.fetched, didWebUrl(f.tenant.did))
    assert.strictEqual(didWebUrl(f.tenant.did), "https://issuer.example.org/tenants/01jhx2a3b4c5d6e7f8g9h0jkmn/did.json")
    assert.deepStrictEqual(result.schemaCheck, [{
      schema: OB3_ACHIEVEMENT_SCHEMA_URL,
      result: { valid: true },
      source: "Assumed based on vc.type: 'OpenBadgeCredential' and vc version: 'version 2'"
    }])
    assert.deepStrictEqual(result.unexpected, [])

    const tampered = await runVerifierCore(tamperSubjectName(f.credential), { didDocuments: { [f.tenant.did]: f.tenant.didDocument } })
    assert.deepStrictEqual(tampered.errors.map((e) => e.name), ["invalid_signature"])
  })

  // The DID-document contract verifier-core imposes (each variant on its own DID: verifier-core
  // caches DID documents for 5 s).
  it("needs absolute verification-method ids in the DID document (relative `#key-…` ids fail)", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532, suffix: "01jhx2a3b4c5d6e7f8g9h0rel1" })
    const didDocument = structuredClone(f.tenant.didDocument)
    for (const vm of didDocument["verificationMethod"] as Array<Json>) vm["id"] = `#${String(vm["id"]).split("#")[1]}`
    didDocument["assertionMethod"] = (didDocument["assertionMethod"] as Array<string>).map((id) => `#${id.split("#")[1]}`)
    const result = await runVerifierCore(f.credential, { didDocuments: { [f.tenant.did]: didDocument } })
    assert.deepStrictEqual(result.errors.map((e) => e.name), ["invalid_signature"])
  })

  it("needs publicKeyMultibase on the Ed25519 Multikey (a JWK-only key fails)", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532, suffix: "01jhx2a3b4c5d6e7f8g9h0jwk1" })
    const didDocument = structuredClone(f.tenant.didDocument)
    delete ed25519MethodOf(didDocument)["publicKeyMultibase"]
    const result = await runVerifierCore(f.credential, { didDocuments: { [f.tenant.did]: didDocument } })
    assert.deepStrictEqual(result.errors.map((e) => e.name), ["invalid_signature"])
  })

  it("an unresolvable did:web is fatal (did_web_unresolved)", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532 })
    const credential = structuredClone(f.credential)
    // Another tenant's DID, so the resolver's 5 s cache of the one above does not answer.
    const other = "did:web:issuer.example.org:tenants:01jhx2a3b4c5d6e7f8g9h0zzzz"
    asJson(credential["issuer"])["id"] = other
    for (const p of proofsOf(credential)) p["verificationMethod"] = String(p["verificationMethod"]).replace(f.tenant.did, other)
    const result = await runVerifierCore(credential)
    assert.deepStrictEqual(result.errors.map((e) => e.name), ["did_web_unresolved"])
    assert.deepStrictEqual(result.unexpected, [didWebUrl(other)])
  })

  it("cannot verify an https verification method with a #fragment (the 1EdTech vectors): invalid_signature", SLOW, async () => {
    const credential = readFixture<Json>(`${OB3}1edtech-validator_simple.eddsa-rdfc-2022.json`)
    const result = await runVerifierCore(credential, { routes: controllerDocsFor(credential) })
    // It fetches the key id; a server never sees the fragment, so the whole controller document
    // comes back where a key was expected.
    assert.deepStrictEqual(result.errors.map((e) => e.name), ["invalid_signature"])
    assert.deepStrictEqual(result.fetched, ["https://example.com/issuers/876543#z6MkjZRZv3aez3r18pB1RBFJR1kwUVJ5jHt92JmQwXbd5hwi"])
  })
})

// ---------------------------------------------------------------------------------------------

describe.sequential("JSON Schemas: OB 3.0 AchievementCredential (Ajv2019) and VC 2.0 (Ajv2020)", () => {
  const unsigned = readFixture<Json>(`${GEN}recommended.unsigned.json`)
  const eddsaProof = proofsOf(readFixture<Json>(`${GEN}recommended.eddsa-rdfc-2022+merkle-proof-2019.mocknet.json`))[0]!

  it("accept recommended.unsigned.json with a proof array", () => {
    const credential = { ...unsigned, proof: [eddsaProof] }
    const ob3 = validateOb3(credential)
    assert.isTrue(ob3.valid, ob3.errors.join("; "))
    const vc2 = validateVc2(credential)
    assert.isTrue(vc2.valid, vc2.errors.join("; "))
  })

  it("accept the Sigil-shaped credential", SLOW, async () => {
    const f = await buildSigilFixture({ chainId: 84532 })
    assert.isTrue(validateOb3(f.credential).valid, validateOb3(f.credential).errors.join("; "))
    assert.isTrue(validateVc2(f.credential).valid, validateVc2(f.credential).errors.join("; "))
  })

  it("the OB schema rejects a proof object", () => {
    const result = validateOb3({ ...unsigned, proof: eddsaProof })
    assert.isFalse(result.valid)
    assert.include(result.errors, "/proof must be array")
  })

  it("the OB schema rejects a missing validFrom (VC 2.0 makes it optional)", () => {
    const { validFrom: _validFrom, ...credential }: Json = { ...unsigned, proof: [eddsaProof] }
    const result = validateOb3(credential)
    assert.isFalse(result.valid)
    assert.include(result.errors, "/ must have required property 'validFrom'")
    assert.isTrue(validateVc2(credential).valid)
  })
})
