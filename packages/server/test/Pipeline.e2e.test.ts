/**
 * Issue #6, end to end through the HTTP API, on the real server process (`src/main.ts` on
 * PGlite and the embedded devnet):
 *
 * - a 500-credential batch is accepted (202) and reaches `anchored`, with exactly one anchor
 *   transaction on the devnet, sent from the tenant's secp256k1 address;
 * - every credential, fetched with `GET /v1/credentials/{id}`, verifies with Sigil's verifier
 *   reading only what the server publishes (DID document, profile and status lists over HTTP,
 *   the anchor over `/devnet/rpc`), with cert-verifier-js 6.35 (the test-only Base/devnet shim,
 *   decisions §1) and, for its eddsa-rdfc-2022 proof, with `@digitalbazaar/vc` 7.3;
 *   verifier-core (the Learner Credential Wallet's verifier) accepts them too;
 * - revoking one makes cert-verifier-js and Sigil's verifier report it revoked, from the status
 *   list the server serves (signed when read); the others stay valid everywhere;
 * - erasing one in `hashed` mode leaves it verifiable everywhere.
 *
 * Coverage: all 500 credentials go through every verifier, no sampling (each verifier takes
 * about 5–20 s for the 500 on a 2-core machine; the whole file runs in about a minute).
 *
 * Then the verifier × status-form matrix of docs/decisions/status-lists.md: each form issued
 * with core's building blocks and measured with every verifier of the harness.
 */
import { Effect } from "effect"
import { rmSync } from "node:fs"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type CvjsTransaction, runCertVerifierJs } from "@sigil/core/testkit/certVerifierJs"
import { verifyWithDigitalBazaar } from "@sigil/core/testkit/digitalbazaarVc"
import { runVerifierCore } from "@sigil/core/testkit/verifierCore"
import { anchorTransactions, cvjsTransaction } from "./helpers/devnet.js"
import { type LiveVerifier, liveVerifier } from "./helpers/liveVerifier.js"
import { createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"
import { BITSTRING_VARIANTS, FORMS, type FormName, issueForm } from "./helpers/statusForms.js"
import { measure, measureUnreachable, type Verdicts } from "./helpers/statusMatrix.js"

const SIZE = 500

const batchRequest = (n: number) => ({
  credentials: Array.from({ length: n }, (_, i) => ({
    recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate ${i} — Zoë Ångström`, email: `graduate${i}@example.org` },
    achievement: {
      name: "Master of Data Stewardship",
      description: "Awarded for completing the two-year programme.",
      alignment: [{ targetFramework: "ESCO", targetCode: "S5.6.1", targetName: "manage data" }]
    },
    issuanceDate: "2025-06-30T00:00:00Z",
    evidence: [{ narrative: `Thesis ${i} defended with distinction.` }]
  }))
})

/** Runs `f` over `items`, `limit` at a time, keeping the order. */
const mapLimit = async <A, B>(items: ReadonlyArray<A>, limit: number, f: (a: A, i: number) => Promise<B>): Promise<Array<B>> => {
  const out = new Array<B>(items.length)
  let next = 0
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await f(items[i]!, i)
    }
  }))
  return out
}

const getJson = async (url: string): Promise<any> => {
  const response = await fetch(url)
  assert.strictEqual(response.status, 200, `GET ${url}`)
  return response.json()
}

/**
 * cert-verifier-js upgrades every `http://` URL it fetches to `https://` ("Upgrading requested
 * url … to https protocol"); the local server's documents are under `http://localhost:<port>`
 * (PUBLIC_BASE_URL), so the harness serves them under both schemes. In production the public
 * base URL is https and the question does not arise.
 */
const httpsToo = (routes: Record<string, unknown>): Record<string, unknown> => ({
  ...routes,
  ...Object.fromEntries(Object.entries(routes).map(([url, body]) => [url.replace(/^http:\/\//, "https://"), body]))
})

interface Credential {
  readonly id: string
  readonly status: string
  readonly revoked: boolean
  readonly erased: boolean
  readonly signed_credential: any
}

describe.sequential("a 500-credential batch through the HTTP API on the embedded devnet", () => {
  let dataDir: string
  let server: Running
  let verifier: LiveVerifier
  let tenant: { readonly id: string; readonly did: string; readonly key: string }
  let batch: any
  let credentials: ReadonlyArray<Credential>
  let tx: CvjsTransaction
  /** The tenant's public documents, fetched from the server (status lists: at the time of use). */
  let didDocument: any
  let profile: any

  const credential = async (id: string): Promise<Credential> => {
    const answer = await server.api("GET", `/v1/credentials/${id}`, tenant.key)
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    return answer.body
  }

  /** The status lists the credentials point to, as the server serves them now. */
  const statusLists = async (documents: ReadonlyArray<any>) => {
    const urls = [...new Set(documents.map((d) => d.credentialStatus?.statusListCredential).filter((u): u is string => u !== undefined))]
    return Object.fromEntries(await Promise.all(urls.map(async (url) => [url, await getJson(url)] as const)))
  }

  const cvjs = (document: unknown, lists: Record<string, unknown>) =>
    runCertVerifierJs(document, {
      baseShim: true,
      didDocuments: { [tenant.did]: didDocument },
      routes: httpsToo({ [profile.id]: profile, ...lists }),
      transactions: { [batch.anchor_transaction.hash]: tx }
    })

  beforeAll(async () => {
    dataDir = newDataDir()
    // 500 credential reads and more, and the verifiers fetching their documents from this one
    // address for each: neither rate limit is what this test is about.
    server = await start({ dataDir, env: { SIGIL_RATE_LIMIT_PER_MINUTE: "1000000", SIGIL_PUBLIC_RATE_LIMIT: "0" } })
    tenant = await createTenant(server, { name: "E2E University", plan: "institution", recipientNameMode: "hashed" })
    verifier = liveVerifier(server.baseUrl)
  }, 120_000)

  afterAll(async () => {
    await verifier?.dispose()
    if (server !== undefined) await stop(server)
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  })

  it("accepts 500 credentials, anchors them in one transaction from the tenant's address", async () => {
    const created = await server.api("POST", "/v1/batches", tenant.key, batchRequest(SIZE))
    assert.strictEqual(created.status, 202, JSON.stringify(created.body))
    assert.strictEqual(created.body.status, "pending")
    batch = await eventually(async () => {
      const answer = await server.api("GET", `/v1/batches/${created.body.id}`, tenant.key)
      assert.notStrictEqual(answer.body.status, "failed", JSON.stringify(answer.body.error))
      return answer.body.status === "anchored" ? answer.body : undefined
    }, 120_000, "the batch to be anchored")
    assert.strictEqual(batch.anchor_transaction.chain, "devnet")
    assert.strictEqual(batch.credentials.length, SIZE)

    credentials = await mapLimit(batch.credentials as ReadonlyArray<{ id: string }>, 8, (c) => credential(c.id))
    for (const c of credentials) {
      assert.strictEqual(c.status, "anchored")
      const proofs = c.signed_credential.proof
      assert.deepStrictEqual(proofs.map((p: any) => p.cryptosuite), ["merkle-proof-2019", "eddsa-rdfc-2022"])
      assert.strictEqual(c.signed_credential.issuer.id, tenant.did)
      assert.strictEqual(c.signed_credential.credentialStatus.type, "StatusList2021Entry")
      assert.notProperty(c.signed_credential.credentialSubject, "name", "hashed mode: no plaintext name")
      assert.notInclude(JSON.stringify(c.signed_credential), "@example.org", "the email never enters the document")
    }
    assert.strictEqual(new Set(credentials.map((c) => c.signed_credential.id)).size, SIZE)

    didDocument = await getJson(`${server.baseUrl}/tenants/${tenant.did.split(":").at(-1)}/did.json`)
    assert.strictEqual(didDocument.id, tenant.did)
    profile = await getJson(didDocument.service[0].serviceEndpoint)
    const anchors = (await anchorTransactions(server.baseUrl)).filter((t) => t.input === batch.merkle_root)
    assert.strictEqual(anchors.length, 1, "exactly one anchor transaction carries the root")
    assert.strictEqual(anchors[0]!.hash, batch.anchor_transaction.hash)
    assert.include(profile.publicKey.map((k: any) => k.id.toLowerCase()), `ecdsa-koblitz-pubkey:${anchors[0]!.from.toLowerCase()}`)
    tx = await cvjsTransaction(server.baseUrl, batch.anchor_transaction.hash)
  }, 180_000)

  it("every credential verifies with Sigil's verifier against what the server publishes", async () => {
    // Four at a time: the server signs the status list on every read meanwhile.
    await mapLimit(credentials, 4, async (c) => {
      const result = await verifier.verify(c.signed_credential)
      assert.strictEqual(result.outcome, "verified", `${c.id}: ${JSON.stringify(result.steps, null, 1)}`)
      assert.strictEqual(result.anchor?.txHash, batch.anchor_transaction.hash)
      assert.strictEqual(result.anchor?.chainId, 31337)
    })
    // Nothing came from anywhere but the server's public documents.
    assert.isTrue(verifier.fetched().every((url) => url.startsWith(`${server.baseUrl}/tenants/`)), verifier.fetched().join("\n"))
  }, 300_000)

  it("every credential verifies with cert-verifier-js (Base/devnet shim), every Blockcerts check included", async () => {
    const lists = await statusLists(credentials.map((c) => c.signed_credential))
    for (const c of credentials) {
      const result = await cvjs(c.signed_credential, lists)
      assert.strictEqual(result.status, "success", `${c.id}: ${result.message}\n${JSON.stringify(result.steps, null, 1)}\n${result.logs.join("\n")}`)
      assert.deepStrictEqual(result.unexpected, [])
      assert.strictEqual(result.chains[0], "ethsigildevnet", "the Merkle proof was checked against the devnet")
      const passed = result.steps.filter((s) => s.status === "success").map((s) => s.code)
      for (const code of ["computeLocalHash", "compareHashes", "checkMerkleRoot", "checkReceipt", "checkAuthenticity", "checkDocumentSignature", "checkRevokedStatus"]) {
        assert.include(passed, code, c.id)
      }
    }
  }, 600_000)

  it("every eddsa-rdfc-2022 proof verifies with @digitalbazaar/vc, and verifier-core accepts every credential", async () => {
    for (const c of credentials) {
      const document = c.signed_credential
      const db = await verifyWithDigitalBazaar(document, { documents: { [tenant.did]: didDocument } })
      assert.isTrue(db.verified, `${c.id}: ${JSON.stringify(db.errors)}`)
      assert.deepStrictEqual(db.unexpected, [])
      const wallet = await runVerifierCore(document, { didDocuments: { [tenant.did]: didDocument } })
      assert.isTrue(wallet.accepted, JSON.stringify({ errors: wallet.errors, log: wallet.log }))
      assert.deepStrictEqual(wallet.unexpected, [])
    }
  }, 600_000)

  it("a revoked credential: cert-verifier-js and Sigil's verifier report it revoked; the others stay valid", async () => {
    const [revoked, neighbour] = [credentials[123]!, credentials[124]!]
    const answer = await server.api("POST", `/v1/credentials/${revoked.id}/revoke`, tenant.key, {
      reason: "Issued in error",
      reason_code: "issuer_error"
    })
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    assert.isTrue(answer.body.revoked)
    assert.isTrue((await credential(revoked.id)).revoked)
    const again = await server.api("POST", `/v1/credentials/${revoked.id}/revoke`, tenant.key, { reason: "x", reason_code: "other" })
    assert.strictEqual(again.status, 409)
    assert.strictEqual(again.body.error.code, "credential_already_revoked")

    // Sigil's verifier reads the list the server serves now (signed when read).
    const ours = await verifier.verify(revoked.signed_credential)
    assert.strictEqual(ours.outcome, "revoked", JSON.stringify(ours.steps, null, 1))
    assert.strictEqual((await verifier.verify(neighbour.signed_credential)).outcome, "verified")

    const lists = await statusLists([revoked.signed_credential, neighbour.signed_credential])
    const cvjsRevoked = await cvjs(revoked.signed_credential, lists)
    assert.strictEqual(cvjsRevoked.status, "failure")
    assert.strictEqual(cvjsRevoked.failedStep, "checkRevokedStatus")
    assert.include(cvjsRevoked.message, "revoked")
    const cvjsNeighbour = await cvjs(neighbour.signed_credential, lists)
    assert.strictEqual(cvjsNeighbour.status, "success", cvjsNeighbour.message)

    // The other verifiers of the matrix cannot read StatusList2021 on a VC 2.0 credential
    // (docs/decisions/status-lists.md): they cannot report it, and must still accept the rest.
    const wallet = await runVerifierCore(revoked.signed_credential, { didDocuments: { [tenant.did]: didDocument }, routes: lists })
    assert.isTrue(wallet.accepted, "verifier-core ignores StatusList2021 (measured, not desired)")
    const walletNeighbour = await runVerifierCore(neighbour.signed_credential, { didDocuments: { [tenant.did]: didDocument }, routes: lists })
    assert.isTrue(walletNeighbour.accepted)
    const db = await verifyWithDigitalBazaar(neighbour.signed_credential, { documents: { [tenant.did]: didDocument } })
    assert.isTrue(db.verified, JSON.stringify(db.errors))
  }, 120_000)

  it("an erased credential in hashed mode keeps verifying everywhere", async () => {
    const target = credentials[321]!
    const answer = await server.api("POST", `/v1/credentials/${target.id}/erase`, tenant.key, {
      requester: "recipient",
      verified_at: new Date().toISOString()
    })
    assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
    assert.strictEqual(answer.body.verification_status_after_erasure, "verifiable")
    const after = await credential(target.id)
    assert.isTrue(after.erased)
    assert.deepStrictEqual(after.signed_credential, target.signed_credential, "erasure never touches the document")

    const ours = await verifier.verify(after.signed_credential)
    assert.strictEqual(ours.outcome, "verified", JSON.stringify(ours.steps, null, 1))
    const lists = await statusLists([after.signed_credential])
    const theirs = await cvjs(after.signed_credential, lists)
    assert.strictEqual(theirs.status, "success", theirs.message)
    const db = await verifyWithDigitalBazaar(after.signed_credential, { documents: { [tenant.did]: didDocument } })
    assert.isTrue(db.verified, JSON.stringify(db.errors))
  }, 120_000)
})

/**
 * The matrix of docs/decisions/status-lists.md, measured. Each assertion is one cell of the
 * table there; change both together.
 */
describe.sequential("verifier × status form (docs/decisions/status-lists.md)", () => {
  const measured = new Map<string, Verdicts>()
  const unreachable = new Map<FormName, Awaited<ReturnType<typeof measureUnreachable>>>()
  const cell = (form: FormName, which: "valid" | "revoked") => measured.get(`${form}/${which}`)!

  beforeAll(async () => {
    for (const form of [...FORMS, ...BITSTRING_VARIANTS]) {
      const issued = await Effect.runPromise(issueForm(form, { chainId: 31337, now: new Date() }))
      const [valid, revoked] = issued.credentials
      measured.set(`${form}/valid`, await measure(issued, valid))
      measured.set(`${form}/revoked`, await measure(issued, revoked))
      if (form === "statusList2021" || form === "profileRevocationList") {
        unreachable.set(form, await measureUnreachable(issued, revoked))
      }
    }
    for (const [key, verdicts] of measured) assert.deepStrictEqual(verdicts.unexpected, [], key)
  }, 120_000)

  it("Sigil's verifier reads every form", () => {
    for (const form of [...FORMS, ...BITSTRING_VARIANTS]) {
      assert.strictEqual(cell(form, "valid").sigil, "verified", form)
      assert.strictEqual(cell(form, "revoked").sigil, "revoked", form)
    }
  })

  it("StatusList2021Entry + unprefixed list (Sigil's form)", () => {
    const valid = cell("statusList2021", "valid")
    const revoked = cell("statusList2021", "revoked")
    // cert-verifier-js: accepts, reports the revocation.
    assert.strictEqual(valid.cvjs.status, "success")
    assert.strictEqual(revoked.cvjs.failedStep, "checkRevokedStatus")
    assert.strictEqual(revoked.cvjs.message, "This certificate has been revoked by the issuer.")
    // verifier-core: ignores StatusList2021 ("old spec"): accepts both, no revocation step.
    assert.isTrue(valid.verifierCore.accepted)
    assert.isTrue(revoked.verifierCore.accepted)
    assert.isUndefined(revoked.verifierCore.revocationStatus)
    // @digitalbazaar/vc: the proof verifies (status not checked: no checker installed)…
    assert.isTrue(valid.digitalBazaar.verified)
    assert.isTrue(revoked.digitalBazaar.verified)
    // …and without a checkStatus function it refuses any credential that has credentialStatus.
    assert.isFalse(valid.digitalBazaarNoChecker.verified)
    assert.include(valid.digitalBazaarNoChecker.errors.join(" "), "checkStatus")
  })

  it("BitstringStatusListEntry + u-prefixed list (W3C)", () => {
    const valid = cell("bitstring", "valid")
    const revoked = cell("bitstring", "revoked")
    // cert-verifier-js cannot decode the prefixed list and fails every credential.
    assert.strictEqual(valid.cvjs.failedStep, "checkRevokedStatus")
    assert.notStrictEqual(valid.cvjs.status, "success")
    assert.notStrictEqual(revoked.cvjs.status, "success")
    // verifier-core reads it: accepts the valid one, reports the revoked one.
    assert.isTrue(valid.verifierCore.accepted)
    assert.isTrue(valid.verifierCore.revocationStatus)
    assert.isFalse(revoked.verifierCore.accepted)
    assert.isFalse(revoked.verifierCore.revocationStatus)
    assert.isTrue(valid.digitalBazaar.verified)
    assert.isTrue(revoked.digitalBazaar.verified)
    assert.isFalse(valid.digitalBazaarNoChecker.verified)
  })

  it("no credentialStatus + the issuer profile's revocationList (Blockcerts)", () => {
    const valid = cell("profileRevocationList", "valid")
    const revoked = cell("profileRevocationList", "revoked")
    assert.strictEqual(valid.cvjs.status, "success")
    assert.strictEqual(revoked.cvjs.failedStep, "checkRevokedStatus")
    assert.include(revoked.cvjs.message, "Reason given: Issued in error")
    // No status the others can see: they accept both.
    assert.isTrue(valid.verifierCore.accepted)
    assert.isTrue(revoked.verifierCore.accepted)
    assert.isTrue(revoked.digitalBazaar.verified)
    // The only form @digitalbazaar/vc verifies with no status checker at all.
    assert.isTrue(valid.digitalBazaarNoChecker.verified)
    assert.isTrue(revoked.digitalBazaarNoChecker.verified)
  })

  it("when the list cannot be fetched: StatusList2021 fails closed, the profile's revocationList fails open", () => {
    // A revoked credential whose status list answers 404: refused by both (no false "valid").
    const closed = unreachable.get("statusList2021")!
    assert.strictEqual(closed.sigil, "failed")
    assert.notStrictEqual(closed.cvjs.status, "success")
    assert.strictEqual(closed.cvjs.failedStep, "checkRevokedStatus")
    // A revoked credential whose issuer's revocation list answers 404: accepted by both.
    const open = unreachable.get("profileRevocationList")!
    assert.strictEqual(open.sigil, "verified")
    assert.strictEqual(open.cvjs.status, "success")
    assert.lengthOf(open.cvjs.unexpected, 1, "the list was asked for, and was not there")
  })

  it("diagnostics: which property of the Bitstring form each verifier trips on", () => {
    // The spec's own example context (VC 2.0 only): cert-verifier-js refuses the list credential
    // before reading it ("More specific type … but no additional context provided").
    assert.include(cell("bitstringSpecContext", "valid").cvjs.message, "More specific type")
    assert.isTrue(cell("bitstringSpecContext", "valid").verifierCore.accepted)
    // Without the `u` prefix: cert-verifier-js reads it (accepts, reports revocation), and
    // verifier-core refuses every credential, valid ones included.
    assert.strictEqual(cell("bitstringUnprefixed", "valid").cvjs.status, "success")
    assert.strictEqual(cell("bitstringUnprefixed", "revoked").cvjs.failedStep, "checkRevokedStatus")
    assert.isFalse(cell("bitstringUnprefixed", "valid").verifierCore.accepted)
    assert.include(cell("bitstringUnprefixed", "valid").verifierCore.errors.join(" "), "status list couldn't be verified")
  })
})
