/**
 * The administrative channel's contract (decisions §7): tenants, their plans and allowlists,
 * API keys and the audit log. Served on its own port (`ADMIN_PORT`, loopback) with its own
 * bearer token; the error bodies are the issuer API's. Contract only: the admin CLI derives
 * its client from it.
 *
 * @since 0.1.0
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import * as InputErrors from "@sigil/service/Inputs/InputErrors"
import * as InputFormats from "@sigil/service/Inputs/InputFormats"
import { Schema } from "effect"
import * as ApiErrors from "./ApiErrors.js"
import * as Resources from "./Resources.js"

const expected = (words: string) => ({ [InputErrors.ExpectedId]: words })

const Plan = Resources.Plan.annotations(expected("one of developer, starter, institution, industry"))

const Environment = Schema.Literal("test", "live").annotations(expected("test or live"))

const RecipientNameMode = Schema.Literal("hashed", "plain").annotations({
  ...expected("hashed or plain"),
  description:
    "`hashed` (default): the credential carries a salted hash of the recipient's name; `plain`: the name in clear (decisions §2)."
})

const Name = Schema.String.pipe(
  Schema.filter((s) =>
    (s.trim().length > 0 && s.length <= 200 && !InputFormats.hasControlCharacters(s)) ||
    "must be 1 to 200 characters, not blank, without control characters"
  )
).annotations(expected("a name of 1 to 200 characters"))

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateTenantRequest = Schema.Struct({ name: Name, plan: Plan }).annotations({
  identifier: "CreateTenantRequest",
  ...expected("a JSON object")
})

const SenderName = Schema.String.pipe(
  Schema.filter((s) =>
    // No line breaks either: the name goes into a mail header.
    (s.trim().length > 0 && s.length <= 100 && !/[\u0000-\u001f\u007f]/.test(s) && !InputFormats.hasControlCharacters(s)) ||
    "must be 1 to 100 characters, not blank, without control characters"
  )
).annotations(expected("a sender name of 1 to 100 characters"))

/**
 * The tenant's magic-link e-mail setting; it replaces the whole setting (an absent
 * `sender_name` or `reply_to` is cleared).
 *
 * @since 0.1.0
 * @category requests
 */
export const EmailDeliveryUpdate = Schema.Struct({
  enabled: Schema.Boolean.annotations(expected("true or false")),
  sender_name: Schema.optionalWith(SenderName, { exact: true }),
  reply_to: Schema.optionalWith(
    InputFormats.Email.annotations(expected("an e-mail address such as registrar@university.example")),
    { exact: true }
  )
}).annotations({
  identifier: "EmailDeliveryUpdate",
  ...expected("an object {enabled, sender_name?, reply_to?}"),
  description:
    "Magic-link e-mail delivery (off by default). Replaces the whole setting: `sender_name` (shown with the service's From address) and `reply_to` are cleared when absent."
})

/**
 * @since 0.1.0
 * @category requests
 */
export const UpdateTenantRequest = Schema.Struct({
  plan: Schema.optionalWith(Plan, { exact: true }),
  recipient_name_mode: Schema.optionalWith(RecipientNameMode, { exact: true }),
  ip_allowlist: Schema.optionalWith(
    Schema.Array(Schema.String.annotations(expected("a CIDR block such as 203.0.113.0/24"))).annotations({
      ...expected("an array of CIDR blocks"),
      description: "CIDR blocks (IPv4 or IPv6); `[]` removes the allowlist. Needs the institution plan or above."
    }),
    { exact: true }
  ),
  email_delivery: Schema.optionalWith(EmailDeliveryUpdate, { exact: true })
}).annotations({ identifier: "UpdateTenantRequest", ...expected("a JSON object") })

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateApiKeyRequest = Schema.Struct({ environment: Environment }).annotations({
  identifier: "CreateApiKeyRequest",
  ...expected("a JSON object")
})

const AuditLimit = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000)).annotations({
  message: () => ({ message: "must be an integer from 1 to 1000", override: true }),
  jsonSchema: { type: "integer", minimum: 1, maximum: 1000, default: 100 }
})

/**
 * @since 0.1.0
 * @category requests
 */
export const AuditParams = Schema.Struct({
  since: Schema.optional(
    InputFormats.UtcDateTime.annotations({
      message: () => ({ message: "must be an ISO 8601 UTC date-time such as 2025-06-30T12:00:00Z", override: true }),
      description: "Only rows from this time on."
    })
  ),
  limit: Schema.optionalWith(AuditLimit, { default: () => 100 })
})

/**
 * @since 0.1.0
 * @category responses
 */
export const AdminTenant = Schema.Struct({
  id: Resources.TenantId,
  name: Schema.String,
  plan: Resources.Plan,
  did: Schema.String,
  recipient_name_mode: Schema.Literal("hashed", "plain"),
  ip_allowlist: Schema.Array(Schema.String),
  email_delivery: Resources.EmailDeliverySetting,
  created_at: Schema.String.annotations({ jsonSchema: { format: "date-time" } })
}).annotations({ identifier: "AdminTenant" })

/**
 * @since 0.1.0
 * @category responses
 */
export const IssuedApiKey = Schema.Struct({
  id: Schema.String,
  key: Schema.String.annotations({ description: "The raw key: shown this once, never stored." }),
  environment: Schema.Literal("test", "live"),
  created_at: Schema.String.annotations({ jsonSchema: { format: "date-time" } })
}).annotations({ identifier: "IssuedApiKey" })

/**
 * @since 0.1.0
 * @category responses
 */
export const RevokedApiKey = Schema.Struct({
  id: Schema.String,
  revoked_at: Schema.String.annotations({ jsonSchema: { format: "date-time" } })
}).annotations({ identifier: "RevokedApiKey" })

/**
 * One audit row: `request_id`, `tenant_id`, `key_id`, `method`, `route`, `status`, `timestamp`.
 *
 * @since 0.1.0
 * @category responses
 */
export const AuditRow = Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number) }).annotations({
  identifier: "AuditRow",
  jsonSchema: {
    type: "object",
    required: ["request_id", "tenant_id", "key_id", "method", "route", "status", "timestamp"],
    properties: {
      request_id: { type: "string" },
      tenant_id: { type: "string" },
      key_id: { type: "string", description: "The API key's id, never the key." },
      method: { type: "string" },
      route: { type: "string", description: "The route template, e.g. `/v1/batches/:id`." },
      status: { type: "integer" },
      timestamp: { type: "string", format: "date-time" }
    }
  }
})

/**
 * The admin token: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
 *
 * @since 0.1.0
 * @category security
 */
export class AdminAuthentication extends HttpApiMiddleware.Tag<AdminAuthentication>()(
  "@sigil/http/AdminAuthentication",
  {
    failure: ApiErrors.AdminTokenInvalid,
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "The admin token (`ADMIN_TOKEN`).")
      )
    }
  }
) {}

const tenantPath = Schema.Struct({ id: Resources.TenantId })

/**
 * @since 0.1.0
 * @category groups
 */
export class Admin extends HttpApiGroup.make("Admin")
  .add(
    HttpApiEndpoint.post("createTenant", "/admin/tenants")
      .setPayload(CreateTenantRequest)
      .addSuccess(AdminTenant, { status: 201 })
      .addError(ApiErrors.InvalidJson)
      .addError(ApiErrors.MissingRequiredField)
      .addError(ApiErrors.InvalidFieldFormat)
      .addError(ApiErrors.KeyVaultUnavailable)
      .annotateContext(OpenApi.annotations({
        identifier: "createTenant",
        summary: "Create a tenant with its signing and anchoring keys"
      }))
  )
  .add(
    HttpApiEndpoint.get("getTenant", "/admin/tenants/:id")
      .setPath(tenantPath)
      .addSuccess(AdminTenant)
      .addError(ApiErrors.TenantNotFound)
      .annotateContext(OpenApi.annotations({ identifier: "getTenant" }))
  )
  .add(
    HttpApiEndpoint.patch("updateTenant", "/admin/tenants/:id")
      .setPath(tenantPath)
      .setPayload(UpdateTenantRequest)
      .addSuccess(AdminTenant)
      .addError(ApiErrors.InvalidJson)
      .addError(ApiErrors.MissingRequiredField)
      .addError(ApiErrors.InvalidFieldFormat)
      .addError(ApiErrors.TenantNotFound)
      .addError(ApiErrors.TierRequired)
      .annotateContext(OpenApi.annotations({
        identifier: "updateTenant",
        summary: "Change a tenant's plan, recipient name mode, IP allowlist or e-mail delivery"
      }))
  )
  .add(
    HttpApiEndpoint.post("createApiKey", "/admin/tenants/:id/keys")
      .setPath(tenantPath)
      .setPayload(CreateApiKeyRequest)
      .addSuccess(IssuedApiKey, { status: 201 })
      .addError(ApiErrors.InvalidJson)
      .addError(ApiErrors.MissingRequiredField)
      .addError(ApiErrors.InvalidFieldFormat)
      .addError(ApiErrors.TenantNotFound)
      .addError(ApiErrors.TierRequired)
      .annotateContext(OpenApi.annotations({
        identifier: "createApiKey",
        summary: "Issue an API key (the raw key is in this answer only)"
      }))
  )
  .add(
    HttpApiEndpoint.post("revokeApiKey", "/admin/keys/:key_id/revoke")
      .setPath(Schema.Struct({ key_id: Schema.String }))
      .addSuccess(RevokedApiKey)
      .addError(ApiErrors.ApiKeyNotFound)
      .annotateContext(OpenApi.annotations({ identifier: "revokeApiKey", summary: "Revoke an API key at once" }))
  )
  .add(
    HttpApiEndpoint.get("listAudit", "/admin/tenants/:id/audit")
      .setPath(tenantPath)
      .setUrlParams(AuditParams)
      .addSuccess(Schema.Struct({ data: Schema.Array(AuditRow) }))
      .addError(ApiErrors.TenantNotFound)
      .addError(ApiErrors.InvalidFieldFormat)
      .annotateContext(OpenApi.annotations({ identifier: "listAudit", summary: "A tenant's audit log, oldest first" }))
  )
  .middleware(AdminAuthentication)
{}

/**
 * @since 0.1.0
 * @category api
 */
export class AdminApi extends HttpApi.make("sigil-admin")
  .add(Admin)
  .addError(ApiErrors.PayloadTooLarge)
  .addError(ApiErrors.UnsupportedMediaType)
  .addError(ApiErrors.InternalError)
  .annotate(HttpApi.AdditionalSchemas, [
    ApiErrors.RouteNotFound,
    ApiErrors.MalformedRequest,
    ApiErrors.RequestTimeout,
    ApiErrors.RequestHeaderFieldsTooLarge
  ])
  .annotateContext(OpenApi.annotations({ title: "Sigil administrative channel", version: "1.0.0" }))
{}
