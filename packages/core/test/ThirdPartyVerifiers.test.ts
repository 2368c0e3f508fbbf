/**
 * Third-party verifiers accept what Sigil's core issues (issue #2, decisions §1, §3):
 * cert-verifier-js 6.35 (with the test-only Base chain registration), @digitalbazaar/vc 7.3 and
 * @digitalcredentials/verifier-core (the Learner Credential Wallet's verifier). The credentials
 * are issued offline by `Issuance`, the tenant's DID document and Blockcerts profile come from
 * `TenantDid`, and the anchor is a fake chain replayed to each verifier.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Chains from "../src/Chains.js"
import type { JsonObject } from "../src/Document.js"
import * as Issuance from "../src/Issuance.js"
import * as TenantDid from "@sigil/core/TenantDid"
import * as Verifier from "../src/Verifier.js"
import { makeTenant, makeWorld, sampleContent, type Tenant } from "../testkit/offlineTenant.js"
import { runCertVerifierJs } from "../testkit/certVerifierJs.js"
import { verifyWithDigitalBazaar } from "../testkit/digitalbazaarVc.js"
import { runVerifierCore } from "../testkit/verifierCore.js"

const keysCreatedAt = new Date("2025-06-01T00:00:00Z")
const signedAt = new Date("2025-06-30T10:00:00Z")
const anchoredAt = new Date("2025-06-30T10:00:30Z")

interface Issued {
  readonly tenant: Tenant
  readonly credentials: ReadonlyArray<JsonObject>
  readonly merkleRoot: string
  readonly txHash: string
  readonly world: ReturnType<typeof makeWorld>
}

/**
 * Issues a batch offline and anchors it on a fake chain with the given EVM chain id; with
 * `withStatus`, credential i gets slot 1000 + i of the tenant's status list 1.
 */
const issue = (chainId: number, count = 3, withStatus = false): Promise<Issued> => {
  const tenant = makeTenant({ keysCreatedAt })
  const world = makeWorld([tenant])
  const statusUrl = withStatus ? `${tenant.urls.base}/status/1` : undefined
  return Effect.runPromise(Effect.gen(function*() {
    const batch = yield* Issuance.signBatch({
      credentials: Array.from({ length: count }, (_, i) => sampleContent(i)),
      settings: tenant.settings,
      signedAt,
      statusEntries: statusUrl === undefined
        ? undefined
        : Array.from({ length: count }, (_, i) => ({ statusListCredential: statusUrl, statusListIndex: 1000 + i })),
      sign: (m) => Effect.sync(() => Issuance.signEd25519(tenant.ed25519Secret, m))
    })
    const anchor = world.anchor(batch.merkleRoot, tenant.address, anchoredAt, chainId)
    return { tenant, world, credentials: Issuance.complete(batch, tenant.settings, anchor), merkleRoot: batch.merkleRoot, txHash: anchor.txHash }
  }).pipe(Effect.provide(world.layer)))
}

const identity = (tenant: Tenant) => ({
  didDocument: TenantDid.didDocument({ urls: tenant.urls, keys: tenant.keys }),
  profile: TenantDid.issuerProfile({ urls: tenant.urls, name: tenant.settings.issuer.name, keys: tenant.keys })
})

const cvjs = (issued: Issued, credential: JsonObject, routes: Record<string, unknown> = {}) => {
  const { didDocument, profile } = identity(issued.tenant)
  return runCertVerifierJs(credential, {
    baseShim: true,
    didDocuments: { [issued.tenant.urls.did]: didDocument },
    routes: { [issued.tenant.urls.profile]: profile, ...routes },
    transactions: {
      [issued.txHash]: { remoteHash: issued.merkleRoot.slice(2), issuingAddress: issued.tenant.address, time: anchoredAt.toISOString() }
    }
  })
}

describe.sequential("third-party verifiers on credentials issued by Sigil's core", () => {
  for (const chainId of [84532, 8453, Chains.DEVNET_CHAIN_ID]) {
    const label = Chains.byChainId(chainId)!.label
    it(`cert-verifier-js verifies every credential of a batch anchored on ${label}`, async () => {
      const issued = await issue(chainId)
      for (const credential of issued.credentials) {
        const result = await cvjs(issued, credential)
        assert.strictEqual(result.status, "success", `${result.message}\n${JSON.stringify(result.steps, null, 1)}`)
        assert.deepStrictEqual(result.unexpected, [])
        // Both proofs were checked, and the real Blockcerts checks ran through our explorer.
        const codes = result.steps.filter((s) => s.status === "success").map((s) => s.code)
        for (const code of ["computeLocalHash", "compareHashes", "checkMerkleRoot", "checkReceipt", "checkAuthenticity", "compareIssuingAddress"]) {
          assert.include(codes, code)
        }
      }
    }, 120_000)
  }

  it("cert-verifier-js rejects a tampered Sigil credential at compareHashes, and a foreign sender at the issuer check", async () => {
    const issued = await issue(84532, 2)
    const [first] = issued.credentials
    const tampered = { ...first!, name: "Doctor of Everything" }
    const hashFailure = await cvjs(issued, tampered)
    assert.strictEqual(hashFailure.status, "failure")
    assert.strictEqual(hashFailure.failedStep, "compareHashes")
    const { didDocument, profile } = identity(issued.tenant)
    const foreign = await runCertVerifierJs(first, {
      baseShim: true,
      didDocuments: { [issued.tenant.urls.did]: didDocument },
      routes: { [issued.tenant.urls.profile]: profile },
      transactions: {
        [issued.txHash]: {
          remoteHash: issued.merkleRoot.slice(2),
          issuingAddress: "0x000000000000000000000000000000000000dead",
          time: anchoredAt.toISOString()
        }
      }
    })
    assert.strictEqual(foreign.status, "failure")
    assert.strictEqual(foreign.failedStep, "checkAuthenticity")
  }, 120_000)

  it("@digitalbazaar/vc verifies the eddsa proof with the tenant's DID as issuer and key controller", async () => {
    const issued = await issue(84532, 2)
    const { didDocument } = identity(issued.tenant)
    for (const credential of issued.credentials) {
      const result = await verifyWithDigitalBazaar(credential, { documents: { [issued.tenant.urls.did]: didDocument } })
      assert.isTrue(result.verified, JSON.stringify(result.errors))
      assert.deepStrictEqual(result.unexpected, [])
    }
    const tampered = await verifyWithDigitalBazaar(
      { ...issued.credentials[0]!, validFrom: "2020-01-01T00:00:00Z" },
      { documents: { [issued.tenant.urls.did]: didDocument } }
    )
    assert.isFalse(tampered.verified)
  }, 120_000)

  it("verifier-core (Learner Credential Wallet) accepts them, warning only about the unregistered issuer", async () => {
    const issued = await issue(84532, 2)
    const { didDocument } = identity(issued.tenant)
    for (const credential of issued.credentials) {
      const result = await runVerifierCore(credential, { didDocuments: { [issued.tenant.urls.did]: didDocument } })
      assert.isTrue(result.accepted, JSON.stringify({ errors: result.errors, log: result.log }))
      assert.deepStrictEqual(result.errors, [])
      assert.deepStrictEqual(result.warnings.map((w) => w.split(":")[0]), ["registered_issuer"])
      assert.deepStrictEqual(result.unexpected, [])
    }
  }, 120_000)

  it("a revoked credential in Sigil's StatusList2021 is reported revoked by cert-verifier-js and Sigil; the others stay valid everywhere", async () => {
    const issued = await issue(84532, 2, true)
    const listUrl = (issued.credentials[0]!.credentialStatus as JsonObject).statusListCredential as string
    const list = await Effect.runPromise(
      issued.world.publishStatusList(issued.tenant, listUrl, [1000], anchoredAt).pipe(Effect.provide(issued.world.layer))
    )
    const [revoked, valid] = issued.credentials
    const cvjsRevoked = await cvjs(issued, revoked!, { [listUrl]: list })
    assert.strictEqual(cvjsRevoked.status, "failure")
    assert.strictEqual(cvjsRevoked.failedStep, "checkRevokedStatus")
    const cvjsValid = await cvjs(issued, valid!, { [listUrl]: list })
    assert.strictEqual(cvjsValid.status, "success", cvjsValid.message)

    const ours = await Effect.runPromise(
      Effect.all([Verifier.verifyCredential(revoked, { now: new Date() }), Verifier.verifyCredential(valid, { now: new Date() })]).pipe(
        Effect.provide(issued.world.layer)
      )
    )
    assert.strictEqual(ours[0].outcome, "revoked")
    assert.strictEqual(ours[1].outcome, "verified")

    // The other verifiers cannot read StatusList2021 on a VC 2.0 credential (decisions §1):
    // they must still accept the valid one.
    const { didDocument } = identity(issued.tenant)
    const wallet = await runVerifierCore(valid, { didDocuments: { [issued.tenant.urls.did]: didDocument }, routes: { [listUrl]: list } })
    assert.isTrue(wallet.accepted, JSON.stringify({ errors: wallet.errors, log: wallet.log }))
    const db = await verifyWithDigitalBazaar(valid, { documents: { [issued.tenant.urls.did]: didDocument } })
    assert.isTrue(db.verified, JSON.stringify(db.errors))
  }, 120_000)
})
