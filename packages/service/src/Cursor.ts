/**
 * Pagination cursors (decisions §6): opaque, HMAC-protected, keyset on (created_at, id),
 * valid 24 h, and bound to the filter they were issued for.
 *
 * @since 0.1.0
 */
import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { utf8ToBytes } from "@noble/hashes/utils.js"
import { Either, Encoding } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly createdAt: Date
  readonly id: string
  /** The filter the cursor belongs to (e.g. the status); a cursor used with another filter is refused. */
  readonly scope: string
}

/**
 * @since 0.1.0
 * @category constants
 */
export const TTL_MS = 24 * 60 * 60 * 1000

const mac = (key: Uint8Array, payload: string) => Encoding.encodeBase64Url(hmac(sha256, key, utf8ToBytes(payload)).slice(0, 16))

/**
 * @since 0.1.0
 * @category encoding
 */
export const encode = (key: Uint8Array, position: Position, issuedAt: Date): string => {
  const payload = Encoding.encodeBase64Url(
    JSON.stringify([position.createdAt.getTime(), position.id, position.scope, issuedAt.getTime()])
  )
  return `${payload}.${mac(key, payload)}`
}

/**
 * The position, or why the cursor is refused (forged, malformed, expired, other filter).
 *
 * @since 0.1.0
 * @category encoding
 */
export const decode = (key: Uint8Array, cursor: string, scope: string, now: Date): Either.Either<Position, string> => {
  const [payload, tag, extra] = cursor.split(".")
  if (payload === undefined || tag === undefined || extra !== undefined || mac(key, payload) !== tag) {
    return Either.left("the cursor is not one this API issued")
  }
  return Encoding.decodeBase64UrlString(payload).pipe(
    Either.mapLeft(() => "the cursor is malformed"),
    Either.flatMap((text) => {
      const parsed: unknown = JSON.parse(text)
      if (!Array.isArray(parsed) || parsed.length !== 4) return Either.left("the cursor is malformed")
      const [createdAt, id, cursorScope, issuedAt] = parsed as [number, string, string, number]
      if (now.getTime() - issuedAt > TTL_MS) return Either.left("the cursor has expired (cursors are valid 24 h)")
      if (cursorScope !== scope) return Either.left("the cursor belongs to another filter")
      return Either.right({ createdAt: new Date(createdAt), id, scope: cursorScope })
    })
  )
}
