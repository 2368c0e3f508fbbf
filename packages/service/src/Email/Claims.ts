/**
 * Claim links (issue #10): the magic link e-mailed to a recipient,
 * `{PUBLIC_BASE_URL}/c/<credential id>?claim=<token>`, shows them their credential's page with
 * their name and lets them download the full signed credential.
 *
 * - The token is 32 random bytes, base64url (43 characters); only its SHA-256 is stored.
 * - Single-purpose: it opens the claim of one credential, nothing else.
 * - It expires 30 days after it is issued (`DEFAULT_TTL_MS`); erasure deletes it at once.
 * - A check always hashes what it is given and always runs the same lookup (by hash,
 *   credential and `expires_at > now`, in one query): a wrong token and an expired one take the
 *   same path to the same empty answer, so timing tells them apart no better than chance.
 *
 * @since 0.1.0
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import { Effect, Option } from "effect"
import type { ClaimToken } from "./EmailDeliveryStore.js"
import { EmailDeliveryStore } from "./EmailDeliveryStore.js"
import type { CredentialId } from "@sigil/core/Ids"
import * as Settings from "../Settings.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_TTL_MS = 30 * 24 * 3_600_000

/**
 * @since 0.1.0
 * @category constants
 */
export const TOKEN_BYTES = 32

const base64url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/**
 * A fresh token: 32 random bytes, base64url without padding.
 *
 * @since 0.1.0
 * @category tokens
 */
export const generate = (): string => base64url(randomBytes(TOKEN_BYTES))

/**
 * The stored form of a token: hex SHA-256 of its text. Anything can be hashed (a visitor's
 * query parameter may be any string): a check never skips the hash or the lookup.
 *
 * @since 0.1.0
 * @category tokens
 */
export const hash = (token: string): string => bytesToHex(sha256(utf8ToBytes(token)))

/**
 * The magic link of a credential.
 *
 * @since 0.1.0
 * @category urls
 */
export const claimUrl = (publicBaseUrl: string, credentialId: string, token: string): string =>
  `${Settings.verifyUrl(publicBaseUrl, credentialId)}?claim=${encodeURIComponent(token)}`

/**
 * Issues a token for a credential, valid for `ttlMs` from `now`; returns the token (to put in
 * the message) and its expiry. Call it inside the transaction that checks the delivery is still
 * wanted, so erasure and issuance cannot interleave.
 *
 * @since 0.1.0
 * @category operations
 */
export const issue = (
  credentialId: CredentialId,
  now: Date,
  ttlMs: number = DEFAULT_TTL_MS
): Effect.Effect<{ readonly token: string; readonly expiresAt: Date }, never, EmailDeliveryStore> =>
  Effect.gen(function*() {
    const token = generate()
    const expiresAt = new Date(now.getTime() + ttlMs)
    yield* Effect.flatMap(EmailDeliveryStore, (s) => s.addToken({ tokenHash: hash(token), credentialId, expiresAt, createdAt: now }))
    return { token, expiresAt }
  })

/**
 * The valid token, if `token` is one for this credential at `now`. Wrong, unknown, malformed,
 * another credential's and expired tokens are all `None`, by the same hash and the same query.
 *
 * @since 0.1.0
 * @category operations
 */
export const check = (
  credentialId: CredentialId,
  token: string,
  now: Date
): Effect.Effect<Option.Option<ClaimToken>, never, EmailDeliveryStore> =>
  Effect.flatMap(EmailDeliveryStore, (s) => s.findToken(hash(token), credentialId, now))

/**
 * Checks a token and, when valid, records the recipient's first visit on the delivery record.
 *
 * @since 0.1.0
 * @category operations
 */
export const claim = (
  credentialId: CredentialId,
  token: string,
  now: Date
): Effect.Effect<boolean, never, EmailDeliveryStore> =>
  Effect.flatMap(check(credentialId, token, now), (found) =>
    Option.isNone(found)
      ? Effect.succeed(false)
      : Effect.as(Effect.flatMap(EmailDeliveryStore, (s) => s.markClaimed(credentialId, now)), true))
