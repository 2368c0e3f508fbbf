/**
 * The success bodies of the API (issuer-api.md "Resources and their fields") as Schemas, field
 * for field the JSON that core's `Views` build. Optional fields of the contract are always
 * present, `null` until set, so clients can rely on one shape.
 *
 * Some fields are plain strings at runtime (the views type them so) but documented with their
 * enumeration: `jsonSchema` annotations carry the enum into OpenAPI without narrowing the type.
 *
 * This module is part of the contract: clients may import it.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as CredentialInputs from "@sigil/service/Inputs/CredentialInputs"
import * as WebhookInputs from "@sigil/service/Inputs/WebhookInputs"

const DateTime = Schema.String.annotations({
  description: "ISO 8601 UTC date-time.",
  jsonSchema: { format: "date-time" },
  examples: ["2025-06-30T12:00:00.000Z"]
})

const Url = Schema.String.annotations({ jsonSchema: { format: "uri" } })

const Environment = Schema.Literal("test", "live").annotations({
  description: "The environment of the API key: `test` anchors on the test chain, `live` on Base mainnet."
})

const idPattern = (prefix: string) =>
  Schema.String.annotations({
    description: `\`${prefix}_\` followed by 26 uppercase ULID characters.`,
    jsonSchema: { pattern: `^${prefix}_[A-Z0-9]{26}$` }
  })

/**
 * @since 0.1.0
 * @category ids
 */
export const BatchId = idPattern("bat")
/**
 * @since 0.1.0
 * @category ids
 */
export const CredentialId = idPattern("crd")
/**
 * @since 0.1.0
 * @category ids
 */
export const TenantId = idPattern("tnt")
/**
 * @since 0.1.0
 * @category ids
 */
export const WebhookId = idPattern("whk")

// ---------------------------------------------------------------------------------------------
// batches
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category batches
 */
export const AnchorTransaction = Schema.Struct({
  chain: Schema.String.annotations({
    description: "`base-mainnet`, `base-sepolia`, or `devnet` (the embedded development chain).",
    jsonSchema: { enum: ["base-mainnet", "base-sepolia", "devnet"] }
  }),
  hash: Schema.String.annotations({ description: "Transaction hash, `0x`-prefixed." }),
  block_number: Schema.Number.annotations({ jsonSchema: { type: "integer" } }),
  explorer_url: Schema.NullOr(Url)
}).annotations({ identifier: "AnchorTransaction", description: "The transaction that anchors the batch's Merkle root." })

/**
 * @since 0.1.0
 * @category batches
 */
export const CredentialSummary = Schema.Struct({
  id: CredentialId,
  recipient_id: Schema.String,
  verify_url: Url.annotations({ description: "The credential's public verification page." })
}).annotations({ identifier: "CredentialSummary" })

/**
 * @since 0.1.0
 * @category batches
 */
export const Batch = Schema.Struct({
  id: BatchId,
  status: Schema.Literal("pending", "signed", "anchored", "failed").annotations({
    description: "`pending` → `signed` → `anchored`; `failed` from `pending` or `signed` when the batch can never complete."
  }),
  credentials_count: Schema.Number.annotations({ jsonSchema: { type: "integer" } }),
  created_at: DateTime,
  environment: Environment,
  anchored_at: Schema.NullOr(DateTime).annotations({ description: "Set once anchored." }),
  merkle_root: Schema.NullOr(Schema.String).annotations({
    description: "Hex SHA-256 Merkle root of the batch's credentials, `0x`-prefixed; set once signed."
  }),
  anchor_transaction: Schema.NullOr(AnchorTransaction).annotations({ description: "Set once anchored." }),
  credentials: Schema.NullOr(Schema.Array(CredentialSummary)).annotations({
    description: "The batch's credentials, populated once the batch is `anchored`."
  }),
  error: Schema.NullOr(Schema.String).annotations({ description: "Why the batch failed; set only when `failed`." })
}).annotations({
  identifier: "Batch",
  description:
    "A batch of credentials. All of its credentials share one anchoring transaction and one issuance time. Optional fields are present as `null` until set."
})

/**
 * @since 0.1.0
 * @category batches
 */
export const BatchPage = Schema.Struct({
  data: Schema.Array(Batch),
  next_cursor: Schema.NullOr(Schema.String).annotations({
    description: "Pass as `cursor` to get the next page; opaque, valid 24 h; `null` on the last page."
  }),
  has_more: Schema.Boolean
}).annotations({ identifier: "BatchPage", description: "A page of batches, newest first." })

// ---------------------------------------------------------------------------------------------
// credentials
// ---------------------------------------------------------------------------------------------

const SignedCredentialDocumentation = {
  type: "object",
  description:
    "The signed credential: at once a W3C VC 2.0, an Open Badges 3.0 and a Blockcerts v3 credential (JSON-LD), the document the public verification page renders and any Blockcerts-compatible verifier consumes. Shape per decisions §1: `@context` (VC 2.0, OB 3.0.3, plus the status-list context when `credentialStatus` is present), `id` (`urn:uuid:`), `type` (`VerifiableCredential`, `OpenBadgeCredential`), `name`, `issuer` (`did:web:{host}:tenants:<suffix>`, type `Profile`), `validFrom`/`validUntil`, `credentialSubject` (`AchievementSubject` with the achievement), optional `credentialStatus` and `evidence`, and `proof`: an array, the `merkle-proof-2019` Data Integrity proof first once anchored, then the `eddsa-rdfc-2022` proof.",
  required: ["@context", "id", "type", "issuer", "validFrom", "credentialSubject", "proof"],
  properties: {
    "@context": { type: "array", items: { type: "string" } },
    id: { type: "string" },
    type: { type: "array", items: { type: "string" } },
    name: { type: "string" },
    issuer: {
      type: "object",
      required: ["id", "type"],
      properties: { id: { type: "string" }, type: { type: "array", items: { type: "string" } }, name: { type: "string" } }
    },
    validFrom: { type: "string", format: "date-time" },
    validUntil: { type: "string", format: "date-time" },
    credentialSubject: { type: "object" },
    credentialStatus: { type: "object" },
    evidence: { type: "array", items: { type: "object" } },
    proof: { type: "array", items: { type: "object" } }
  }
} as const

/**
 * The signed JSON-LD document; any JSON object at runtime, documented with its members.
 *
 * @since 0.1.0
 * @category credentials
 */
export const SignedCredential = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  identifier: "SignedCredential",
  jsonSchema: SignedCredentialDocumentation
})

/**
 * A credential's magic-link e-mail (issue #10); never the address.
 *
 * @since 0.1.0
 * @category credentials
 */
export const EmailDelivery = Schema.Struct({
  status: Schema.Literal("queued", "sent", "bounced", "failed", "cancelled").annotations({
    description:
      "`queued`: waiting to be sent (or retried); `sent`: accepted by the mail server; `bounced`: refused for good by the mail server; `failed`: every retry failed; `cancelled`: the recipient's data was erased before it could be sent."
  }),
  attempts: Schema.Number.annotations({ jsonSchema: { type: "integer" }, description: "Sending attempts so far." }),
  last_error: Schema.NullOr(Schema.String).annotations({ description: "Why the last attempt failed (the mail server's reply, without the address)." }),
  last_attempt_at: Schema.NullOr(DateTime),
  sent_at: Schema.NullOr(DateTime),
  claimed_at: Schema.NullOr(DateTime).annotations({ description: "When the recipient first opened their claim link." })
}).annotations({ identifier: "EmailDelivery" })

/**
 * @since 0.1.0
 * @category credentials
 */
export const Credential = Schema.Struct({
  id: CredentialId,
  verify_url: Url.annotations({ description: "The credential's public verification page." }),
  status: Schema.Literal("pending", "signed", "anchored"),
  revoked: Schema.Boolean,
  erased: Schema.Boolean,
  signed_credential: Schema.NullOr(SignedCredential).annotations({
    description:
      "The signed document; `null` while the credential is `pending` (there is no signed document yet). Once `signed` it carries the eddsa-rdfc-2022 proof, once `anchored` also the Merkle proof."
  }),
  email_delivery: Schema.NullOr(EmailDelivery).annotations({
    description:
      "The magic-link e-mail to the recipient, queued when the batch was anchored if the tenant has `email_delivery` on and the recipient has an `email`; `null` otherwise."
  })
}).annotations({ identifier: "Credential" })

/**
 * @since 0.1.0
 * @category credentials
 */
export const RevocationResponse = Schema.Struct({
  id: CredentialId,
  revoked: Schema.Boolean,
  revoked_at: DateTime,
  reason: Schema.String,
  reason_code: CredentialInputs.RevocationReasonCode
}).annotations({ identifier: "RevocationResponse" })

/**
 * @since 0.1.0
 * @category credentials
 */
export const ErasureResponse = Schema.Struct({
  id: CredentialId,
  erased: Schema.Boolean,
  erased_at: DateTime,
  verification_status_after_erasure: Schema.Literal("verifiable", "invalid").annotations({
    description:
      "`verifiable`: the stored document never held the name in clear (hashed mode) and still verifies. `invalid`: the stored copy held the name and can no longer be verified (holders' copies still verify)."
  })
}).annotations({ identifier: "ErasureResponse" })

// ---------------------------------------------------------------------------------------------
// tenants
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category tenants
 */
export const Plan = Schema.Literal("developer", "starter", "institution", "industry")

/**
 * @since 0.1.0
 * @category tenants
 */
export const EmailDeliverySetting = Schema.Struct({
  enabled: Schema.Boolean,
  sender_name: Schema.NullOr(Schema.String).annotations({
    description: "The name shown with the service's From address; the awarding body's (or tenant's) name when `null`."
  }),
  reply_to: Schema.NullOr(Schema.String).annotations({ description: "Where recipients' replies go." })
}).annotations({
  identifier: "EmailDeliverySetting",
  description:
    "Magic-link e-mail delivery, set on the administrative channel (`PATCH /admin/tenants/{id}`). When enabled, every recipient with an `email` gets one message once their batch is anchored, with a personal link to their credential's page (valid 30 days)."
})

/**
 * @since 0.1.0
 * @category tenants
 */
export const Tenant = Schema.Struct({
  id: TenantId,
  name: Schema.String,
  display_name: Schema.NullOr(Schema.String),
  did: Schema.String.annotations({
    description: "The tenant's DID, `did:web:{host}:tenants:<suffix>`: the `issuer.id` of its credentials."
  }),
  plan: Plan,
  environment: Environment,
  awarding_body: Schema.NullOr(
    Schema.Struct({ name: Schema.String, url: Schema.NullOr(Url), logo_url: Schema.NullOr(Url) })
  ),
  verify_page_branding: Schema.NullOr(
    Schema.Struct({ accent_color: Schema.NullOr(Schema.String), logo_url: Schema.NullOr(Url) })
  ),
  email_delivery: EmailDeliverySetting,
  credentials_issued_this_month: Schema.Number.annotations({
    jsonSchema: { type: "integer" },
    description: "Credentials issued this calendar month (UTC), both environments together."
  }),
  credentials_limit_this_month: Schema.Number.annotations({
    jsonSchema: { type: "integer" },
    description: "The plan's monthly credential quota."
  })
}).annotations({ identifier: "Tenant", description: "The tenant of the calling key, seen in the key's environment." })

// ---------------------------------------------------------------------------------------------
// webhooks
// ---------------------------------------------------------------------------------------------

const WebhookEventTypeString = Schema.String.annotations({ jsonSchema: { enum: [...WebhookInputs.WEBHOOK_EVENT_TYPES] } })

const webhookFields = {
  id: WebhookId,
  url: Url,
  events: Schema.Array(WebhookEventTypeString),
  description: Schema.NullOr(Schema.String),
  active: Schema.Boolean.annotations({
    description: "`false` once deliveries have failed for 5 days or the endpoint answered 410 Gone."
  }),
  created_at: DateTime
}

/**
 * @since 0.1.0
 * @category webhooks
 */
export const WebhookEndpoint = Schema.Struct(webhookFields).annotations({ identifier: "WebhookEndpoint" })

/**
 * The creation answer: the endpoint and, this once, its signing secret.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const CreatedWebhookEndpoint = Schema.Struct({
  ...webhookFields,
  signing_secret: Schema.String.annotations({
    description:
      "`whsec_` + base64 of 32 bytes: verifies the Standard Webhooks signatures of deliveries. Returned only in this response."
  })
}).annotations({ identifier: "CreatedWebhookEndpoint" })

/**
 * @since 0.1.0
 * @category webhooks
 */
export const WebhookList = Schema.Struct({ data: Schema.Array(WebhookEndpoint) }).annotations({
  identifier: "WebhookList"
})

/**
 * @since 0.1.0
 * @category webhooks
 */
export const WebhookTestResult = Schema.Struct({
  delivered: Schema.Boolean.annotations({ description: "Whether the endpoint answered 2xx." }),
  status_code: Schema.NullOr(Schema.Number.annotations({ jsonSchema: { type: "integer" } })).annotations({
    description: "The endpoint's HTTP status; `null` when it gave no HTTP answer."
  }),
  delivered_at: DateTime
}).annotations({ identifier: "WebhookTestResult" })
