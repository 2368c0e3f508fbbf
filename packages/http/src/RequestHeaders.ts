/**
 * Headers a request may send at most once. Two `Authorization` headers name two keys (Node keeps
 * the first and drops the other); two `Idempotency-Key` headers name two keys too (Node joins
 * them with ", ", which is a third). Either way the server would pick one silently, so the
 * request is refused: 400 `invalid_field_format` naming the header, before anything else.
 *
 * @since 0.1.0
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import * as ApiErrors from "./ApiErrors.js"
import * as Errors from "./Errors.js"

/**
 * The headers that must not repeat, by lowercase name, with the name a message shows.
 *
 * @since 0.1.0
 * @category constants
 */
export const SINGLE: ReadonlyMap<string, string> = new Map([
  ["authorization", "Authorization"],
  ["idempotency-key", "Idempotency-Key"]
])

/**
 * The first header of `SINGLE` that a request sends more than once, by its raw headers (what
 * the client sent, before Node merged them); undefined when there is none, or when the request
 * does not come from a Node socket (a web `Request` cannot repeat a header).
 *
 * @since 0.1.0
 * @category checks
 */
export const repeated = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const raw = (request.source as { readonly rawHeaders?: unknown } | null)?.rawHeaders
  if (!Array.isArray(raw)) return undefined
  const seen = new Set<string>()
  for (let i = 0; i < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase()
    if (!SINGLE.has(name)) continue
    if (seen.has(name)) return SINGLE.get(name)
    seen.add(name)
  }
  return undefined
}

/**
 * Fails with 400 `invalid_field_format` when a header of `SINGLE` is repeated.
 *
 * @since 0.1.0
 * @category checks
 */
export const checkUnambiguous = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<void, ApiErrors.InvalidFieldFormat> => {
  const name = repeated(request)
  return name === undefined
    ? Effect.void
    : Errors.fail(ApiErrors.InvalidFieldFormat, `${name}: sent more than once; send it exactly once.`)
}
