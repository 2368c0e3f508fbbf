/**
 * `node:crypto` implementations of core's `Primitives` — the same bytes as @noble, faster:
 * SHA-256 ≈10× (OpenSSL, one-shot `crypto.hash`), Ed25519 signing ≈15× and verification
 * ≈20× (OpenSSL, with the key objects kept).
 *
 * Key objects: OpenSSL needs a `KeyObject` per key, and making one from a raw Ed25519 seed
 * costs more than a signature (≈40 µs; ≈400 µs from DER). Private key objects are kept for
 * `SIGNING_KEY_TTL_MS` after their last use, by the SHA-256 of the seed (the seed itself is
 * never kept in JS memory: the vaults zero theirs after each call, and the cache does not
 * hold a copy), at most `MAX_SIGNING_KEYS` of them. The key material lives in OpenSSL's
 * memory for that long — the price of signing a 500-credential batch in milliseconds instead
 * of tens of them. Public key objects are kept in a bounded map.
 *
 * Installed by the server at startup (`install`), in the main thread and in every worker.
 *
 * @since 0.1.0
 */
import * as BoundedMap from "../BoundedMap.js"
import * as Primitives from "../Primitives.js"
import { Effect, Layer } from "effect"
import { createPrivateKey, createPublicKey, hash, type KeyObject, sign, verify } from "node:crypto"

/**
 * How long an unused private key object is kept.
 *
 * @since 0.1.0
 * @category constants
 */
export const SIGNING_KEY_TTL_MS = 30_000

/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_SIGNING_KEYS = 64

// Public keys of the issuers a process verifies: 4,096 of them, at ≈200 bytes each, under 1 MB.
const MAX_VERIFY_KEYS = 4096

const copy = (buffer: Buffer): Uint8Array => new Uint8Array(buffer)

const signingKeys = new Map<string, { readonly key: KeyObject; lastUse: number }>()
const verifyKeys = BoundedMap.make<string, KeyObject>(MAX_VERIFY_KEYS)

const signingKey = (seed: Uint8Array): KeyObject => {
  const id = hash("sha256", seed, "hex")
  const now = Date.now()
  const cached = signingKeys.get(id)
  if (cached !== undefined && now - cached.lastUse < SIGNING_KEY_TTL_MS) {
    cached.lastUse = now
    return cached.key
  }
  for (const [k, entry] of signingKeys) {
    if (now - entry.lastUse >= SIGNING_KEY_TTL_MS) signingKeys.delete(k)
  }
  if (signingKeys.size >= MAX_SIGNING_KEYS) signingKeys.delete(signingKeys.keys().next().value!)
  // JWK is OpenSSL's raw-key path (DER goes through the decoder framework, 10× slower).
  const key = createPrivateKey({
    key: { kty: "OKP", crv: "Ed25519", d: Buffer.from(seed.buffer, seed.byteOffset, seed.length).toString("base64url"), x: "" },
    format: "jwk"
  })
  signingKeys.set(id, { key, lastUse: now })
  return key
}

const verifyKey = (publicKey: Uint8Array): KeyObject | undefined => {
  if (publicKey.length !== 32) return undefined
  const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.length).toString("base64url")
  let key = verifyKeys.get(id)
  if (key === undefined) {
    try {
      key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: id }, format: "jwk" })
    } catch {
      return undefined
    }
    verifyKeys.set(id, key)
  }
  return key
}

/**
 * @since 0.1.0
 * @category constants
 */
export const primitives: Primitives.Primitives = {
  name: "node:crypto",
  sha256: (data) => copy(hash("sha256", data, "buffer")),
  // Node's UTF-8 encoder writes a lone surrogate as U+FFFD, as TextEncoder does.
  sha256Utf8: (text) => copy(hash("sha256", text, "buffer")),
  sha256Utf8Hex: (text) => hash("sha256", text, "hex"),
  ed25519Sign: (secretKey, message) => {
    if (secretKey.length !== 32) return Primitives.noble.ed25519Sign(secretKey, message)
    return copy(sign(null, message, signingKey(secretKey)))
  },
  ed25519Verify: (signature, message, publicKey) => {
    if (signature.length !== 64) return false
    const key = verifyKey(publicKey)
    if (key === undefined) return false
    try {
      return verify(null, message, key, signature)
    } catch {
      return false
    }
  }
}

/**
 * Installs them in this thread (workers call it too).
 *
 * @since 0.1.0
 * @category installing
 */
export const install = (): void => Primitives.install(primitives)

/**
 * Installs them when the layer is built (the server's services layer).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<never> = Layer.effectDiscard(Effect.sync(install))

/**
 * Forgets the cached private key objects now (tests; a key rotation).
 *
 * @since 0.1.0
 * @category installing
 */
export const clearSigningKeys = (): void => signingKeys.clear()
