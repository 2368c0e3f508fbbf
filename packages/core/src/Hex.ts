/**
 * Hex strings and bytes. Hashes travel as lowercase hex without `0x` inside Blockcerts proofs
 * and with `0x` on the API and on chain; these helpers keep the two apart.
 *
 * @since 0.1.0
 */
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Schema } from "effect"

/**
 * A `0x`-prefixed, lowercase, even-length hex string.
 *
 * @since 0.1.0
 * @category models
 */
export const Hex = Schema.String.pipe(Schema.pattern(/^0x(?:[0-9a-f]{2})*$/), Schema.brand("Hex"))
export type Hex = typeof Hex.Type

/**
 * A 32-byte hash as `0x` + 64 lowercase hex characters (a Merkle root, a transaction hash).
 *
 * @since 0.1.0
 * @category models
 */
export const Hash32 = Schema.String.pipe(Schema.pattern(/^0x[0-9a-f]{64}$/), Schema.brand("Hash32"))
export type Hash32 = typeof Hash32.Type

/**
 * @since 0.1.0
 * @category conversions
 */
export const fromBytes = (bytes: Uint8Array): Hex => `0x${bytesToHex(bytes)}` as Hex

/**
 * Accepts hex with or without `0x`, in any case.
 *
 * @since 0.1.0
 * @category conversions
 */
export const toBytes = (hex: string): Uint8Array => hexToBytes(strip(hex).toLowerCase())

/**
 * Removes a leading `0x`, if any.
 *
 * @since 0.1.0
 * @category conversions
 */
export const strip = (hex: string): string => (hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex)

/**
 * `0x` + lowercase hex of any hex string (with or without `0x`).
 *
 * @since 0.1.0
 * @category conversions
 */
export const normalize = (hex: string): Hex => `0x${strip(hex).toLowerCase()}` as Hex

/**
 * @since 0.1.0
 * @category conversions
 */
export const hash32 = (hex: string): Hash32 => Schema.decodeSync(Hash32)(normalize(hex))

/**
 * Lowercase hex without prefix, the form Blockcerts uses inside proofValues.
 *
 * @since 0.1.0
 * @category conversions
 */
export const bare = (bytes: Uint8Array): string => bytesToHex(bytes)

// Hex digit (either case) → value, -1 for anything else.
const DIGITS = new Int8Array(256).fill(-1)
for (let i = 0; i < 16; i++) {
  DIGITS["0123456789abcdef".charCodeAt(i)] = i
  DIGITS["0123456789ABCDEF".charCodeAt(i)] = i
}

/**
 * The 32 bytes of a hash written as 64 hex digits (either case, no `0x`), or `undefined` for
 * anything else, untrusted input included. One pass, no regular expression: checking a Merkle
 * path parses a dozen of these per credential.
 *
 * @since 0.1.0
 * @category parsing
 */
export const hash32Bytes = (hex: unknown): Uint8Array | undefined => {
  if (typeof hex !== "string" || hex.length !== 64) return undefined
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) {
    const high = hex.charCodeAt(2 * i)
    const low = hex.charCodeAt(2 * i + 1)
    const h = high < 256 ? DIGITS[high]! : -1
    const l = low < 256 ? DIGITS[low]! : -1
    if ((h | l) < 0) return undefined
    out[i] = (h << 4) | l
  }
  return out
}

const decoder = new TextDecoder()

/**
 * A hash written as 64 ASCII hex digits (either case) at `bytes[from..from + 64)`, as 64
 * lowercase hex digits, or `undefined` when they are not that. The hashes inside a
 * MerkleProof2019 proofValue are written so.
 *
 * @since 0.1.0
 * @category parsing
 */
export const hash32FromAscii = (bytes: Uint8Array, from: number): string | undefined => {
  if (bytes.length < from + 64) return undefined
  let upper = false
  for (let i = from; i < from + 64; i++) {
    const c = bytes[i]!
    if (DIGITS[c]! < 0) return undefined
    if (c >= 65 && c <= 70) upper = true
  }
  // Hex digits are ASCII, so UTF-8 decoding reads them as they are.
  const text = decoder.decode(bytes.subarray(from, from + 64))
  return upper ? text.toLowerCase() : text
}
