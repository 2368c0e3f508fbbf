/**
 * Verifies (and, for building test credentials, creates) eddsa-rdfc-2022 Data Integrity proofs with
 * Digital Bazaar's reference stack: `@digitalbazaar/vc` 7.3 `verifyCredential` + `DataIntegrityProof`
 * (`@digitalbazaar/data-integrity` 2.5) + `eddsa-rdfc-2022-cryptosuite` 1.3 + `Ed25519Multikey` 1.3.
 *
 * Offline: the document loader serves Sigil's contexts plus the given documents (DID documents,
 * controller documents, profiles). A verification method `X#frag` is resolved from the document
 * `X` by id (absolute or `#frag`) and returned with that document's `@context`. Anything else
 * throws and is recorded in `unexpected`.
 *
 * What the stack checks besides the signature: the proof's verification method must be listed
 * under `assertionMethod` in its controller's document, and `@digitalbazaar/vc`'s
 * CredentialIssuancePurpose requires that controller to equal the credential's `issuer` (so a
 * Sigil issuer DID must be the controller of its signing key; decisions §3). A Merkle proof in the
 * `proof` array is ignored (no suite matches it).
 */
import { DataIntegrityProof } from "@digitalbazaar/data-integrity"
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey"
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite"
import * as vc from "@digitalbazaar/vc"
import { getContext } from "./contexts.js"
import { withFetchStub } from "./fetchStub.js"
import type { DocumentLoader } from "./jsonldLib.js"

export interface OfflineLoader {
  readonly documentLoader: DocumentLoader
  /** Every URL the verifier asked for. */
  readonly loaded: ReadonlyArray<string>
  /** URLs that were neither a context nor a given document (the loader threw). */
  readonly unexpected: ReadonlyArray<string>
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined

/** Finds the node `url` (= `base#frag`) in document `base` (`verificationMethod` first, then any top-level array). */
const findNode = (doc: Record<string, unknown>, base: string, url: string): Record<string, unknown> | undefined => {
  const fragment = url.slice(base.length)
  const matches = (node: unknown): boolean => {
    const id = asRecord(node)?.["id"]
    return id === url || id === fragment || (typeof id === "string" && `${base}${id}` === url)
  }
  const candidates = [
    ...([] as Array<unknown>).concat(doc["verificationMethod"] ?? []),
    ...Object.entries(doc).filter(([k]) => k !== "@context" && k !== "verificationMethod").flatMap(([, v]) => ([] as Array<unknown>).concat(v))
  ]
  const node = asRecord(candidates.find(matches))
  return node === undefined ? undefined : { "@context": doc["@context"], ...node, id: url }
}

/** A jsonld document loader over Sigil's contexts plus `documents` (URL or DID → JSON). */
export const offlineLoader = (documents: Readonly<Record<string, unknown>> = {}): OfflineLoader => {
  const loaded: Array<string> = []
  const unexpected: Array<string> = []
  const documentLoader: DocumentLoader = async (url) => {
    loaded.push(url)
    const context = getContext(url)
    if (context !== undefined) return { contextUrl: null, documentUrl: url, document: context }
    if (Object.prototype.hasOwnProperty.call(documents, url)) {
      return { contextUrl: null, documentUrl: url, document: structuredClone(documents[url]) }
    }
    const base = url.split("#")[0] ?? url
    const container = asRecord(documents[base])
    const node = base !== url && container !== undefined ? findNode(container, base, url) : undefined
    if (node !== undefined) return { contextUrl: null, documentUrl: url, document: structuredClone(node) }
    unexpected.push(url)
    throw new Error(`offline documentLoader: no document for ${url}`)
  }
  return { documentLoader, loaded, unexpected }
}

export interface DigitalBazaarResult {
  readonly verified: boolean
  /** True when the credential has `credentialStatus` and no `checkStatus` was given (status not checked). */
  readonly statusSkipped: boolean
  /** The error messages of the failed proofs / checks (flattened). */
  readonly errors: ReadonlyArray<string>
  /** Every URL the document loader was asked for. */
  readonly loaded: ReadonlyArray<string>
  /** Loader misses, plus any fetch / socket attempt (there must be none). */
  readonly unexpected: ReadonlyArray<string>
  /** The raw `verifyCredential` result, for debugging. */
  readonly raw: vc.VerifyCredentialResult
}

const messagesOf = (error: unknown): Array<string> => {
  const e = asRecord(error)
  if (e === undefined) return error === undefined ? [] : [String(error)]
  const nested = Array.isArray(e["errors"]) ? (e["errors"] as Array<unknown>).flatMap(messagesOf) : []
  const own = typeof e["message"] === "string" ? [e["message"]] : []
  return [...own, ...nested]
}

export interface DigitalBazaarOptions {
  /** URL/DID → JSON: DID documents, controller documents, profiles. */
  readonly documents?: Readonly<Record<string, unknown>>
  /** Verification time (defaults to now). */
  readonly now?: string
  /**
   * `@digitalbazaar/vc` refuses a credential with `credentialStatus` unless given a status checker.
   * Default: a checker that accepts (this harness checks proofs; status is reported as skipped).
   */
  readonly checkStatus?: (options: unknown) => Promise<{ verified: boolean }>
}

/** Verifies the eddsa-rdfc-2022 proof(s) of `credential` with `@digitalbazaar/vc`. Never throws. */
export const verifyWithDigitalBazaar = async (
  credential: unknown,
  options: DigitalBazaarOptions = {}
): Promise<DigitalBazaarResult> => {
  const loader = offlineLoader(options.documents)
  const hasStatus = asRecord(credential)?.["credentialStatus"] !== undefined
  const statusSkipped = hasStatus && options.checkStatus === undefined
  // No route: the loader answers everything, so any fetch or socket at all is unexpected.
  const stubbed = await withFetchStub({}, () =>
    vc.verifyCredential({
      credential: structuredClone(credential),
      suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
      documentLoader: loader.documentLoader,
      checkStatus: options.checkStatus ?? (async () => ({ verified: true })),
      ...(options.now !== undefined ? { now: options.now } : {})
    }))
  const raw = stubbed.value
  const errors = [
    ...messagesOf(raw.error),
    ...(raw.results ?? []).flatMap((r) => messagesOf(r.error))
  ]
  return {
    verified: raw.verified,
    statusSkipped,
    errors: [...new Set(errors)],
    loaded: loader.loaded,
    unexpected: [...loader.unexpected, ...stubbed.unexpected],
    raw
  }
}

/** A deterministic Ed25519 test key pair whose verification method is `id` (controller = `controller`). */
export const ed25519TestKey = (options: { seed: Uint8Array; id: string; controller: string }): Promise<Ed25519Multikey.Ed25519KeyPair> =>
  Ed25519Multikey.generate(options)

/** The JWK `x` of an Ed25519 key pair (for the OKP `publicKeyJwk` cert-verifier-js reads). */
export const ed25519JwkX = async (keyPair: Ed25519Multikey.Ed25519KeyPair): Promise<string> =>
  (await Ed25519Multikey.toJwk({ keyPair })).x

/**
 * Returns the eddsa-rdfc-2022 proof `keyPair` makes over `credential` (which must carry no
 * `proof`), as `@digitalbazaar/vc` `issue` creates it. Only for building test credentials.
 */
export const signEddsaRdfc2022 = async (
  credential: Record<string, unknown>,
  keyPair: Ed25519Multikey.Ed25519KeyPair,
  created: string,
  documents: Readonly<Record<string, unknown>> = {}
): Promise<Record<string, unknown>> => {
  const signed = await vc.issue({
    credential: structuredClone(credential),
    suite: new DataIntegrityProof({ signer: keyPair.signer(), date: created, cryptosuite: eddsaRdfc2022 }),
    documentLoader: offlineLoader(documents).documentLoader
  })
  const proof = asRecord(signed["proof"])
  if (proof === undefined) throw new Error("signEddsaRdfc2022: no proof produced")
  return proof
}

/**
 * A minimal controller document for an https issuer whose key id is `<id>#<publicKeyMultibase>`
 * (the 1EdTech validator fixtures): one Multikey, listed under `assertionMethod`. The DID context
 * comes first so that jsonld-signatures reads `assertionMethod` directly instead of framing.
 */
export const multikeyControllerDocument = (id: string, publicKeyMultibase: string): Record<string, unknown> => ({
  "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
  id,
  verificationMethod: [{ id: `${id}#${publicKeyMultibase}`, type: "Multikey", controller: id, publicKeyMultibase }],
  assertionMethod: [`${id}#${publicKeyMultibase}`]
})
