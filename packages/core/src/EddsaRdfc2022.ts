/**
 * The `eddsa-rdfc-2022` Data Integrity cryptosuite (W3C VC Data Integrity EdDSA Cryptosuites
 * v1.0, §3.3): Ed25519 over sha256(canonical proof options) ‖ sha256(canonical document).
 *
 * The document half is exactly the Blockcerts `targetHash` of the document without `proof`,
 * so issuing canonicalizes each credential once for both proofs (decisions §1). The proof
 * options half is the same for every credential of a batch that shares `created`, the
 * verification method and the `@context`, so callers may compute it once (`optionsHash`).
 *
 * @since 0.1.0
 */
import { concatBytes } from "@noble/hashes/utils.js"
import { Effect } from "effect"
import * as Canonicalizer from "./Canonicalizer.js"
import type { Json, JsonObject } from "./Document.js"
import * as Base58 from "./internal/base58.js"
import { BoundedMap } from "./BoundedMap.js"
import * as Primitives from "./Primitives.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const CRYPTOSUITE = "eddsa-rdfc-2022"

/**
 * The proof object minus its `proofValue`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProofOptions {
  readonly verificationMethod: string
  /** RFC 3339 with `Z` (cert-verifier-js rejects dates without a zone). */
  readonly created: string
  readonly proofPurpose?: string | undefined
}

/**
 * The proof configuration that is canonicalized and hashed: the proof options plus the
 * document's `@context`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const proofConfig = (context: Json | undefined, options: ProofOptions): JsonObject => ({
  ...(context === undefined ? {} : { "@context": context }),
  type: "DataIntegrityProof",
  cryptosuite: CRYPTOSUITE,
  created: options.created,
  verificationMethod: options.verificationMethod,
  proofPurpose: options.proofPurpose ?? "assertionMethod"
})

/**
 * sha256 of the canonical proof configuration.
 *
 * @since 0.1.0
 * @category hashing
 */
export const optionsHash = (
  context: Json | undefined,
  options: ProofOptions
): Effect.Effect<Uint8Array, Canonicalizer.CanonicalizationError, Canonicalizer.Canonicalizer> =>
  Effect.flatMap(Canonicalizer.Canonicalizer, (c) => c.canonicalize(proofConfig(context, options))).pipe(
    Effect.map(Primitives.sha256Utf8)
  )

/**
 * The bytes that are signed.
 *
 * @since 0.1.0
 * @category hashing
 */
export const signingInput = (optionsHashBytes: Uint8Array, documentHash: Uint8Array): Uint8Array =>
  concatBytes(optionsHashBytes, documentHash)

/**
 * Makes the proof object from a signature (`z` + base58btc, the multibase of the spec).
 *
 * @since 0.1.0
 * @category constructors
 */
export const proofObject = (options: ProofOptions, signature: Uint8Array): JsonObject => ({
  type: "DataIntegrityProof",
  cryptosuite: CRYPTOSUITE,
  created: options.created,
  verificationMethod: options.verificationMethod,
  proofPurpose: options.proofPurpose ?? "assertionMethod",
  proofValue: `z${Base58.encode(signature)}`
})

/**
 * Signs a document whose hash (sha256 of its canonical form without `proof`) is known.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = <E>(args: {
  readonly context: Json | undefined
  readonly documentHash: Uint8Array
  readonly options: ProofOptions
  readonly optionsHash: Uint8Array
  readonly sign: (message: Uint8Array) => Effect.Effect<Uint8Array, E>
}): Effect.Effect<JsonObject, E> =>
  Effect.map(args.sign(signingInput(args.optionsHash, args.documentHash)), (signature) =>
    proofObject(args.options, signature))

/**
 * Is this proof an eddsa-rdfc-2022 Data Integrity proof?
 *
 * @since 0.1.0
 * @category guards
 */
export const isEddsaProof = (proof: { readonly [key: string]: unknown }): boolean =>
  proof.type === "DataIntegrityProof" && proof.cryptosuite === CRYPTOSUITE

// The proof configuration is the same for every credential of a batch (same `created`, key and
// context), and canonicalization is a pure function of it: remember the last few hashes.
const configHashes = new BoundedMap<string, Uint8Array>(256)

/**
 * Why a proof does not verify, or `undefined` when it does. The document is the whole secured
 * document; the proof is one of its proofs (neither carries `previousProof`, decisions §1).
 *
 * @since 0.1.0
 * @category verification
 */
export const verify = (
  document: JsonObject,
  proof: JsonObject,
  publicKey: Uint8Array,
  options: {
    /**
     * sha256 of the canonical document without `proof`, when the caller has it already (the
     * verifier computed it for the Merkle proof): it is not canonicalized again.
     */
    readonly documentHash?: Uint8Array | undefined
  } = {}
): Effect.Effect<string | undefined, Canonicalizer.CanonicalizationError, Canonicalizer.Canonicalizer> => {
  const { proofValue, ...proofOptions } = proof
  if (typeof proofValue !== "string" || !proofValue.startsWith("z")) return Effect.succeed("proofValue is not base58btc multibase")
  const signature = Base58.decodeUnsafe(proofValue.slice(1))
  if (signature === undefined) return Effect.succeed("proofValue is not base58btc multibase")
  if (signature.length !== 64) return Effect.succeed("the signature is not 64 bytes")
  const check = (configHash: Uint8Array, documentHash: Uint8Array): string | undefined =>
    Primitives.ed25519Verify(signature, signingInput(configHash, documentHash), publicKey)
      ? undefined
      : "the Ed25519 signature does not match the document"
  const config = { ...proofOptions, "@context": document["@context"] ?? null }
  const configKey = JSON.stringify(config)
  const cached = configHashes.get(configKey)
  // The common case when a verifier checks a batch: nothing to canonicalize, no fiber steps.
  if (cached !== undefined && options.documentHash !== undefined) {
    const documentHash = options.documentHash
    return Effect.sync(() => check(cached, documentHash))
  }
  return Effect.gen(function*() {
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    let configHash = cached
    if (configHash === undefined) {
      configHash = Primitives.sha256Utf8(yield* canonicalizer.canonicalize(config))
      configHashes.set(configKey, configHash)
    }
    let documentHash = options.documentHash
    if (documentHash === undefined) {
      const { proof: _proof, ...unsecured } = document
      documentHash = Primitives.sha256Utf8(yield* canonicalizer.canonicalize(unsecured))
    }
    return check(configHash, documentHash)
  })
}
