/**
 * Base58 (Bitcoin alphabet), as multibase `z…` values and Sigil's API keys use it. Decoding runs
 * in WebAssembly where the host allows it and in JavaScript otherwise, with the same bytes.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/base58.js"

/**
 * @since 0.1.0
 * @category encoding
 */
export const encode: (bytes: Uint8Array) => string = internal.encode

/**
 * Throws on a character outside the alphabet.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode: (text: string) => Uint8Array = internal.decode

/**
 * `undefined` on a character outside the alphabet.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeUnsafe: (text: string) => Uint8Array | undefined = internal.decodeUnsafe
