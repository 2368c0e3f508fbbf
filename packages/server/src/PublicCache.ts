/**
 * What the public surface answered, kept in the process: DID documents, issuer profiles,
 * status lists, credentials' public JSON and verification pages (with the server's verdict),
 * and the 404s of ids that do not exist. A verifier, an employer or anyone else asking again
 * gets the same bytes without a store read, a signature or a verification.
 *
 * It never lies:
 * - every answer is filed under the tenant it shows; when the change feed says that tenant
 *   changed (a revocation, an erasure, an anchor, branding, keys — in this process or, on
 *   Postgres, in any process sharing the database) its answers go, and a 404 of an unknown id
 *   goes on any change (the id may just have been created);
 * - when the feed cannot vouch that it hears every process (`ChangeFeed.isLive`), nothing is
 *   answered from memory, and after a gap (`Reset`) everything goes;
 * - an answer is kept at most `ttlMs`, and never past the moment it would change by itself
 *   (a page's verdict when its credential expires).
 * It is bounded by bytes: the least recently used answers go first.
 *
 * @since 0.1.0
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { TenantId } from "@sigil/core/Ids"
import { ChangeFeed } from "@sigil/service/ChangeFeed"
import { Context, Effect, Layer } from "effect"

/**
 * An answer as it is served: a status, its body and headers (with its ETag for a 200).
 *
 * @since 0.1.0
 * @category models
 */
export interface Answer {
  readonly status: number
  readonly body: string
  readonly contentType: string
  readonly headers: Readonly<Record<string, string>>
  /** The tenant whose documents it shows; `undefined` for "no such thing" (dropped on any change). */
  readonly tenantId: TenantId | undefined
  /** When it would change by itself (epoch ms), if ever. */
  readonly changesAt?: number | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly ttlMs: number
  /** The bodies kept, in bytes (UTF-16 length ×2 is counted as an upper bound of memory). */
  readonly maxBytes: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_OPTIONS: Options = { ttlMs: 60_000, maxBytes: 32 * 1024 * 1024 }

interface Kept {
  readonly answer: Answer
  readonly until: number
  readonly bytes: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The kept answer for `key`, when it may be served. */
  readonly get: (key: string) => Answer | undefined
  /** Bumped by every change heard: an answer computed across a change is not kept. */
  readonly generation: () => number
  /** Keeps `answer`, unless a change was heard since `generation` was read before computing it. */
  readonly set: (key: string, answer: Answer, generation: number) => void
  /** How many answers are kept, and their bytes. */
  readonly size: () => { readonly entries: number; readonly bytes: number }
}

/**
 * @since 0.1.0
 * @category tags
 */
export class PublicCache extends Context.Tag("@sigil/server/PublicCache")<PublicCache, Service>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options, isLive: () => boolean, now: () => number = Date.now) => {
  const kept = new Map<string, Kept>()
  let bytes = 0
  let generation = 0
  const drop = (key: string) => {
    const entry = kept.get(key)
    if (entry === undefined) return
    kept.delete(key)
    bytes -= entry.bytes
  }
  const service: Service = {
    get: (key) => {
      if (!isLive()) return undefined
      const entry = kept.get(key)
      if (entry === undefined) return undefined
      if (entry.until <= now()) {
        drop(key)
        return undefined
      }
      // Most recently used last: eviction takes from the front.
      kept.delete(key)
      kept.set(key, entry)
      return entry.answer
    },
    generation: () => generation,
    set: (key, answer, since) => {
      if (since !== generation || !isLive() || options.ttlMs <= 0) return
      const size = 2 * (answer.body.length + key.length) + 512
      if (size > options.maxBytes / 8) return
      drop(key)
      const until = Math.min(now() + options.ttlMs, answer.changesAt ?? Number.POSITIVE_INFINITY)
      if (until <= now()) return
      kept.set(key, { answer, until, bytes: size })
      bytes += size
      while (bytes > options.maxBytes) drop(kept.keys().next().value!)
    },
    size: () => ({ entries: kept.size, bytes })
  }
  const forgetTenant = (tenantId: TenantId) => {
    generation++
    for (const [key, entry] of kept) {
      if (entry.answer.tenantId === tenantId || entry.answer.tenantId === undefined) drop(key)
    }
  }
  const clear = () => {
    generation++
    kept.clear()
    bytes = 0
  }
  return { service, forgetTenant, clear }
}

/**
 * The cache, listening to the change feed.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = DEFAULT_OPTIONS): Layer.Layer<PublicCache, never, ChangeFeed> =>
  Layer.scoped(
    PublicCache,
    Effect.gen(function*() {
      const feed = yield* ChangeFeed
      const cache = make(options, feed.isLive)
      yield* feed.subscribe((change) => (change._tag === "Reset" ? cache.clear() : cache.forgetTenant(change.tenantId)))
      return cache.service
    })
  )

/** Whether an `If-None-Match` header names this tag (`*`, a list, weak forms compared weakly). */
const matches = (header: string | undefined, etag: string | undefined): boolean =>
  header !== undefined && etag !== undefined &&
  header.split(",").some((candidate) => {
    const tag = candidate.trim()
    return tag === "*" || tag === etag || tag === `W/${etag}`
  })

/**
 * The HTTP response of an answer: a 304 (its headers, no body) when the request holds its ETag.
 *
 * @since 0.1.0
 * @category responses
 */
export const respond = (
  answer: Answer
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    answer.status === 200 && matches(request.headers["if-none-match"], answer.headers.etag)
      ? HttpServerResponse.empty({ status: 304, headers: answer.headers })
      : HttpServerResponse.text(answer.body, { status: answer.status, contentType: answer.contentType, headers: answer.headers }))

/**
 * Serves `key` from the cache, or computes its answer, keeps it and serves it.
 *
 * @since 0.1.0
 * @category responses
 */
export const serve = <E, R>(
  key: string,
  compute: Effect.Effect<Answer, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | PublicCache | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(PublicCache, (cache) => {
    const kept = cache.get(key)
    if (kept !== undefined) return respond(kept)
    const since = cache.generation()
    return Effect.flatMap(compute, (answer) => {
      cache.set(key, answer, since)
      return respond(answer)
    })
  })
