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
