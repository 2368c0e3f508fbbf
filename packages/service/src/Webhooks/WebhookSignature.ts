/**
 * Standard Webhooks signatures (decisions §5): `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, the secret being `whsec_` + base64 of 32 random bytes.
 *
 * @since 0.1.0
 */
import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { randomBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import { Either, Encoding } from "effect"

/**
 * A new signing secret.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateSecret = (): string => `whsec_${Encoding.encodeBase64(randomBytes(32))}`

const keyOf = (secret: string): Uint8Array | undefined =>
  Encoding.decodeBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret).pipe(Either.getOrUndefined)

/**
 * The `webhook-signature` header value for a message.
 *
 * @since 0.1.0
 * @category signing
 */
export const sign = (secret: string, id: string, timestamp: number, body: string): string => {
  const key = keyOf(secret)
  if (key === undefined) throw new TypeError("the webhook secret is not base64")
  return `v1,${Encoding.encodeBase64(hmac(sha256, key, utf8ToBytes(`${id}.${timestamp}.${body}`)))}`
}

/**
 * The three headers of a delivery.
 *
 * @since 0.1.0
 * @category signing
 */
export const headers = (secret: string, id: string, timestamp: Date, body: string): Readonly<Record<string, string>> => {
  const seconds = Math.floor(timestamp.getTime() / 1000)
  return {
    "webhook-id": id,
    "webhook-timestamp": String(seconds),
    "webhook-signature": sign(secret, id, seconds, body)
  }
}

/**
 * Verifies a delivery as a receiver should: one of the space-separated `v1,` signatures
 * matches, and the timestamp is within `toleranceSeconds` of `now`.
 *
 * @since 0.1.0
 * @category verification
 */
export const verify = (args: {
  readonly secret: string
  readonly headers: { readonly [name: string]: string | undefined }
  readonly body: string
  readonly now: Date
  readonly toleranceSeconds?: number
}): boolean => {
  const id = args.headers["webhook-id"]
  const timestamp = Number(args.headers["webhook-timestamp"])
  const signatures = args.headers["webhook-signature"]
  if (id === undefined || !Number.isInteger(timestamp) || signatures === undefined) return false
  if (Math.abs(args.now.getTime() / 1000 - timestamp) > (args.toleranceSeconds ?? 300)) return false
  let expected: string
  try {
    expected = sign(args.secret, id, timestamp, args.body)
  } catch {
    return false
  }
  return signatures.split(" ").some((candidate) => constantTimeEqual(candidate, expected))
}

const constantTimeEqual = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return diff === 0
}
