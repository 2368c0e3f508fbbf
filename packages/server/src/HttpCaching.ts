/**
 * HTTP caching of the public documents a verifier fetches for every check (DID documents,
 * issuer profiles, status lists, a credential's public JSON): a strong `ETag` (the SHA-256 of
 * the bytes served), `304 Not Modified` for a matching `If-None-Match`, and a `Cache-Control`
 * that says how long a third party may keep the document (docs/decisions/public-caching.md).
 *
 * @since 0.1.0
 */
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { TenantId } from "@sigil/core/Ids"
import type { Effect } from "effect"
import * as PublicCache from "./PublicCache.js"
import { createHash } from "node:crypto"

/**
 * How long third parties may keep each kind of document, in seconds.
 *
 * @since 0.1.0
 * @category models
 */
export interface Freshness {
  /** A status list: its age is the delay before a revocation is seen by a verifier that caches. */
  readonly statusListSeconds: number
  /** DID documents and issuer profiles (they change when a key is added or revoked). */
  readonly identitySeconds: number
  /** A credential's public JSON (it changes on erasure and when it is anchored). */
  readonly credentialSeconds: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_FRESHNESS: Freshness = { statusListSeconds: 300, identitySeconds: 300, credentialSeconds: 60 }

/**
 * `public, max-age=N`: caches may keep the document N seconds, then must ask again (with the
 * ETag, so the answer is usually an empty 304).
 *
 * @since 0.1.0
 * @category headers
 */
export const cacheControl = (seconds: number): string =>
  seconds <= 0 ? "no-cache" : `public, max-age=${seconds}, must-revalidate`

/**
 * The strong entity tag of a body.
 *
 * @since 0.1.0
 * @category headers
 */
export const etagOf = (body: string): string => `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`

/**
 * A public document as the cache keeps it: 200 with the body, its ETag, its freshness and the
 * given headers.
 *
 * @since 0.1.0
 * @category responses
 */
export const answer = (
  body: string,
  options: {
    readonly contentType: string
    readonly maxAgeSeconds: number
    readonly tenantId: TenantId | undefined
    readonly headers?: Record<string, string>
  }
): PublicCache.Answer => ({
  status: 200,
  body,
  contentType: options.contentType,
  tenantId: options.tenantId,
  headers: {
    ...options.headers,
    etag: etagOf(body),
    "cache-control": cacheControl(options.maxAgeSeconds),
    "x-content-type-options": "nosniff"
  }
})

/**
 * Answers a public document: 200 with the body, its ETag and the given headers, or 304 (same
 * ETag and headers, no body) when the request already holds this version.
 *
 * @since 0.1.0
 * @category responses
 */
export const respond = (
  body: string,
  options: { readonly contentType: string; readonly maxAgeSeconds: number; readonly headers?: Record<string, string> }
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  PublicCache.respond(answer(body, { ...options, tenantId: undefined }))
