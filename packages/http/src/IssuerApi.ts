/**
 * The issuer API contract (issuer-api.md, decisions §3–§7): twelve operations in four groups
 * under `/v1`, their bodies, parameters, statuses and errors, and the OpenAPI 3.1 document
 * generated from it. Contract only: clients may import it (`HttpApiClient.make(IssuerApi)`).
 *
 * Request bodies are core's `Inputs` schemas. The handlers decode bodies themselves with core's
 * decoders (see `Body`), so every validation failure carries the contract's code; the payload
 * schemas here document the bodies and let clients encode them.
 *
 * @since 0.1.0
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as BatchInputs from "@sigil/service/Inputs/BatchInputs"
import * as CredentialInputs from "@sigil/service/Inputs/CredentialInputs"
import * as TenantInputs from "@sigil/service/Inputs/TenantInputs"
import * as WebhookInputs from "@sigil/service/Inputs/WebhookInputs"
import { Schema } from "effect"
import * as ApiErrors from "./ApiErrors.js"
import { Authentication } from "./Authentication.js"
import * as OpenApiDocument from "./internal/openApiDocument.js"
import * as Resources from "./Resources.js"

/**
 * The `Idempotency-Key` request header of every POST.
 *
 * @since 0.1.0
 * @category headers
 */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(
    Schema.String.annotations({
      description:
        "1 to 255 characters, typically a UUID. The same key with the same body within 24 h returns the first response (with `Idempotent-Replayed: true`); with a different body, 409 `idempotency_key_reused`; while the first request is still running, 409 `idempotency_key_in_use`. Scoped to the key's tenant and environment, the method and the path.",
      jsonSchema: { minLength: 1, maxLength: 255 }
    })
  )
})

const path = (id: Schema.Schema<string>, description: string) =>
  Schema.Struct({ id: id.annotations({ description: `${description} A malformed id answers the resource's 404.` }) })

// ---------------------------------------------------------------------------------------------
// Batches
// ---------------------------------------------------------------------------------------------

const Limit = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)).annotations({
  message: () => ({ message: "must be an integer from 1 to 100", override: true }),
  description: "Page size, 1 to 100.",
  jsonSchema: { type: "integer", minimum: 1, maximum: 100, default: 25, description: "Page size, 1 to 100 (default 25)." }
})

/**
 * The query of `GET /batches`.
 *
 * @since 0.1.0
 * @category batches
 */
export const ListBatchesParams = Schema.Struct({
  cursor: Schema.optional(
    Schema.String.annotations({ description: "The `next_cursor` of the previous page; opaque, valid 24 h." })
  ),
  limit: Schema.optionalWith(Limit, { default: () => 25 }),
  status: Schema.optional(
    Schema.Literal("pending", "signed", "anchored", "failed").annotations({
      message: () => ({ message: "must be one of pending, signed, anchored, failed", override: true }),
      description: "Only batches in this status."
    })
  )
})

const createBatch = HttpApiEndpoint.post("createBatch", "/batches")
  .setHeaders(IdempotencyHeaders)
  .setPayload(BatchInputs.CreateBatchRequest)
  .addSuccess(Resources.Batch, { status: 202 })
  .addError(ApiErrors.InvalidJson)
  .addError(ApiErrors.MissingRequiredField)
  .addError(ApiErrors.InvalidFieldFormat)
  .addError(ApiErrors.RecipientIdInvalid)
  .addError(ApiErrors.AchievementTooLarge)
  .addError(ApiErrors.BatchTooLarge)
  .addError(ApiErrors.AlignmentFrameworkUnknown)
  .addError(ApiErrors.IdempotencyKeyReused)
  .addError(ApiErrors.IdempotencyKeyInUse)
  .addError(ApiErrors.MonthlyQuotaExceeded)
  .addError(ApiErrors.SigningKeyUnavailable)
  .addError(ApiErrors.AnchoringChainUnavailable)
  .annotateContext(OpenApi.annotations({
    identifier: "createBatch",
    summary: "Submit a batch of credentials",
    description:
      "Validates every credential synchronously, reserves the monthly quota, stores the batch and answers 202 with status `pending`; signing and anchoring follow asynchronously (typically within 60 s on the test chain, 3 min on the live chain). Subscribe to `batch.anchored` rather than polling. Counts as one request for rate limiting, whatever its size."
  }))

const listBatches = HttpApiEndpoint.get("listBatches", "/batches")
  .setUrlParams(ListBatchesParams)
  .addSuccess(Resources.BatchPage)
  .addError(ApiErrors.InvalidFieldFormat)
  .annotateContext(OpenApi.annotations({
    identifier: "listBatches",
    summary: "List batches, newest first",
    description:
      "Cursor pagination: follow `next_cursor` until `has_more` is false. A bad, forged, expired (24 h) or other-filter cursor is 400 `invalid_field_format` naming `cursor`."
  }))

const getBatch = HttpApiEndpoint.get("getBatch", "/batches/:id")
  .setPath(path(Resources.BatchId, "The batch id."))
  .addSuccess(Resources.Batch)
  .addError(ApiErrors.BatchNotFound)
  .annotateContext(OpenApi.annotations({ identifier: "getBatch", summary: "Get a batch" }))

/**
 * @since 0.1.0
 * @category groups
 */
export class Batches extends HttpApiGroup.make("Batches")
  .add(createBatch)
  .add(listBatches)
  .add(getBatch)
  .middleware(Authentication)
  .annotateContext(OpenApi.annotations({ description: "Submit batches of credentials and follow them." }))
{}

// ---------------------------------------------------------------------------------------------
// Credentials
// ---------------------------------------------------------------------------------------------

const credentialPath = path(Resources.CredentialId, "The credential id.")

const getCredential = HttpApiEndpoint.get("getCredential", "/credentials/:id")
  .setPath(credentialPath)
  .addSuccess(Resources.Credential)
  .addError(ApiErrors.CredentialNotFound)
  .annotateContext(OpenApi.annotations({
    identifier: "getCredential",
    summary: "Get a credential and its signed document"
  }))

const revokeCredential = HttpApiEndpoint.post("revokeCredential", "/credentials/:id/revoke")
  .setPath(credentialPath)
  .setHeaders(IdempotencyHeaders)
  .setPayload(CredentialInputs.RevocationRequest)
  .addSuccess(Resources.RevocationResponse)
  .addError(ApiErrors.InvalidJson)
  .addError(ApiErrors.MissingRequiredField)
  .addError(ApiErrors.InvalidFieldFormat)
  .addError(ApiErrors.CredentialNotFound)
  .addError(ApiErrors.CredentialAlreadyRevoked)
  .addError(ApiErrors.IdempotencyKeyReused)
  .addError(ApiErrors.IdempotencyKeyInUse)
  .annotateContext(OpenApi.annotations({
    identifier: "revokeCredential",
    summary: "Revoke a credential",
    description:
      "The proof still verifies cryptographically; the verification page shows `Status: Revoked` and the credential's status list reports it. Emits `credential.revoked`."
  }))

const eraseCredential = HttpApiEndpoint.post("eraseCredential", "/credentials/:id/erase")
  .setPath(credentialPath)
  .setHeaders(IdempotencyHeaders)
  .setPayload(CredentialInputs.ErasureRequest)
  .addSuccess(Resources.ErasureResponse)
  .addError(ApiErrors.InvalidJson)
  .addError(ApiErrors.MissingRequiredField)
  .addError(ApiErrors.InvalidFieldFormat)
  .addError(ApiErrors.CredentialNotFound)
  .addError(ApiErrors.CredentialAlreadyErased)
  .addError(ApiErrors.IdempotencyKeyReused)
  .addError(ApiErrors.IdempotencyKeyInUse)
  .annotateContext(OpenApi.annotations({
    identifier: "eraseCredential",
    summary: "Erase the recipient's personal data",
    description:
      "Deletes the recipient's name and email from the off-chain store; the anchor and the proofs are untouched. Independent of revocation. Emits `credential.erased`."
  }))

/**
 * @since 0.1.0
 * @category groups
 */
export class Credentials extends HttpApiGroup.make("Credentials")
  .add(getCredential)
  .add(revokeCredential)
  .add(eraseCredential)
  .middleware(Authentication)
  .annotateContext(OpenApi.annotations({ description: "Read, revoke and erase issued credentials." }))
{}

// ---------------------------------------------------------------------------------------------
// Tenants
// ---------------------------------------------------------------------------------------------

const getCurrentTenant = HttpApiEndpoint.get("getCurrentTenant", "/tenants/me")
  .addSuccess(Resources.Tenant)
  .annotateContext(OpenApi.annotations({ identifier: "getCurrentTenant", summary: "The tenant of the calling key" }))

const updateCurrentTenant = HttpApiEndpoint.patch("updateCurrentTenant", "/tenants/me")
  .setPayload(TenantInputs.TenantUpdate)
  .addSuccess(Resources.Tenant)
  .addError(ApiErrors.InvalidJson)
  .addError(ApiErrors.MissingRequiredField)
  .addError(ApiErrors.InvalidFieldFormat)
  .addError(ApiErrors.TenantNotFound)
  .annotateContext(OpenApi.annotations({
    identifier: "updateCurrentTenant",
    summary: "Update the tenant",
    description:
      "Only members present in the body change; `{}` changes nothing. `verify_page_branding` needs the `starter` plan or above (403 `tier_required`)."
  }))

/**
 * @since 0.1.0
 * @category groups
 */
export class Tenants extends HttpApiGroup.make("Tenants")
  .add(getCurrentTenant)
  .add(updateCurrentTenant)
  .middleware(Authentication)
  .annotateContext(OpenApi.annotations({ description: "The tenant the API key belongs to." }))
{}

// ---------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------

const webhookPath = path(Resources.WebhookId, "The webhook endpoint id.")

const createWebhook = HttpApiEndpoint.post("createWebhook", "/webhooks")
  .setHeaders(IdempotencyHeaders)
  .setPayload(WebhookInputs.CreateWebhookRequest)
  .addSuccess(Resources.CreatedWebhookEndpoint, { status: 201 })
  .addError(ApiErrors.InvalidJson)
  .addError(ApiErrors.MissingRequiredField)
  .addError(ApiErrors.InvalidFieldFormat)
  .addError(ApiErrors.IdempotencyKeyReused)
  .addError(ApiErrors.IdempotencyKeyInUse)
  .annotateContext(OpenApi.annotations({
    identifier: "createWebhook",
    summary: "Register a webhook endpoint",
    description:
      "Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `signing_secret`, returned only here. The URL must be https and must not resolve to a private, loopback or link-local address."
  }))

const listWebhooks = HttpApiEndpoint.get("listWebhooks", "/webhooks")
  .addSuccess(Resources.WebhookList)
  .annotateContext(OpenApi.annotations({ identifier: "listWebhooks", summary: "List webhook endpoints" }))

const deleteWebhook = HttpApiEndpoint.del("deleteWebhook", "/webhooks/:id")
  .setPath(webhookPath)
  .addSuccess(HttpApiSchema.NoContent)
  .addError(ApiErrors.WebhookNotFound)
  .annotateContext(OpenApi.annotations({
    identifier: "deleteWebhook",
    summary: "Delete a webhook endpoint",
    description: "Events already delivered are unaffected; pending and future events are not delivered to it."
  }))

const testWebhook = HttpApiEndpoint.post("testWebhook", "/webhooks/:id/test")
  .setPath(webhookPath)
  .setHeaders(IdempotencyHeaders)
  .addSuccess(Resources.WebhookTestResult)
  .addError(ApiErrors.WebhookNotFound)
  .addError(ApiErrors.IdempotencyKeyReused)
  .addError(ApiErrors.IdempotencyKeyInUse)
  .addError(ApiErrors.InvalidFieldFormat)
  .annotateContext(OpenApi.annotations({
    identifier: "testWebhook",
    summary: "Send a test event",
    description: "No body (any body is ignored). Delivers a synthetic `webhook.test` event now and reports the outcome."
  }))

/**
 * @since 0.1.0
 * @category groups
 */
export class Webhooks extends HttpApiGroup.make("Webhooks")
  .add(createWebhook)
  .add(listWebhooks)
  .add(deleteWebhook)
  .add(testWebhook)
  .middleware(Authentication)
  .annotateContext(OpenApi.annotations({ description: "Endpoints that receive events." }))
{}

// ---------------------------------------------------------------------------------------------
// the API
// ---------------------------------------------------------------------------------------------

/**
 * The version of the contract, in the OpenAPI document.
 *
 * @since 0.1.0
 * @category constants
 */
export const VERSION = "1.0.0"

/**
 * @since 0.1.0
 * @category api
 */
export class IssuerApi extends HttpApi.make("sigil")
  .add(Batches)
  .add(Credentials)
  .add(Tenants)
  .add(Webhooks)
  .prefix("/v1")
  .addError(ApiErrors.ApiKeyMissing)
  .addError(ApiErrors.ApiKeyInvalid)
  .addError(ApiErrors.ApiKeyRevoked)
  .addError(ApiErrors.IpNotAllowed)
  .addError(ApiErrors.TierRequired)
  .addError(ApiErrors.PayloadTooLarge)
  .addError(ApiErrors.UnsupportedMediaType)
  .addError(ApiErrors.RateLimited)
  .addError(ApiErrors.InternalError)
  .annotate(HttpApi.AdditionalSchemas, [
    ApiErrors.RouteNotFound,
    ApiErrors.MalformedRequest,
    ApiErrors.RequestTimeout,
    ApiErrors.RequestHeaderFieldsTooLarge,
    ApiErrors.EnvironmentMismatch,
    Resources.CreatedWebhookEndpoint
  ])
  .annotateContext(OpenApi.annotations({
    title: "Sigil issuer API",
    version: VERSION,
    description: OpenApiDocument.description,
    transform: OpenApiDocument.transform
  }))
{}

/**
 * The OpenAPI 3.1 document of the issuer API: served at `GET /v1/openapi.json` and committed
 * at `docs/openapi.json`.
 *
 * @since 0.1.0
 * @category openapi
 */
export const openApi = (): OpenApi.OpenAPISpec => OpenApi.fromApi(IssuerApi, { additionalPropertiesStrategy: "allow" })

/**
 * The document as committed: two-space JSON and a final newline.
 *
 * @since 0.1.0
 * @category openapi
 */
export const openApiText = (): string => `${JSON.stringify(openApi(), null, 2)}\n`
