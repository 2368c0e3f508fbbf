/**
 * Idempotency of POSTs (issuer-api.md, decisions §6). A POST with `Idempotency-Key` is scoped
 * to (tenant, environment, method, path, key) and fingerprinted by the SHA-256 of its raw body:
 *
 * - first time: the request runs; a 2xx or 4xx answer is stored (status, headers, body) for
 *   24 h, a 5xx or a defect releases the key so that a retry may run again;
 * - same key, same body, answered: the stored answer, with `Idempotent-Replayed: true`;
 * - same key while the first is still running: 409 `idempotency_key_in_use`;
 * - same key, another body: 409 `idempotency_key_reused`.
 *
 * The run from `begin` to `complete` is uninterruptible: a client that disconnects after
 * sending does not leave a half-finished operation whose retry would run it twice. While it
 * runs, the request renews its lease on the key every `LEASE_RENEW_MS`; a request whose process
 * died holds the key at most `IN_FLIGHT_LEASE_MS` (10 s) longer, then a retry runs
 * (docs/decisions/idempotency-lease.md).
 *
 * @since 0.1.0
 */
import type { HttpServerRequest } from "@effect/platform"
import { HttpServerResponse } from "@effect/platform"
import type { Principal } from "@sigil/service/Access/Auth"
import { IdempotencyStore, LEASE_RENEW_MS, type Scope, type StoredResponse } from "@sigil/service/Access/IdempotencyStore"
import { Clock, Effect } from "effect"
import { createHash } from "node:crypto"
import * as ApiErrors from "./ApiErrors.js"
import * as Body from "./Body.js"
import * as Errors from "./Errors.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const HEADER = "idempotency-key"

/**
 * @since 0.1.0
 * @category constants
 */
export const REPLAYED_HEADER = "idempotent-replayed"

/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_KEY_LENGTH = 255

/**
 * @since 0.1.0
 * @category constants
 */
export const TTL_MS = 24 * 60 * 60 * 1000

/**
 * The stored fingerprint of a body.
 *
 * @since 0.1.0
 * @category fingerprints
 */
export const fingerprint = (body: string): string => createHash("sha256").update(body, "utf8").digest("hex")

const decoder = new TextDecoder()

/** What can be replayed of a response: JSON and empty bodies (all this API answers). */
const capture = (response: HttpServerResponse.HttpServerResponse): StoredResponse | undefined => {
  const body = response.body
  switch (body._tag) {
    case "Empty":
      return { status: response.status, headers: { ...response.headers }, body: "" }
    case "Uint8Array":
      return {
        status: response.status,
        headers: { ...response.headers, "content-type": body.contentType },
        body: decoder.decode(body.body)
      }
    default:
      return undefined
  }
}

const replay = (stored: StoredResponse): HttpServerResponse.HttpServerResponse => {
  const { "content-type": contentType, ...headers } = stored.headers
  const response = stored.body === ""
    ? HttpServerResponse.empty({ status: stored.status, headers })
    : HttpServerResponse.text(stored.body, {
      status: stored.status,
      headers,
      contentType: contentType ?? "application/json"
    })
  return HttpServerResponse.setHeader(response, REPLAYED_HEADER, "true")
}

/**
 * Runs `effect` while renewing the request's lease on its key, every `LEASE_RENEW_MS` until it
 * ends. A failed renewal is only logged: the request goes on, and at worst its lease lapses.
 */
const whileRenewing = (store: IdempotencyStore["Type"], scope: Scope, startedAt: Date) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.scoped(Effect.zipRight(
    Clock.currentTimeMillis.pipe(
      Effect.flatMap((ms) => store.renew(scope, startedAt, new Date(ms))),
      Effect.catchAllCause((cause) => Effect.logWarning("Idempotency: renewing a lease failed", cause)),
      Effect.delay(LEASE_RENEW_MS),
      Effect.forever,
      // Its own interruptibility: the request runs uninterruptibly, the renewal must still stop.
      Effect.interruptible,
      Effect.forkScoped
    ),
    effect
  ))

/**
 * Runs `handle` (which answers every failure itself) under the idempotency protocol when the
 * request is a POST with an `Idempotency-Key`, else just runs it.
 *
 * @since 0.1.0
 * @category running
 */
export const run = <R>(
  request: HttpServerRequest.HttpServerRequest,
  principal: Principal,
  now: Date,
  handle: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  ApiErrors.InvalidFieldFormat | ApiErrors.IdempotencyKeyInUse | ApiErrors.IdempotencyKeyReused | ApiErrors.InvalidJson | ApiErrors.PayloadTooLarge | ApiErrors.UnsupportedMediaType,
  R | IdempotencyStore
> =>
  Effect.gen(function*() {
    const key = request.headers[HEADER]
    if (request.method !== "POST" || key === undefined) return yield* handle
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      return yield* Errors.fail(
        ApiErrors.InvalidFieldFormat,
        `Idempotency-Key: must be 1 to ${MAX_KEY_LENGTH} characters (a UUID is typical)`
      )
    }
    const body = yield* Errors.refail(Body.text(request))
    const store = yield* IdempotencyStore
    const scope: Scope = {
      tenantId: principal.tenant.id,
      environment: principal.environment,
      method: request.method,
      path: request.url.split("?")[0] ?? request.url,
      key
    }
    return yield* Effect.uninterruptible(Effect.gen(function*() {
      const begin = yield* store.begin(scope, fingerprint(body), now, TTL_MS)
      switch (begin._tag) {
        case "Replay":
          return replay(begin.response)
        case "InFlight":
          return yield* Errors.fail(
            ApiErrors.IdempotencyKeyInUse,
            "A request with this Idempotency-Key is still being processed; retry shortly."
          )
        case "Mismatch":
          return yield* Errors.fail(
            ApiErrors.IdempotencyKeyReused,
            "This Idempotency-Key was used with a different body in the last 24 hours; use a new key."
          )
        case "Started": {
          // `now` is this request's start time, which names it as the record's owner.
          const response = yield* handle.pipe(
            Effect.onExit((exit) => exit._tag === "Failure" ? store.release(scope, now) : Effect.void),
            whileRenewing(store, scope, now)
          )
          const stored = response.status < 500 ? capture(response) : undefined
          yield* stored === undefined ? store.release(scope, now) : store.complete(scope, now, stored, TTL_MS)
          return response
        }
      }
    }))
  })
