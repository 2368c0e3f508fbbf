/**
 * Verification of `EcdsaSecp256k1Signature2019` proofs (Linked Data Signatures with a detached,
 * unencoded-payload JWS, ES256K). Sigil never signs with it; Blockcerts status lists are signed
 * with it, and Sigil's verifier must read them as cert-verifier-js does.
 *
 * @internal
 */
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import { Effect, Either, Encoding } from "effect"
import * as Canonicalizer from "../Canonicalizer.js"
import type { JsonObject } from "../Document.js"

/** @internal */
export const PROOF_TYPE = "EcdsaSecp256k1Signature2019"

/**
 * Why the proof does not verify with this secp256k1 public key, or `undefined` when it does.
 *
 * @internal
 */
export const verify = (
  document: JsonObject,
  proof: JsonObject,
  publicKey: Uint8Array
): Effect.Effect<string | undefined, Canonicalizer.CanonicalizationError, Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    const jws = proof.jws
    if (typeof jws !== "string") return "the proof has no jws"
    const [encodedHeader, payload, encodedSignature] = jws.split(".")
    if (encodedHeader === undefined || payload !== "" || encodedSignature === undefined) return "the jws is not detached"
    const header = Encoding.decodeBase64UrlString(encodedHeader).pipe(Either.getOrUndefined)
    if (header === undefined || !/"alg"\s*:\s*"ES256K"/.test(header) || !/"b64"\s*:\s*false/.test(header)) {
      return "the jws header is not ES256K with an unencoded payload"
    }
    const signature = Encoding.decodeBase64Url(encodedSignature).pipe(Either.getOrUndefined)
    if (signature === undefined || signature.length !== 64) return "the jws signature is not 64 bytes"
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const { proof: _proof, ...unsecured } = document
    const { jws: _jws, ...options } = proof
    const [optionsNquads, documentNquads] = yield* Effect.all([
      canonicalizer.canonicalize({ "@context": document["@context"] ?? null, ...options }),
      canonicalizer.canonicalize(unsecured)
    ])
    const verifyData = concatBytes(sha256(utf8ToBytes(optionsNquads)), sha256(utf8ToBytes(documentNquads)))
    const signingInput = concatBytes(utf8ToBytes(`${encodedHeader}.`), verifyData)
    let valid = false
    try {
      valid = secp256k1.verify(signature, sha256(signingInput), publicKey, { prehash: false, lowS: false })
    } catch {
      valid = false
    }
    return valid ? undefined : "the ES256K signature does not match the document"
  })
