/**
 * A minimal, independent, test-only Blockcerts (MerkleProof2019) issuer, used to build credentials
 * the third-party verifiers are then asked to accept. It deliberately shares no code with src/, so
 * that a bug in Sigil's issuer cannot hide itself here.
 *
 * Algorithms follow cert-issuer exactly (research/blockcerts.md §1.2, §2):
 * - targetHash: jsonld URDNA2015 N-Quads (jsonld@9 = RDFC-1.0) of the document without the Merkle
 *   proof, with cert-verifier-js's `{"@vocab": "http://fallback.org/"}` appended to the context; any
 *   fallback IRI in the output means an undefined term, which we refuse (as cert-issuer does);
 * - Merkle tree: leaves = target hashes, parent = sha256(left‖right), odd node promoted;
 * - proofValue: `z` + base58btc(CBOR in the cert-issuer/Python layout: an array of `[key, value]`
 *   pairs in the order path, merkleRoot, targetHash, anchors, each hash a byte string wrapping a CBOR
 *   text string of lowercase hex, the tx hash keeping its `0x`).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import bs58 from "bs58"
import { getContext } from "./contexts.js"
import { type DocumentLoader, jsonld } from "./jsonldLib.js"

// ---------------------------------------------------------------------------------------------
// Keys

export interface Secp256k1TestKey {
  readonly privateKey: Uint8Array
  /** Uncompressed, 65 bytes. */
  readonly publicKey: Uint8Array
  readonly publicKeyJwk: { readonly kty: "EC"; readonly crv: "secp256k1"; readonly x: string; readonly y: string }
  /** Lowercase `0x…` Ethereum address. */
  readonly address: string
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")

/** A deterministic secp256k1 test key: private key = sha256(utf8(label)). */
export const secp256k1TestKey = (label: string): Secp256k1TestKey => {
  const privateKey = sha256(utf8ToBytes(label))
  const publicKey = secp256k1.getPublicKey(privateKey, false)
  return {
    privateKey,
    publicKey,
    publicKeyJwk: { kty: "EC", crv: "secp256k1", x: b64url(publicKey.slice(1, 33)), y: b64url(publicKey.slice(33, 65)) },
    address: `0x${bytesToHex(keccak_256(publicKey.slice(1)).slice(12))}`
  }
}

// ---------------------------------------------------------------------------------------------
// targetHash

/** Serves only Sigil's contexts; anything else is an error (no network). */
export const contextsOnlyLoader: DocumentLoader = async (url) => {
  const document = getContext(url)
  if (document === undefined) throw new Error(`offline documentLoader: no context ${url}`)
  return { contextUrl: null, documentUrl: url, document }
}

const FALLBACK = "http://fallback.org/"

/**
 * The Blockcerts targetHash of `document` as it must be hashed (the caller removes the Merkle proof
 * itself; a `proof` array that precedes the Merkle proof is kept, as cert-verifier-js does).
 */
export const blockcertsTargetHash = async (document: Record<string, unknown>): Promise<string> => {
  const doc = structuredClone(document)
  const context = ([] as Array<unknown>).concat(doc["@context"] ?? [])
  const hasInlineVocab = context.some((c) => typeof c === "object" && c !== null && "@vocab" in c)
  if (!hasInlineVocab) context.push({ "@vocab": FALLBACK })
  doc["@context"] = context
  const nquads = await jsonld.normalize(doc, {
    algorithm: "URDNA2015",
    format: "application/n-quads",
    safe: false,
    documentLoader: contextsOnlyLoader
  })
  const unmapped = nquads.split("\n").filter((q) => q.includes(`<${FALLBACK}`))
  if (unmapped.length > 0) throw new Error(`undefined JSON-LD terms: ${unmapped.join(" | ")}`)
  return bytesToHex(sha256(utf8ToBytes(nquads)))
}

// ---------------------------------------------------------------------------------------------
// Merkle tree (Tierion/cert-issuer)

export interface MerkleTree {
  readonly root: string
  /** Per leaf: bottom-up siblings. */
  readonly paths: ReadonlyArray<ReadonlyArray<{ readonly left: string } | { readonly right: string }>>
}

export const merkleTree = (leaves: ReadonlyArray<string>): MerkleTree => {
  if (leaves.length === 0) throw new Error("merkleTree: no leaves")
  const paths: Array<Array<{ left: string } | { right: string }>> = leaves.map(() => [])
  // positions[i] = index of leaf i's ancestor in the current level
  let positions = leaves.map((_, i) => i)
  let level = [...leaves]
  while (level.length > 1) {
    const next: Array<string> = []
    for (let i = 0; i + 1 < level.length; i += 2) {
      next.push(bytesToHex(sha256(concatBytes(hexToBytes(level[i]!), hexToBytes(level[i + 1]!)))))
    }
    if (level.length % 2 === 1) next.push(level[level.length - 1]!)
    positions = positions.map((p, leaf) => {
      const isOddLast = level.length % 2 === 1 && p === level.length - 1
      if (!isOddLast) {
        paths[leaf]!.push(p % 2 === 0 ? { right: level[p + 1]! } : { left: level[p - 1]! })
      }
      return Math.floor(p / 2)
    })
    level = next
  }
  return { root: level[0]!, paths }
}

// ---------------------------------------------------------------------------------------------
// proofValue (hand-written CBOR, cert-issuer layout)

const cborHead = (major: number, n: number): Uint8Array => {
  const m = major << 5
  if (n < 24) return Uint8Array.of(m | n)
  if (n < 0x100) return Uint8Array.of(m | 24, n)
  if (n < 0x10000) return Uint8Array.of(m | 25, n >> 8, n & 0xff)
  if (n < 0x100000000) return Uint8Array.of(m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff)
  throw new Error("cbor: integer too large")
}
const cborInt = (n: number): Uint8Array => (n >= 0 ? cborHead(0, n) : cborHead(1, -1 - n))
const cborText = (s: string): Uint8Array => {
  const bytes = utf8ToBytes(s)
  return concatBytes(cborHead(3, bytes.length), bytes)
}
const cborBytes = (b: Uint8Array): Uint8Array => concatBytes(cborHead(2, b.length), b)
const cborArray = (items: ReadonlyArray<Uint8Array>): Uint8Array => concatBytes(cborHead(4, items.length), ...items)
const pair = (key: number, value: Uint8Array): Uint8Array => cborArray([cborInt(key), value])
/** A hash as cert-issuer writes it: bstr(CBOR(tstr(hex))). */
const wrappedText = (s: string): Uint8Array => cborBytes(cborText(s))

/** Blockcerts chain ids (lds-merkle-proof-2019 Keymap): btc 0, eth 1, mocknet -1. */
export const BLINK_CHAIN_IDS = { btc: 0, eth: 1, mtc: 2, mocknet: -1 } as const

export interface Anchor {
  readonly chain: keyof typeof BLINK_CHAIN_IDS
  /** Network number; for Sigil's EVM anchors the EVM chain id (8453, 84532, 31337). */
  readonly network: number
  /** As the chain reports it, `0x…` for EVM chains. */
  readonly txHash: string
}

export interface DecodedMerkleProof {
  readonly merkleRoot: string
  readonly targetHash: string
  readonly path: ReadonlyArray<{ readonly left: string } | { readonly right: string }>
  readonly anchors: ReadonlyArray<Anchor>
}

export const encodeMerkleProofValue = (proof: DecodedMerkleProof): string => {
  const path = cborArray(proof.path.map((step) =>
    "left" in step ? pair(0, wrappedText(step.left)) : pair(1, wrappedText(step.right))))
  const anchors = cborArray(proof.anchors.map((a) =>
    cborArray([pair(0, cborInt(BLINK_CHAIN_IDS[a.chain])), pair(1, cborInt(a.network)), pair(2, wrappedText(a.txHash))])))
  const cbor = cborArray([
    pair(3, path),
    pair(0, wrappedText(proof.merkleRoot)),
    pair(1, wrappedText(proof.targetHash)),
    pair(2, anchors)
  ])
  return `z${bs58.encode(cbor)}`
}

// ---------------------------------------------------------------------------------------------
// did:web tenant (decisions §3)

export interface DidWebTenant {
  readonly did: string
  /** `https://…/did.json`, where did:web resolves to. */
  readonly didDocumentUrl: string
  readonly didDocument: Record<string, unknown>
  readonly profileUrl: string
  readonly profile: Record<string, unknown>
  readonly secpVerificationMethod: string
  readonly ed25519VerificationMethod: string
}

export interface DidWebTenantOptions {
  /** did_host, e.g. `issuer.example.org` or `localhost%3A8080`. */
  readonly host: string
  /** The tenant suffix (26 lowercase chars in Sigil). */
  readonly suffix: string
  readonly name: string
  readonly secp256k1: Secp256k1TestKey
  /** When the secp256k1 key was created (whole seconds, before any anchor's block time). */
  readonly keyCreated: string
  /** Ed25519 public key as Multikey multibase (`z6Mk…`) and JWK `x`. */
  readonly ed25519: { readonly publicKeyMultibase: string; readonly jwkX: string }
  /** Extra `publicKey` entries of the Blockcerts profile (e.g. other tenant addresses). */
  readonly extraProfileKeys?: ReadonlyArray<{ readonly id: string; readonly created: string }>
}

/** The DID document and Blockcerts issuer profile decisions §3 prescribes for a tenant. */
export const didWebTenant = (o: DidWebTenantOptions): DidWebTenant => {
  const did = `did:web:${o.host}:tenants:${o.suffix}`
  const origin = `https://${decodeURIComponent(o.host)}`
  const profileUrl = `${origin}/tenants/${o.suffix}/profile.json`
  const secpVerificationMethod = `${did}#key-1`
  const ed25519VerificationMethod = `${did}#key-ed25519-1`
  const didDocument = {
    "@context": [
      "https://www.w3.org/ns/did/v1",
      "https://w3id.org/security/suites/secp256k1-2019/v1",
      "https://w3id.org/security/multikey/v1"
    ],
    id: did,
    verificationMethod: [
      { id: secpVerificationMethod, type: "EcdsaSecp256k1VerificationKey2019", controller: did, publicKeyJwk: o.secp256k1.publicKeyJwk },
      {
        id: ed25519VerificationMethod,
        type: "Multikey",
        controller: did,
        publicKeyMultibase: o.ed25519.publicKeyMultibase,
        publicKeyJwk: { kty: "OKP", crv: "Ed25519", x: o.ed25519.jwkX }
      }
    ],
    assertionMethod: [secpVerificationMethod, ed25519VerificationMethod],
    service: [{ id: `${did}#issuer-profile`, type: "IssuerProfile", serviceEndpoint: profileUrl }]
  }
  const profile = {
    "@context": ["https://w3id.org/openbadges/v2", "https://w3id.org/blockcerts/v3"],
    type: "Profile",
    id: profileUrl,
    name: o.name,
    url: origin,
    publicKey: [{ id: `ecdsa-koblitz-pubkey:${o.secp256k1.address}`, created: o.keyCreated }, ...(o.extraProfileKeys ?? [])]
  }
  return {
    did,
    didDocumentUrl: `${origin}/tenants/${o.suffix}/did.json`,
    didDocument,
    profileUrl,
    profile,
    secpVerificationMethod,
    ed25519VerificationMethod
  }
}

// ---------------------------------------------------------------------------------------------
// Merkle proof object

export interface MerkleProofOptions {
  readonly id: string
  readonly created: string
  readonly verificationMethod: string
  readonly proofValue: string
}

/** The Data Integrity form of MerkleProof2019 that cert-issuer emits (decisions §1). */
export const merkleProof2019 = (o: MerkleProofOptions): Record<string, unknown> => ({
  id: o.id,
  type: "DataIntegrityProof",
  cryptosuite: "merkle-proof-2019",
  created: o.created,
  proofPurpose: "assertionMethod",
  verificationMethod: o.verificationMethod,
  proofValue: o.proofValue
})
