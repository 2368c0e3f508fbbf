/**
 * Revocation status lists (decisions §1 "Status lists").
 *
 * Sigil publishes `StatusList2021Credential`s: 131,072 bits, MSB first, gzipped and
 * base64url-encoded **without** the multibase `u` prefix — the only encoding that
 * cert-verifier-js 6.35 decodes (it fails every credential whose list it cannot read). The list
 * credential uses the VC 1.1 context: under VC 2.0 the status-list context collides on
 * `description`. The reader accepts both the unprefixed and the `u`-prefixed (W3C Bitstring)
 * forms, so Sigil's verifier can read third-party lists of either kind.
 *
 * @since 0.1.0
 */
import { Either, Encoding } from "effect"
import { gunzipSync, gzipSync } from "fflate"
import * as Contexts from "./Contexts.js"
import type { JsonObject } from "./Document.js"

/**
 * Entries per list (16 KB of bits, the StatusList2021 minimum that keeps holders anonymous).
 *
 * @since 0.1.0
 * @category constants
 */
export const LIST_SIZE = 131_072

/**
 * An all-zero list.
 *
 * @since 0.1.0
 * @category constructors
 */
export const empty = (size: number = LIST_SIZE): Uint8Array => new Uint8Array(Math.ceil(size / 8))

/**
 * Is bit `index` set? Bit 0 is the most significant bit of byte 0.
 *
 * @since 0.1.0
 * @category combinators
 */
export const isSet = (bits: Uint8Array, index: number): boolean =>
  index >= 0 && index < bits.length * 8 && (bits[index >> 3]! & (0x80 >> (index & 7))) !== 0

/**
 * A copy with bit `index` set.
 *
 * @since 0.1.0
 * @category combinators
 */
export const set = (bits: Uint8Array, index: number): Uint8Array => {
  const copy = bits.slice()
  copy[index >> 3] = copy[index >> 3]! | (0x80 >> (index & 7))
  return copy
}

/**
 * base64url(gzip(bits)), no prefix, no padding.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (bits: Uint8Array): string => Encoding.encodeBase64Url(gzipSync(bits, { mtime: 0 }))

/**
 * Decodes an `encodedList`, with or without the multibase `u` prefix.
 *
 * @since 0.1.0
 * @category encoding
 */
export const decode = (encodedList: string): Either.Either<Uint8Array, string> => {
  // Unprefixed gzip always starts "H4sI"; a leading "u" can only be the multibase prefix.
  const text = encodedList.startsWith("u") ? encodedList.slice(1) : encodedList
  return Encoding.decodeBase64Url(text).pipe(
    Either.mapLeft(() => "encodedList is not base64url"),
    Either.flatMap((gz) => {
      try {
        return Either.right(gunzipSync(gz))
      } catch {
        return Either.left("encodedList is not gzip")
      }
    })
  )
}

/**
 * The unsigned status-list credential Sigil publishes at `id`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const credential = (args: {
  readonly id: string
  readonly issuer: string
  readonly issuanceDate: string
  readonly bits: Uint8Array
}): JsonObject => ({
  "@context": [Contexts.VC_V1, Contexts.STATUS_LIST_2021, "https://w3id.org/security/data-integrity/v2"],
  id: args.id,
  type: ["VerifiableCredential", "StatusList2021Credential"],
  issuer: args.issuer,
  issuanceDate: args.issuanceDate,
  credentialSubject: {
    id: `${args.id}#list`,
    type: "StatusList2021",
    statusPurpose: "revocation",
    encodedList: encode(args.bits)
  }
})
