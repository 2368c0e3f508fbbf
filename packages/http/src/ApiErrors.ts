/**
 * The error bodies of the API (issuer-api.md "Errors", decisions §4, §6), one class per code:
 * every non-2xx answer is `{error: {code, message, request_id}}`.
 *
 * Each class carries its own literal `code`. Effect encodes `Schema.Class` structurally, so two
 * classes of the same shape would collapse onto the first one of a union (feasibility §2); the
 * literal keeps every class, its OpenAPI component and its client-side decoding distinct.
 * The HTTP status lives here, in the contract, never on the core's domain errors.
 *
 * This module is part of the contract: clients may import it.
 *
 * @since 0.1.0
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

const message = Schema.String.annotations({
  description: "Human-readable; for validation errors it names the field and the expected format."
})

const requestId = Schema.String.annotations({
  description: "Correlation id of the request (`req_` + ULID); also in the `X-Request-Id` header.",
  examples: ["req_01JC2Z7X9Q4V8K3M6N5P1R0S2T"]
})

const body = <const Code extends string>(code: Code) => ({
  error: Schema.Struct({ code: Schema.Literal(code), message, request_id: requestId })
})

// The two 422s whose batch *was* stored and will be retried name it (decisions §4).
const bodyWithBatch = <const Code extends string>(code: Code) => ({
  error: Schema.Struct({
    code: Schema.Literal(code),
    message,
    request_id: requestId,
    batch_id: Schema.String.annotations({ description: "The stored batch, retried automatically." })
  })
})

const status = <A>(code: number, description: string): Schema.Annotations.Schema<A> =>
  HttpApiSchema.annotations<A>({ status: code, description })

// ---------------------------------------------------------------------------------------------
// 400
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category 400
 */
export class InvalidJson extends Schema.Class<InvalidJson>("InvalidJson")(
  body("invalid_json"),
  status(400, "`invalid_json`: the body is not valid JSON.")
) {}

/**
 * @since 0.1.0
 * @category 400
 */
export class MissingRequiredField extends Schema.Class<MissingRequiredField>("MissingRequiredField")(
  body("missing_required_field"),
  status(400, "`missing_required_field`: a required field is absent; the message names it.")
) {}

/**
 * @since 0.1.0
 * @category 400
 */
export class InvalidFieldFormat extends Schema.Class<InvalidFieldFormat>("InvalidFieldFormat")(
  body("invalid_field_format"),
  status(
    400,
    "`invalid_field_format`: a field (or query parameter, or the `Idempotency-Key` header) is present but malformed; the message names it and the expected format."
  )
) {}

/**
 * @since 0.1.0
 * @category 400
 */
export class RecipientIdInvalid extends Schema.Class<RecipientIdInvalid>("RecipientIdInvalid")(
  body("recipient_id_invalid"),
  status(400, "`recipient_id_invalid`: `recipient.id` is not `urn:uuid:` and a lowercase version-4 UUID.")
) {}

/**
 * @since 0.1.0
 * @category 400
 */
export class AchievementTooLarge extends Schema.Class<AchievementTooLarge>("AchievementTooLarge")(
  body("achievement_too_large"),
  status(400, "`achievement_too_large`: an achievement is over 64 KB as JSON.")
) {}

/**
 * @since 0.1.0
 * @category 400
 */
export class BatchTooLarge extends Schema.Class<BatchTooLarge>("BatchTooLarge")(
  body("batch_too_large"),
  status(400, "`batch_too_large`: more than 500 credentials in the batch.")
) {}

/**
 * @since 0.1.0
 * @category 400
 */
export class AlignmentFrameworkUnknown extends Schema.Class<AlignmentFrameworkUnknown>("AlignmentFrameworkUnknown")(
  body("alignment_framework_unknown"),
  status(400, "`alignment_framework_unknown`: `targetFramework` is not ESCO, O*NET, ISCED-F or CUSTOM.")
) {}

// ---------------------------------------------------------------------------------------------
// 401, 403
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category 401
 */
export class ApiKeyMissing extends Schema.Class<ApiKeyMissing>("ApiKeyMissing")(
  body("api_key_missing"),
  status(401, "`api_key_missing`: no `Authorization` header.")
) {}

/**
 * @since 0.1.0
 * @category 401
 */
export class ApiKeyInvalid extends Schema.Class<ApiKeyInvalid>("ApiKeyInvalid")(
  body("api_key_invalid"),
  status(401, "`api_key_invalid`: a malformed key, a wrong prefix, or an unknown key.")
) {}

/**
 * @since 0.1.0
 * @category 401
 */
export class ApiKeyRevoked extends Schema.Class<ApiKeyRevoked>("ApiKeyRevoked")(
  body("api_key_revoked"),
  status(401, "`api_key_revoked`: the key was revoked.")
) {}

/**
 * @since 0.1.0
 * @category 401
 */
export class IpNotAllowed extends Schema.Class<IpNotAllowed>("IpNotAllowed")(
  body("ip_not_allowed"),
  status(401, "`ip_not_allowed`: the tenant has an IP allowlist and the source address is not on it.")
) {}

/**
 * @since 0.1.0
 * @category 403
 */
export class TierRequired extends Schema.Class<TierRequired>("TierRequired")(
  body("tier_required"),
  status(
    403,
    "`tier_required`: the feature needs a higher plan (verification-page branding on `developer`, a live key on `developer`)."
  )
) {}

/**
 * A test key on a route only live keys may use. No route of v1.0.0 is live-only: the check
 * exists, the code is reserved.
 *
 * @since 0.1.0
 * @category 403
 */
export class EnvironmentMismatch extends Schema.Class<EnvironmentMismatch>("EnvironmentMismatch")(
  body("environment_mismatch"),
  status(403, "`environment_mismatch`: a test key on a live-only route (none in v1.0.0).")
) {}

// ---------------------------------------------------------------------------------------------
// 404
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category 404
 */
export class BatchNotFound extends Schema.Class<BatchNotFound>("BatchNotFound")(
  body("batch_not_found"),
  status(404, "`batch_not_found`: no such batch in the key's tenant and environment.")
) {}

/**
 * @since 0.1.0
 * @category 404
 */
export class CredentialNotFound extends Schema.Class<CredentialNotFound>("CredentialNotFound")(
  body("credential_not_found"),
  status(404, "`credential_not_found`: no such credential in the key's tenant and environment.")
) {}

/**
 * @since 0.1.0
 * @category 404
 */
export class WebhookNotFound extends Schema.Class<WebhookNotFound>("WebhookNotFound")(
  body("webhook_not_found"),
  status(404, "`webhook_not_found`: no such webhook endpoint in the key's tenant and environment.")
) {}

/**
 * @since 0.1.0
 * @category 404
 */
export class TenantNotFound extends Schema.Class<TenantNotFound>("TenantNotFound")(
  body("tenant_not_found"),
  status(404, "`tenant_not_found`: the tenant lookup failed.")
) {}

/**
 * Any method and path the API does not have (decisions §6).
 *
 * @since 0.1.0
 * @category 404
 */
export class RouteNotFound extends Schema.Class<RouteNotFound>("RouteNotFound")(
  body("route_not_found"),
  status(404, "`route_not_found`: no operation has this method and path.")
) {}

// ---------------------------------------------------------------------------------------------
// 409, 413, 415, 422, 429, 500
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category 409
 */
export class IdempotencyKeyReused extends Schema.Class<IdempotencyKeyReused>("IdempotencyKeyReused")(
  body("idempotency_key_reused"),
  status(409, "`idempotency_key_reused`: this `Idempotency-Key` was used with a different body in the last 24 h.")
) {}

/**
 * @since 0.1.0
 * @category 409
 */
export class IdempotencyKeyInUse extends Schema.Class<IdempotencyKeyInUse>("IdempotencyKeyInUse")(
  body("idempotency_key_in_use"),
  status(409, "`idempotency_key_in_use`: the first request with this `Idempotency-Key` is still running; retry later.")
) {}

/**
 * @since 0.1.0
 * @category 409
 */
export class CredentialAlreadyRevoked extends Schema.Class<CredentialAlreadyRevoked>("CredentialAlreadyRevoked")(
  body("credential_already_revoked"),
  status(409, "`credential_already_revoked`: the credential is already revoked.")
) {}

/**
 * @since 0.1.0
 * @category 409
 */
export class CredentialAlreadyErased extends Schema.Class<CredentialAlreadyErased>("CredentialAlreadyErased")(
  body("credential_already_erased"),
  status(409, "`credential_already_erased`: the credential is already erased.")
) {}

/**
 * @since 0.1.0
 * @category 413
 */
export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  body("payload_too_large"),
  status(413, "`payload_too_large`: the body is over 40 MB.")
) {}

/**
 * A body that is not declared `application/json` (decisions: api-contract-deviations.md).
 *
 * @since 0.1.0
 * @category 415
 */
export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  body("unsupported_media_type"),
  status(415, "`unsupported_media_type`: the body is not declared `Content-Type: application/json` (UTF-8).")
) {}

/**
 * @since 0.1.0
 * @category 422
 */
export class MonthlyQuotaExceeded extends Schema.Class<MonthlyQuotaExceeded>("MonthlyQuotaExceeded")(
  body("monthly_quota_exceeded"),
  status(422, "`monthly_quota_exceeded`: the plan's monthly credential quota would be exceeded; nothing was stored.")
) {}

/**
 * Reserved: signing is asynchronous in v1.0.0, so `POST /batches` does not answer it today.
 *
 * @since 0.1.0
 * @category 422
 */
export class SigningKeyUnavailable extends Schema.Class<SigningKeyUnavailable>("SigningKeyUnavailable")(
  bodyWithBatch("signing_key_unavailable"),
  status(
    422,
    "`signing_key_unavailable`: the signing key is temporarily unreachable; the batch (`error.batch_id`) is stored and retried automatically."
  )
) {}

/**
 * Reserved: anchoring is asynchronous in v1.0.0, so `POST /batches` does not answer it today.
 *
 * @since 0.1.0
 * @category 422
 */
export class AnchoringChainUnavailable extends Schema.Class<AnchoringChainUnavailable>("AnchoringChainUnavailable")(
  bodyWithBatch("anchoring_chain_unavailable"),
  status(
    422,
    "`anchoring_chain_unavailable`: the chain endpoint is down; the batch (`error.batch_id`) is stored and queued for retry."
  )
) {}

/**
 * @since 0.1.0
 * @category 429
 */
export class RateLimited extends Schema.Class<RateLimited>("RateLimited")(
  body("rate_limited"),
  status(429, "`rate_limited`: too many requests for the tenant; wait `Retry-After` seconds.")
) {}

/**
 * @since 0.1.0
 * @category 500
 */
export class InternalError extends Schema.Class<InternalError>("InternalError")(
  body("internal_error"),
  status(500, "`internal_error`: a server fault; retry with backoff and an `Idempotency-Key`.")
) {}

// ---------------------------------------------------------------------------------------------
// requests Node's HTTP parser refuses (no route, no handler: `ClientErrors`)
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category parser
 */
export class MalformedRequest extends Schema.Class<MalformedRequest>("MalformedRequest")(
  body("malformed_request"),
  status(400, "`malformed_request`: the request is not valid HTTP/1.1 (request line, headers or framing).")
) {}

/**
 * @since 0.1.0
 * @category parser
 */
export class RequestTimeout extends Schema.Class<RequestTimeout>("RequestTimeout")(
  body("request_timeout"),
  status(408, "`request_timeout`: the request was not received in time.")
) {}

/**
 * @since 0.1.0
 * @category parser
 */
export class RequestHeaderFieldsTooLarge extends Schema.Class<RequestHeaderFieldsTooLarge>("RequestHeaderFieldsTooLarge")(
  body("request_header_fields_too_large"),
  status(431, "`request_header_fields_too_large`: the request line (the URL) and headers are over 16 KB together.")
) {}

// ---------------------------------------------------------------------------------------------
// the administrative channel
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category admin
 */
export class AdminTokenInvalid extends Schema.Class<AdminTokenInvalid>("AdminTokenInvalid")(
  body("admin_token_invalid"),
  status(401, "`admin_token_invalid`: the admin token is missing or wrong.")
) {}

/**
 * @since 0.1.0
 * @category admin
 */
export class ApiKeyNotFound extends Schema.Class<ApiKeyNotFound>("ApiKeyNotFound")(
  body("api_key_not_found"),
  status(404, "`api_key_not_found`: no API key with this id.")
) {}

/**
 * @since 0.1.0
 * @category admin
 */
export class KeyVaultUnavailable extends Schema.Class<KeyVaultUnavailable>("KeyVaultUnavailable")(
  body("key_vault_unavailable"),
  status(503, "`key_vault_unavailable`: the key vault cannot be used right now; retry.")
) {}

// ---------------------------------------------------------------------------------------------
// all of them
// ---------------------------------------------------------------------------------------------

/**
 * Every error class, in one list (rendering and the contract's tests walk it).
 *
 * @since 0.1.0
 * @category models
 */
export const all = [
  InvalidJson,
  MissingRequiredField,
  InvalidFieldFormat,
  RecipientIdInvalid,
  AchievementTooLarge,
  BatchTooLarge,
  AlignmentFrameworkUnknown,
  ApiKeyMissing,
  ApiKeyInvalid,
  ApiKeyRevoked,
  IpNotAllowed,
  TierRequired,
  EnvironmentMismatch,
  BatchNotFound,
  CredentialNotFound,
  WebhookNotFound,
  TenantNotFound,
  RouteNotFound,
  IdempotencyKeyReused,
  IdempotencyKeyInUse,
  CredentialAlreadyRevoked,
  CredentialAlreadyErased,
  PayloadTooLarge,
  UnsupportedMediaType,
  MonthlyQuotaExceeded,
  SigningKeyUnavailable,
  AnchoringChainUnavailable,
  RateLimited,
  InternalError,
  MalformedRequest,
  RequestTimeout,
  RequestHeaderFieldsTooLarge,
  AdminTokenInvalid,
  ApiKeyNotFound,
  KeyVaultUnavailable
] as const

/**
 * @since 0.1.0
 * @category models
 */
export type Class = (typeof all)[number]

/**
 * @since 0.1.0
 * @category models
 */
export type ApiError = InstanceType<Class>

/**
 * @since 0.1.0
 * @category models
 */
export type Code = ApiError["error"]["code"]

/**
 * The error of each code (distributes over a union of codes).
 *
 * @since 0.1.0
 * @category models
 */
export type ErrorOf<C extends Code> = Extract<ApiError, { readonly error: { readonly code: C } }>

const byConstructor = new Map<unknown, { readonly status: number }>(
  all.map((c) => [c, { status: HttpApiSchema.getStatusErrorAST(c.ast) }])
)

/**
 * @since 0.1.0
 * @category guards
 */
export const isApiError = (u: unknown): u is ApiError =>
  typeof u === "object" && u !== null && byConstructor.has(u.constructor)

/**
 * The HTTP status of an error of the contract.
 *
 * @since 0.1.0
 * @category getters
 */
export const statusOf = (error: ApiError): number => byConstructor.get(error.constructor)!.status

/**
 * The code of a class.
 *
 * @since 0.1.0
 * @category getters
 */
export const codeOf = <C extends Class>(cls: C): InstanceType<C>["error"]["code"] =>
  cls.fields.error.fields.code.literals[0] as InstanceType<C>["error"]["code"]

const byCode = new Map<string, Class>(all.map((c) => [codeOf(c), c]))

/**
 * The class of a code.
 *
 * @since 0.1.0
 * @category getters
 */
export const classOf = (code: Code): Class => byCode.get(code)!

/**
 * An error of the contract. `batch_id` only for the two 422s that carry it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <C extends Class>(
  cls: C,
  fields: { readonly message: string; readonly request_id: string; readonly batch_id?: string }
): InstanceType<C> => new (cls as any)({ error: { code: codeOf(cls), ...fields } })
