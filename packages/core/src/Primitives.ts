/**
 * The cryptographic primitives of the hot paths — SHA-256, Ed25519 signing and verification —
 * behind one small seam.
 *
 * Core must run in the browser (the verification page bundles it), so its default is pure
 * JavaScript (@noble). A Node process may install faster implementations of the *same*
 * functions (the server installs `node:crypto` ones at startup: SHA-256 ≈10× and Ed25519
 * signing ≈15× faster). Every caller goes through this module — canonical hashes, Merkle
 * trees, eddsa-rdfc-2022 proofs, the key vaults' `signWithSecret` — so installing once
 * speeds up all of them; the results are the same bytes whatever is installed (Ed25519 is
 * deterministic, RFC 8032).
 *
 * @since 0.1.0
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Primitives {
  /** For logs and benchmarks: which implementation is installed. */
  readonly name: string
  readonly sha256: (data: Uint8Array) => Uint8Array
  /** SHA-256 of a string's UTF-8 bytes (lone surrogates encoded as U+FFFD, as TextEncoder does). */
  readonly sha256Utf8: (text: string) => Uint8Array
  /** The same, as lowercase hex (the form RDFC-1.0 compares blank node hashes in). */
  readonly sha256Utf8Hex: (text: string) => string
  /** Ed25519 (RFC 8032, pure) with a 32-byte secret seed. */
  readonly ed25519Sign: (secretKey: Uint8Array, message: Uint8Array) => Uint8Array
  /** Ed25519 verification with a 32-byte public key. Never throws: malformed input is `false`. */
  readonly ed25519Verify: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean
}

/**
 * The pure JavaScript implementations (@noble/hashes, @noble/curves): the default, and what
 * the browser uses.
 *
 * @since 0.1.0
 * @category constants
 */
export const noble: Primitives = {
  name: "noble",
  sha256: (data) => nobleSha256(data),
  sha256Utf8: (text) => nobleSha256(utf8ToBytes(text)),
  sha256Utf8Hex: (text) => bytesToHex(nobleSha256(utf8ToBytes(text))),
  ed25519Sign: (secretKey, message) => ed25519.sign(message, secretKey),
  ed25519Verify: (signature, message, publicKey) => {
    try {
      return ed25519.verify(signature, message, publicKey)
    } catch {
      return false
    }
  }
}

let active: Primitives = noble

/**
 * Installs faster implementations (any subset; the rest stay @noble). Call it once at
 * startup, before work begins: it is process-wide (per thread, for worker threads).
 *
 * @since 0.1.0
 * @category installing
 */
export const install = (primitives: Partial<Primitives> & { readonly name: string }): void => {
  active = { ...noble, ...primitives }
}

/**
 * Back to the pure JavaScript implementations.
 *
 * @since 0.1.0
 * @category installing
 */
export const reset = (): void => {
  active = noble
}

/**
 * The implementations in use.
 *
 * @since 0.1.0
 * @category getters
 */
export const current = (): Primitives => active

/**
 * @since 0.1.0
 * @category hashing
 */
export const sha256 = (data: Uint8Array): Uint8Array => active.sha256(data)

/**
 * @since 0.1.0
 * @category hashing
 */
export const sha256Utf8 = (text: string): Uint8Array => active.sha256Utf8(text)

/**
 * @since 0.1.0
 * @category hashing
 */
export const sha256Utf8Hex = (text: string): string => active.sha256Utf8Hex(text)

/**
 * @since 0.1.0
 * @category signing
 */
export const ed25519Sign = (secretKey: Uint8Array, message: Uint8Array): Uint8Array =>
  active.ed25519Sign(secretKey, message)

/**
 * @since 0.1.0
 * @category signing
 */
export const ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean =>
  active.ed25519Verify(signature, message, publicKey)

/**
 * SHA-256 of the concatenation of two byte strings (a Merkle parent, an eddsa signing input).
 *
 * @since 0.1.0
 * @category hashing
 */
export const sha256Pair = (left: Uint8Array, right: Uint8Array): Uint8Array => {
  const joined = new Uint8Array(left.length + right.length)
  joined.set(left, 0)
  joined.set(right, left.length)
  return active.sha256(joined)
}
