/**
 * Builds a credential in Sigil's shape (decisions §1 and §3), independently of src/: the research's
 * recommended OB 3.0 credential re-issued by a per-tenant `did:web` issuer, with
 * `proof: [merkle-proof-2019 anchored as eth/<EVM chain id>, eddsa-rdfc-2022]`.
 *
 * Test keys (never use elsewhere): secp256k1 = sha256("bc-research-demo-key-1") (address
 * 0x7f8da4428f6fa5dc419c47e111a800d1c50a1280, as in the research's synthetic vectors); Ed25519 seed =
 * sha256("sigil-harness-ed25519-key-1").
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import {
  blockcertsTargetHash,
  didWebTenant,
  type DidWebTenant,
  encodeMerkleProofValue,
  merkleProof2019,
  secp256k1TestKey,
  type Secp256k1TestKey
} from "./blockcertsIssuer.js"
import type { CvjsTransaction } from "./certVerifierJs.js"
import { ed25519JwkX, ed25519TestKey, signEddsaRdfc2022 } from "./digitalbazaarVc.js"
import { readFixture } from "./fixtures.js"

export const TEST_SECP256K1_LABEL = "bc-research-demo-key-1"
export const TEST_HOST = "issuer.example.org"
export const TEST_TENANT_SUFFIX = "01jhx2a3b4c5d6e7f8g9h0jkmn"
export const KEY_CREATED = "2025-01-01T00:00:00Z"
export const EDDSA_CREATED = "2025-01-15T00:00:01Z"
export const MERKLE_CREATED = "2025-01-15T00:00:05Z"
export const BLOCK_TIME = "2025-01-15T00:00:30.000Z"

export interface SigilFixture {
  readonly credential: Record<string, unknown>
  readonly tenant: DidWebTenant
  readonly secp256k1: Secp256k1TestKey
  readonly targetHash: string
  /** The anchor's tx hash (`0x…`). */
  readonly txHash: string
  /** What the chain holds for `txHash`: input = merkle root, sent by the tenant key after it was created. */
  readonly transaction: CvjsTransaction
}

export interface SigilFixtureOptions {
  /** EVM chain id written as the anchor's network (8453, 84532, 31337, or 11155111 for a stock chain). */
  readonly chainId: number
  /** Extra `publicKey` entries for the tenant's Blockcerts profile. */
  readonly extraProfileKeys?: ReadonlyArray<{ readonly id: string; readonly created: string }>
  /**
   * The tenant suffix (default TEST_TENANT_SUFFIX). Use a fresh one whenever a test serves a
   * different DID document: verifier-core caches DID documents for 5 s.
   */
  readonly suffix?: string
}

export const buildSigilFixture = async (options: SigilFixtureOptions): Promise<SigilFixture> => {
  const secp = secp256k1TestKey(TEST_SECP256K1_LABEL)
  const suffix = options.suffix ?? TEST_TENANT_SUFFIX
  const did = `did:web:${TEST_HOST}:tenants:${suffix}`
  const ed = await ed25519TestKey({
    seed: sha256(utf8ToBytes("sigil-harness-ed25519-key-1")),
    id: `${did}#key-ed25519-1`,
    controller: did
  })
  const tenant = didWebTenant({
    host: TEST_HOST,
    suffix,
    name: "Example University",
    secp256k1: secp,
    keyCreated: KEY_CREATED,
    ed25519: { publicKeyMultibase: ed.publicKeyMultibase, jwkX: await ed25519JwkX(ed) },
    ...(options.extraProfileKeys !== undefined ? { extraProfileKeys: options.extraProfileKeys } : {})
  })

  const unsigned = readFixture<Record<string, unknown>>("vectors/ob3-blockcerts-generated/recommended.unsigned.json")
  const document: Record<string, unknown> = {
    ...unsigned,
    issuer: { id: tenant.did, type: ["Profile"], name: "Example University" }
  }
  delete document["proof"]

  // Both proofs cover the document without `proof` (the Merkle proof is first in the array, so
  // cert-verifier-js hashes it with `proof: []`, which canonicalizes like no proof at all).
  const eddsa = await signEddsaRdfc2022(document, ed, EDDSA_CREATED, { [tenant.did]: tenant.didDocument })
  const targetHash = await blockcertsTargetHash(document)
  const txHash = `0x${bytesToHex(sha256(utf8ToBytes(`sigil-harness-tx-${options.chainId}-${targetHash}`)))}`
  const proofValue = encodeMerkleProofValue({
    merkleRoot: targetHash, // single-leaf tree
    targetHash,
    path: [],
    anchors: [{ chain: "eth", network: options.chainId, txHash }]
  })
  const merkle = merkleProof2019({
    id: "urn:uuid:6f0c6a4e-2b7d-4d3a-9c1e-8a5b4f3e2d10",
    created: MERKLE_CREATED,
    verificationMethod: tenant.secpVerificationMethod,
    proofValue
  })
  return {
    credential: { ...document, proof: [merkle, eddsa] },
    tenant,
    secp256k1: secp,
    targetHash,
    txHash,
    transaction: { remoteHash: targetHash, issuingAddress: secp.address, time: BLOCK_TIME, revokedAddresses: [] }
  }
}
