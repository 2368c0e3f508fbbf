/**
 * API keys (decisions §3): `sigil_<env>_` + base58 of 32 random bytes. Only the SHA-256 of a
 * key is stored; lookups go by that hash and the comparison is constant-time.
 *
 * @since 0.1.0
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import * as Base58 from "@sigil/core/Base58"
import type { Environment } from "../Tenants/Plans.js"

const FORMAT = /^sigil_(test|live)_([1-9A-HJ-NP-Za-km-z]{40,48})$/

/**
 * A fresh key for an environment.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generate = (environment: Environment): string => `sigil_${environment}_${Base58.encode(randomBytes(32))}`

/**
 * The environment of a well-formed key, or undefined for anything else (wrong prefix, wrong
 * alphabet, not 32 bytes).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (key: string): Environment | undefined => {
  const match = FORMAT.exec(key)
  if (match === null) return undefined
  try {
    return Base58.decode(match[2]!).length === 32 ? (match[1] as Environment) : undefined
  } catch {
    return undefined
  }
}

/**
 * The stored form: hex SHA-256 of the whole key.
 *
 * @since 0.1.0
 * @category hashing
 */
export const hash = (key: string): string => bytesToHex(sha256(utf8ToBytes(key)))

/**
 * Compares two hex strings in time independent of where they differ.
 *
 * @since 0.1.0
 * @category hashing
 */
export const constantTimeEqual = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return diff === 0
}
