/**
 * From failures to the contract's error bodies: the one place where core's domain errors get
 * an HTTP status and a code, and where anything else (HttpApi's own decode failures, unknown
 * routes, unreadable bodies, defects) becomes `{error: {code, message, request_id}}`.
 *
 * @since 0.1.0
 */
import { HttpApiError, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { InputErrorCode, InvalidInput } from "@sigil/service/Inputs/InputErrors"
import { Cause, Effect, Option } from "effect"
import * as ApiErrors from "./ApiErrors.js"
import { RequestId } from "./RequestId.js"

/**
 * The code of each domain error (core's, and the body reader's), by tag.
 */
const byTag = {
  MalformedJson: "invalid_json",
  BodyTooLarge: "payload_too_large",
  UnsupportedMediaType: "unsupported_media_type",
  ApiKeyMissing: "api_key_missing",
  ApiKeyInvalid: "api_key_invalid",
  ApiKeyRevoked: "api_key_revoked",
  IpNotAllowed: "ip_not_allowed",
  TierRequired: "tier_required",
  EnvironmentMismatch: "environment_mismatch",
  BatchNotFound: "batch_not_found",
  MonthlyQuotaExceeded: "monthly_quota_exceeded",
  CredentialNotFound: "credential_not_found",
  CredentialAlreadyRevoked: "credential_already_revoked",
  CredentialAlreadyErased: "credential_already_erased",
  WebhookNotFound: "webhook_not_found",
  TenantNotFound: "tenant_not_found",
  ApiKeyNotFound: "api_key_not_found",
  SigningKeyUnavailable: "key_vault_unavailable"
} as const satisfies Record<string, ApiErrors.Code>

type ByTag = typeof byTag

/**
 * A domain error this module knows how to answer.
 *
 * @since 0.1.0
 * @category models
 */
export type Domain = InvalidInput | { readonly _tag: keyof ByTag; readonly message: string }

/**
 * The contract error a failure becomes.
 *
 * @since 0.1.0
 * @category models
 */
export type Contract<E> = E extends ApiErrors.ApiError ? E
  : E extends { readonly _tag: "InvalidInput"; readonly code: infer C extends ApiErrors.Code } ? ApiErrors.ErrorOf<C>
  : E extends { readonly _tag: infer T extends keyof ByTag } ? ApiErrors.ErrorOf<ByTag[T]>
  : never

const isDomain = (u: unknown): u is Domain =>
  typeof u === "object" && u !== null && "_tag" in u &&
  (u._tag === "InvalidInput" || Object.prototype.hasOwnProperty.call(byTag, u._tag as string))

const toContract = (error: Domain | ApiErrors.ApiError, requestId: string): ApiErrors.ApiError => {
  if (ApiErrors.isApiError(error)) return error
  const code = error._tag === "InvalidInput" ? error.code : byTag[error._tag]
  return ApiErrors.make(ApiErrors.classOf(code), { message: error.message, request_id: requestId })
}

/**
 * An error of the contract for the current request.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <C extends ApiErrors.Class>(cls: C, message: string): Effect.Effect<InstanceType<C>> =>
  Effect.map(RequestId, (request_id) => ApiErrors.make(cls, { message, request_id }))

/**
 * Fails with an error of the contract.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fail = <C extends ApiErrors.Class>(cls: C, message: string): Effect.Effect<never, InstanceType<C>> =>
  Effect.flatMap(make(cls, message), Effect.fail)

/**
 * Maps the domain errors of a handler to the contract's (HTTP lives only in this package).
 *
 * @since 0.1.0
 * @category combinators
 */
export const refail = <A, E extends Domain | ApiErrors.ApiError, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Contract<E>, R> =>
  Effect.catchAll(self, (error) => Effect.flatMap(RequestId, (id) => Effect.fail(toContract(error, id) as Contract<E>)))

/**
 * `InvalidInput` narrowed to codes an operation can produce, so its contract lists only those.
 * Core decides the code from the schema; a code outside the list (it would be a bug) falls
 * back to `invalid_field_format` rather than to a 500.
 *
 * @since 0.1.0
 * @category combinators
 */
export const inputCodes = <const C extends InputErrorCode>(...codes: ReadonlyArray<C>) =>
<A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, InvalidInput> | (InvalidInput & { readonly code: C | "invalid_field_format" }), R> =>
  Effect.mapError(self, (error: any) =>
    typeof error === "object" && error?._tag === "InvalidInput" && !codes.includes(error.code)
      ? Object.assign(Object.create(Object.getPrototypeOf(error)), error, { code: "invalid_field_format" })
      : error)

// ---------------------------------------------------------------------------------------------
// rendering
// ---------------------------------------------------------------------------------------------

/**
 * The response of an error of the contract, with the current request's id.
 *
 * @since 0.1.0
 * @category rendering
 */
export const respond = (error: ApiErrors.ApiError): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.map(RequestId, (request_id) =>
    HttpServerResponse.unsafeJson({ error: { ...error.error, request_id } }, { status: ApiErrors.statusOf(error) }))

const pathOf = (issuePath: ReadonlyArray<PropertyKey>): string =>
  issuePath.reduce<string>(
    (acc, key) => typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    ""
  )

/** HttpApi's own decoding covers query parameters and headers (bodies are decoded by `Body`). */
const fromDecodeError = (error: HttpApiError.HttpApiDecodeError) => {
  const issue = error.issues[0]
  const field = issue === undefined ? "" : pathOf(issue.path)
  const name = field === "" ? "request" : field
  return issue?._tag === "Missing"
    ? make(ApiErrors.MissingRequiredField, `${name}: is required`)
    : make(ApiErrors.InvalidFieldFormat, `${name}: ${issue?.message ?? "is malformed"}`)
}

const SECRETS = /(sigil_(?:test|live)_)[1-9A-HJ-NP-Za-km-z]+|(Bearer\s+)\S+/gi

/**
 * What a defect says, for the log: name, message, stack and causes of errors, the type of
 * anything else. Never the request (its inspection includes the body) and never a key.
 *
 * @since 0.1.0
 * @category logging
 */
export const describeDefect = (defect: unknown, depth = 0): string => {
  let text: string
  if (defect instanceof Error) {
    text = defect.stack ?? `${defect.name}: ${defect.message}`
    if (defect.cause !== undefined && depth < 3) text += `\ncaused by: ${describeDefect(defect.cause, depth + 1)}`
  } else if (typeof defect === "object" && defect !== null) {
    const tag = "_tag" in defect && typeof defect._tag === "string" ? defect._tag : defect.constructor?.name ?? "object"
    text = `a non-Error value (${tag})`
  } else {
    text = `a non-Error value (${typeof defect})`
  }
  return text.replace(SECRETS, (_, key: string | undefined, bearer: string | undefined) => `${key ?? bearer}[redacted]`)
}

const internal = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const request = yield* Effect.serviceOption(HttpServerRequest.HttpServerRequest)
    const where = Option.match(request, {
      onNone: () => ({}),
      onSome: (r) => ({ method: r.method, path: r.url.split("?")[0] ?? "" })
    })
    const reasons = [...Cause.failures(cause), ...Cause.defects(cause)].map((d) => describeDefect(d))
    if (reasons.length > 0) {
      yield* Effect.logError("internal_error", reasons.join("\n")).pipe(
        Effect.annotateLogs({ request_id: yield* RequestId, ...where })
      )
    }
    return yield* make(ApiErrors.InternalError, "An internal error occurred; retry with backoff and an Idempotency-Key.")
  })

const isRequestError = (u: unknown): u is HttpServerError.RequestError =>
  HttpServerError.isServerError(u) && u._tag === "RequestError"

/**
 * The contract's answer to any failure of a request: errors of the contract as they are,
 * domain errors by their code, HttpApi's decode failures as 400s naming the field, unknown
 * routes as 404 `route_not_found`, unreadable bodies as 400 `invalid_json` (or 413), and
 * anything else as 500 `internal_error`, logged with the request id.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.gen(function*() {
    const failure = Cause.failureOption(cause)
    let error: ApiErrors.ApiError
    if (Option.isSome(failure)) {
      const e = failure.value
      if (ApiErrors.isApiError(e)) error = e
      else if (isDomain(e)) error = toContract(e, yield* RequestId)
      else if (e instanceof HttpApiError.HttpApiDecodeError) error = yield* fromDecodeError(e)
      else if (HttpServerError.isServerError(e) && e._tag === "RouteNotFound") {
        error = yield* make(ApiErrors.RouteNotFound, `No operation ${e.request.method} ${e.request.url.split("?")[0]}.`)
      } else error = yield* internal(cause)
    } else {
      // HttpApi reads JSON payloads with `orDie`: an unreadable body arrives as a defect.
      const defect = Option.getOrUndefined(Cause.dieOption(cause))
      if (isRequestError(defect) && defect.reason === "Decode") {
        error = defect.cause instanceof Error && defect.cause.message === "maxBytes exceeded"
          ? yield* make(ApiErrors.PayloadTooLarge, "The body is over 40 MB.")
          : yield* make(ApiErrors.InvalidJson, "The body is not valid JSON.")
      } else if (Cause.isInterruptedOnly(cause)) {
        // The client went away: nobody reads this answer.
        error = yield* make(ApiErrors.InternalError, "The request was interrupted.")
      } else error = yield* internal(cause)
    }
    return yield* respond(error)
  })

/**
 * Runs an app and answers every failure with the contract's body.
 *
 * @since 0.1.0
 * @category rendering
 */
export const catchAll = <E, R>(
  self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> => Effect.catchAllCause(self, render)
