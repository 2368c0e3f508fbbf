/**
 * The request bodies of the issuer API (issuer-api.md) as Effect Schemas, and the one domain
 * error a body that fails them produces: `InvalidInput`, whose `code` is the contract's.
 *
 * The Encoded side of every schema is the JSON of the contract, field for field; the Type side
 * keeps the same names. The HttpApi contract reuses these schemas, so they carry `description`,
 * `examples` and JSON Schema formats for OpenAPI. A decode failure is reported as the first
 * failure in document order (array items by index, object members in the order the client sent
 * them, missing members last), with the field's path (`credentials[3].recipient.name`).
 *
 * Decisions where the contract is silent:
 * - Date-times (`issuanceDate`, `expirationDate`, `verified_at`): `YYYY-MM-DDTHH:MM:SS`, an
 *   optional fraction of 1 to 9 digits, then `Z` or `+00:00`; a real calendar date (proleptic
 *   Gregorian, years 0000–9999, no leap second). Decoded to the same string with `Z` for
 *   `+00:00`; the fraction is kept as sent.
 * - `expirationDate`: absent or `null` means non-expiring (decoded: absent). When present it must
 *   be strictly after `issuanceDate` (compared as instants), else `invalid_field_format` on
 *   `expirationDate`.
 * - `credentials`: not an array → `invalid_field_format`; more than 500 items → `batch_too_large`,
 *   checked before any item is validated; no items → `invalid_field_format`.
 * - `achievement_too_large`: the UTF-8 length of `JSON.stringify` of the achievement as received
 *   (unknown members included) is over 65,536 bytes; checked before the achievement's other rules.
 * - `recipient.id`: `^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`
 *   (version 4, RFC variant, lowercase), else `recipient_id_invalid`, also when it is not a string.
 * - `targetFramework` not exactly `ESCO`, `O*NET`, `ISCED-F` or `CUSTOM` → `alignment_framework_unknown`,
 *   also when it is not a string.
 * - `evidence` is accepted on the credential and in the achievement; the decoded credential has
 *   one `evidence` list, credential-level items first, and its achievement has none. Each item is
 *   `{id?: absolute URI, narrative?}` with at least one of the two; at most 100 items per credential,
 *   both levels together (reported on `evidence`).
 * - Strings: every string field, required or optional, must be non-empty after trimming
 *   ("must not be empty"); the value itself is kept untrimmed. Limits, in Unicode code points:
 *   achievement `name`, alignment `targetCode` / `targetName`, awarding body `name`: 1,000;
 *   recipient `name`: 500; revocation `reason`: 1,000; webhook `description`: 500; `display_name`:
 *   200; evidence `narrative`: 65,536; URIs: 2,048; e-mail: 254. Achievement `description` and
 *   `criteria.narrative` are bounded only by the 64 KB achievement rule.
 * - URIs (`achievement.id`, `targetUrl`, evidence `id`): absolute RFC 3986 URIs with a scheme,
 *   ASCII only (`urn:uuid:…` is fine). `awarding_body.url`, the `logo_url`s and the webhook `url`
 *   must be `http` or `https` URLs with a host (the webhook's https-only and private-address
 *   policy belongs to the webhook service, decisions §5).
 * - `email`: optional; `local@domain.tld` with no spaces or characters needing quotes, at most
 *   254 characters.
 * - `accent_color`: `#RRGGBB`, either case, kept as sent.
 * - `events`: at least one item, each a `WebhookEventType`; duplicates are collapsed, keeping the
 *   first occurrence's position.
 * - TenantUpdate: every member optional, `{}` is a valid no-op; `null` is not accepted for any
 *   member (clearing a value is not part of this contract).
 * - A member of the wrong JSON type → `invalid_field_format`; an array where an object is
 *   expected too. Unknown members are ignored and dropped.
 * - Messages name the field and the expected format but never quote the received value (it may
 *   be personal data, or megabytes long). The body itself has the field path `""`.
 *
 * @since 0.1.0
 */
import * as CredentialState from "@sigil/core/CredentialState"
import { Effect, ParseResult, Schema } from "effect"
import * as Formats from "./internal/inputFormats.js"
import * as Issues from "./internal/inputIssues.js"
import * as S from "./internal/inputSchemas.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_CREDENTIALS_PER_BATCH = 500

/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_ACHIEVEMENT_BYTES = 65_536

/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_EVIDENCE_PER_CREDENTIAL = 100

// ---------------------------------------------------------------------------------------------
// errors
// ---------------------------------------------------------------------------------------------

/**
 * The contract's codes for a body that fails validation (all HTTP 400).
 *
 * @since 0.1.0
 * @category errors
 */
export const InputErrorCode = Issues.InputErrorCode
/**
 * @since 0.1.0
 * @category errors
 */
export type InputErrorCode = Issues.InputErrorCode

/**
 * A request body failed validation. `field` is the path of the offending member
 * (`credentials[3].recipient.name`, `""` for the body itself); `message` names it.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  code: InputErrorCode,
  field: Schema.String,
  message: Schema.String
}) {}

/**
 * The `InvalidInput` of any decode failure: the first failure in document order. The HTTP layer
 * uses it for the failures of its own decoding, so both report alike.
 *
 * @since 0.1.0
 * @category errors
 */
export const fromParseError = (error: ParseResult.ParseError): InvalidInput =>
  new InvalidInput(Issues.firstFailure(error.issue))

/**
 * Annotation key: the error code of a schema's own failure (default `invalid_field_format`),
 * for schemas outside this module that `fromParseError` should report with another code.
 *
 * @since 0.1.0
 * @category annotations
 */
export const ErrorCodeId: typeof Issues.ErrorCodeId = Issues.ErrorCodeId

/**
 * Annotation key: words for a valid value ("an ISO 8601 UTC date-time…"), which end the message
 * of a failure at that field.
 *
 * @since 0.1.0
 * @category annotations
 */
export const ExpectedId: typeof Issues.ExpectedId = Issues.ExpectedId

// ---------------------------------------------------------------------------------------------
// formats
// ---------------------------------------------------------------------------------------------

/**
 * An ISO 8601 UTC date-time (`Z` or `+00:00`, fraction of up to 9 digits, real calendar date),
 * decoded to the same string ending in `Z`.
 *
 * @since 0.1.0
 * @category formats
 */
export const UtcDateTime = S.utcDateTime.annotations({ examples: ["2025-06-30T12:00:00Z"] })

/**
 * An absolute URI with a scheme.
 *
 * @since 0.1.0
 * @category formats
 */
export const Uri = S.uri

/**
 * An absolute `http` or `https` URL.
 *
 * @since 0.1.0
 * @category formats
 */
export const HttpUrl = S.httpUrl

/**
 * A plausible e-mail address.
 *
 * @since 0.1.0
 * @category formats
 */
export const Email = Schema.String.pipe(
  Schema.filter(Formats.isPlausibleEmail, { jsonSchema: { format: "email", maxLength: Formats.MAX_EMAIL_LENGTH } })
).annotations(S.rule({ expected: "an e-mail address such as ada@example.org, at most 254 characters" }))

/**
 * A recipient id: `urn:uuid:` and a lowercase version-4 UUID. Pseudonymous, never personal data.
 *
 * @since 0.1.0
 * @category formats
 */
export const RecipientId = Schema.String.annotations(S.rule({ code: "recipient_id_invalid" })).pipe(
  Schema.pattern(
    /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    { ...S.rule({ code: "recipient_id_invalid" }), examples: ["urn:uuid:3f1c9a2e-7b4d-4e8f-9a6b-2c5d8e1f0a3b"] }
  ),
  Schema.brand("RecipientId")
).annotations({
  ...S.rule({ code: "recipient_id_invalid", expected: "urn:uuid: followed by a lowercase version-4 UUID" }),
  description: "Pseudonymous recipient id: `urn:uuid:` and a lowercase version-4 UUID. Never personal data."
})
/**
 * @since 0.1.0
 * @category formats
 */
export type RecipientId = typeof RecipientId.Type

// ---------------------------------------------------------------------------------------------
// enumerations
// ---------------------------------------------------------------------------------------------

const oneOf = (values: ReadonlyArray<string>) => `one of ${values.join(", ")}`

/**
 * @since 0.1.0
 * @category enumerations
 */
export const WEBHOOK_EVENT_TYPES = [
  "batch.created",
  "batch.signed",
  "batch.anchored",
  "batch.failed",
  "credential.revoked",
  "credential.erased",
  "webhook.test"
] as const

/**
 * @since 0.1.0
 * @category enumerations
 */
export const WebhookEventType = Schema.Literal(...WEBHOOK_EVENT_TYPES).annotations({
  ...S.rule({ expected: oneOf(WEBHOOK_EVENT_TYPES) }),
  identifier: "WebhookEventType",
  description: "A webhook event type."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type WebhookEventType = typeof WebhookEventType.Type

const REASON_CODES = CredentialState.REVOCATION_REASON_CODES

/**
 * @since 0.1.0
 * @category enumerations
 */
export const RevocationReasonCode = Schema.Literal(...REASON_CODES).annotations({
  ...S.rule({ expected: oneOf(REASON_CODES) }),
  description: "Why the credential is revoked, machine-readable."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type RevocationReasonCode = typeof RevocationReasonCode.Type

const REQUESTERS = CredentialState.ERASURE_REQUESTERS

/**
 * @since 0.1.0
 * @category enumerations
 */
export const ErasureRequester = Schema.Literal(...REQUESTERS).annotations({
  ...S.rule({ expected: oneOf(REQUESTERS) }),
  description: "Who asked for the erasure."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type ErasureRequester = typeof ErasureRequester.Type

const FRAMEWORKS = ["ESCO", "O*NET", "ISCED-F", "CUSTOM"] as const

/**
 * @since 0.1.0
 * @category enumerations
 */
export const AlignmentFramework = Schema.Literal(...FRAMEWORKS).annotations({
  ...S.rule({ code: "alignment_framework_unknown", expected: oneOf(FRAMEWORKS) }),
  description: "The framework the alignment points into."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type AlignmentFramework = typeof AlignmentFramework.Type

// ---------------------------------------------------------------------------------------------
// credentials
// ---------------------------------------------------------------------------------------------

const optional = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(schema, { exact: true })

/**
 * An evidence reference: `id` (absolute URI), `narrative`, or both.
 *
 * @since 0.1.0
 * @category credentials
 */
export const EvidenceInput = S.object(
  Schema.Struct({
    id: optional(Uri.annotations({ description: "Where the evidence is, or its identifier." })),
    narrative: optional(S.text(65_536).annotations({ description: "The evidence, in words." }))
  }).pipe(
    // `jsonSchema: {}` keeps this refinement's description in JSON Schema (Effect drops the
    // annotations of a refinement that has none).
    Schema.filter((e) => e.id !== undefined || e.narrative !== undefined || "must have an id or a narrative", {
      jsonSchema: {}
    })
  ).annotations({ identifier: "EvidenceInput", description: "Evidence of the achievement: an id, a narrative or both." })
)
/**
 * @since 0.1.0
 * @category credentials
 */
export type EvidenceInput = typeof EvidenceInput.Type

const EvidenceList = Schema.Array(EvidenceInput).annotations({
  ...S.rule({ expected: "an array of evidence items" }),
  description: `Evidence references; at most ${MAX_EVIDENCE_PER_CREDENTIAL} per credential, both levels together.`
})

/**
 * @since 0.1.0
 * @category credentials
 */
export const RecipientInput = S.object(
  Schema.Struct({
    id: RecipientId,
    name: S.text(500).annotations({
      description: "Display name; stored off-chain and redactable on erasure.",
      examples: ["Ada Lovelace"]
    }),
    email: optional(Email.annotations({ description: "Off-chain only; for magic-link delivery if enabled." }))
  }).annotations({ identifier: "RecipientInput", description: "The person the credential is issued to." })
)
/**
 * @since 0.1.0
 * @category credentials
 */
export type RecipientInput = typeof RecipientInput.Type

/**
 * @since 0.1.0
 * @category credentials
 */
export const AlignmentInput = S.object(
  Schema.Struct({
    targetFramework: AlignmentFramework,
    targetCode: S.text(1000).annotations({ description: "The code in the framework.", examples: ["0613"] }),
    targetName: S.text(1000).annotations({ description: "The name in the framework." }),
    targetUrl: optional(Uri.annotations({ description: "The framework's page for the target." }))
  }).annotations({ identifier: "AlignmentInput", description: "A skill or qualification the achievement aligns to." })
)
/**
 * @since 0.1.0
 * @category credentials
 */
export type AlignmentInput = typeof AlignmentInput.Type

const CriteriaInput = S.object(
  Schema.Struct({
    narrative: optional(S.text().annotations({ description: "How the achievement is earned." }))
  }).annotations({ identifier: "CriteriaInput" })
)

const achievementFields = {
  id: optional(Uri.annotations({
    description: "Stable URI identifying the achievement definition; need not resolve.",
    examples: ["https://university.example/programs/bsc-cs"]
  })),
  name: S.text(1000).annotations({ description: "The achievement's name.", examples: ["BSc Computer Science"] }),
  description: S.text().annotations({ description: "What the achievement is." }),
  criteria: optional(CriteriaInput),
  alignment: optional(Schema.Array(AlignmentInput).annotations(S.rule({ expected: "an array of alignments" })))
}

/**
 * The achievement as sent: at most 64 KB serialized, checked before its other rules.
 *
 * @since 0.1.0
 * @category credentials
 */
export const AchievementInput = S.precheck(
  S.maxJsonBytes(MAX_ACHIEVEMENT_BYTES, "achievement_too_large"),
  S.object(
    Schema.Struct({ ...achievementFields, evidence: optional(EvidenceList) }).annotations({
      identifier: "AchievementInput",
      description: `The Open Badges achievement; at most ${MAX_ACHIEVEMENT_BYTES} bytes as JSON.`
    })
  )
)
/**
 * @since 0.1.0
 * @category credentials
 */
export type AchievementInput = typeof AchievementInput.Type

const CredentialInputWire = S.object(
  Schema.Struct({
    recipient: RecipientInput,
    achievement: AchievementInput,
    issuanceDate: UtcDateTime.annotations({ description: "When the credential is issued (UTC)." }),
    expirationDate: optional(
      Schema.NullOr(UtcDateTime).annotations({
        ...S.rule({ expected: "an ISO 8601 UTC date-time such as 2026-06-30T12:00:00Z, or null" }),
        description: "When the credential expires (UTC); absent or null for a non-expiring credential."
      })
    ),
    evidence: optional(EvidenceList)
  }).pipe(
    Schema.filter((c) =>
      c.expirationDate == null || Formats.sortKey(c.expirationDate) > Formats.sortKey(c.issuanceDate) ||
      { path: ["expirationDate"], message: "must be after issuanceDate" }
    ),
    Schema.filter((c) =>
      (c.evidence?.length ?? 0) + (c.achievement.evidence?.length ?? 0) <= MAX_EVIDENCE_PER_CREDENTIAL ||
      {
        path: ["evidence"],
        message: `at most ${MAX_EVIDENCE_PER_CREDENTIAL} evidence items per credential, achievement.evidence included`
      },
      { jsonSchema: {} }
    )
  ).annotations({ identifier: "CredentialInput", description: "One credential to issue." })
)

const CredentialInputDecoded = Schema.Struct({
  recipient: Schema.typeSchema(RecipientInput),
  achievement: Schema.typeSchema(Schema.Struct(achievementFields)),
  issuanceDate: Schema.String,
  expirationDate: optional(Schema.String),
  evidence: Schema.Array(Schema.typeSchema(EvidenceInput))
})

/**
 * One credential. Decoded: `expirationDate` absent when non-expiring, and one `evidence` list
 * (credential-level items first, then the achievement's); the achievement has no `evidence`.
 *
 * @since 0.1.0
 * @category credentials
 */
export const CredentialInput: Schema.Schema<typeof CredentialInputDecoded.Type, typeof CredentialInputWire.Encoded> =
  Schema.transform(CredentialInputWire, CredentialInputDecoded, {
    strict: true,
    decode: (wire) => {
      const { evidence: inner, ...achievement } = wire.achievement
      return {
        recipient: wire.recipient,
        achievement,
        issuanceDate: wire.issuanceDate,
        ...(wire.expirationDate == null ? {} : { expirationDate: wire.expirationDate }),
        evidence: [...(wire.evidence ?? []), ...(inner ?? [])]
      }
    },
    encode: (credential) => ({
      recipient: credential.recipient,
      achievement: credential.achievement,
      issuanceDate: credential.issuanceDate,
      ...(credential.expirationDate === undefined ? {} : { expirationDate: credential.expirationDate }),
      ...(credential.evidence.length === 0 ? {} : { evidence: credential.evidence })
    })
  })
/**
 * @since 0.1.0
 * @category credentials
 */
export type CredentialInput = typeof CredentialInput.Type

const credentialsGuard = Schema.Unknown.pipe(
  Schema.filter(Array.isArray),
  Schema.filter(
    (items) =>
      items.length <= MAX_CREDENTIALS_PER_BATCH ||
      `has ${items.length} credentials; a batch holds at most ${MAX_CREDENTIALS_PER_BATCH}`,
    S.rule({ code: "batch_too_large" })
  ),
  Schema.filter((items) => items.length >= 1 || "must contain at least one credential")
).annotations(S.rule({ expected: `an array of 1 to ${MAX_CREDENTIALS_PER_BATCH} credentials` }))

/**
 * `POST /batches`: 1 to 500 credentials. The count is checked before any credential.
 *
 * @since 0.1.0
 * @category requests
 */
export const CreateBatchRequest = S.object(
  Schema.Struct({
    credentials: S.precheck(
      credentialsGuard,
      Schema.Array(CredentialInput),
      Schema.Array(CredentialInput).pipe(
        Schema.filter(() => true, { jsonSchema: { minItems: 1, maxItems: MAX_CREDENTIALS_PER_BATCH } })
      )
    ).annotations({ description: `The credentials of the batch, 1 to ${MAX_CREDENTIALS_PER_BATCH}.` })
  })
).annotations({
  identifier: "CreateBatchRequest",
  description: "A batch of credentials to sign and anchor.",
  parseOptions: { errors: "all" }
})
/**
 * @since 0.1.0
 * @category requests
 */
export type CreateBatchRequest = typeof CreateBatchRequest.Type

// ---------------------------------------------------------------------------------------------
// other requests
// ---------------------------------------------------------------------------------------------

/**
 * `POST /credentials/{id}/revoke`.
 *
 * @since 0.1.0
 * @category requests
 */
export const RevocationRequest = S.object(
  Schema.Struct({
    reason: S.text(1000).annotations({
      description: "Free-form; shown on the public verification page.",
      examples: ["Issued with a misspelt name; replaced."]
    }),
    reason_code: RevocationReasonCode
  })
).annotations({ identifier: "RevocationRequest", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type RevocationRequest = typeof RevocationRequest.Type

/**
 * `POST /credentials/{id}/erase`.
 *
 * @since 0.1.0
 * @category requests
 */
export const ErasureRequest = S.object(
  Schema.Struct({
    requester: ErasureRequester,
    verified_at: UtcDateTime.annotations({ description: "When the issuer verified the request was legitimate." })
  })
).annotations({ identifier: "ErasureRequest", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type ErasureRequest = typeof ErasureRequest.Type

const HexColor = Schema.String.pipe(Schema.pattern(/^#[0-9A-Fa-f]{6}$/)).annotations({
  ...S.rule({ expected: "a hex color #RRGGBB" }),
  examples: ["#1a4d8f"]
})

/**
 * `PATCH /tenants/me`: only members present are changed; `{}` changes nothing.
 *
 * @since 0.1.0
 * @category requests
 */
export const TenantUpdate = S.object(
  Schema.Struct({
    display_name: optional(S.text(200).annotations({ description: "The tenant's display name." })),
    awarding_body: optional(S.object(
      Schema.Struct({
        name: S.text(1000).annotations({ description: "Name of the awarding body; the credential's issuer name." }),
        url: optional(HttpUrl.annotations({ description: "The awarding body's website." })),
        logo_url: optional(HttpUrl.annotations({ description: "The awarding body's logo." }))
      }).annotations({ identifier: "AwardingBody" })
    )),
    verify_page_branding: optional(S.object(
      Schema.Struct({
        accent_color: optional(HexColor.annotations({ description: "Accent color of the verification page." })),
        logo_url: optional(HttpUrl.annotations({ description: "Logo shown on the verification page." }))
      }).annotations({ identifier: "VerifyPageBranding" })
    ))
  })
).annotations({ identifier: "TenantUpdate", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type TenantUpdate = typeof TenantUpdate.Type

const WebhookEvents = Schema.transform(
  Schema.Array(WebhookEventType).pipe(
    Schema.filter((events) => events.length >= 1 || "must contain at least one event type", {
      jsonSchema: { minItems: 1 }
    })
  ).annotations(S.rule({ expected: "a non-empty array of webhook event types" })),
  Schema.Array(Schema.typeSchema(WebhookEventType)),
  { strict: true, decode: (events) => [...new Set(events)], encode: (events) => events }
).annotations({ description: "The event types to deliver; duplicates are collapsed." })

/**
 * `POST /webhooks`.
 *
 * @since 0.1.0
 * @category requests
 */
export const CreateWebhookRequest = S.object(
  Schema.Struct({
    url: HttpUrl.annotations({ description: "Where events are delivered.", examples: ["https://hooks.example.org/sigil"] }),
    events: WebhookEvents,
    description: optional(S.text(500).annotations({ description: "A note for the tenant's own use." }))
  })
).annotations({ identifier: "CreateWebhookRequest", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type CreateWebhookRequest = typeof CreateWebhookRequest.Type

// ---------------------------------------------------------------------------------------------
// decoding
// ---------------------------------------------------------------------------------------------

/**
 * A decoder from any `unknown` (a parsed JSON body) to `A` or `InvalidInput`; never a defect.
 * Unknown members are dropped; every failure is collected so the first in document order wins.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeUnknown = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "ignore" })
  return (u: unknown): Effect.Effect<A, InvalidInput> => Effect.mapError(decode(u), fromParseError)
}

/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeCreateBatchRequest: (u: unknown) => Effect.Effect<CreateBatchRequest, InvalidInput> =
  decodeUnknown(CreateBatchRequest)

/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeCredentialInput: (u: unknown) => Effect.Effect<CredentialInput, InvalidInput> = decodeUnknown(
  CredentialInput
)

/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeRevocationRequest: (u: unknown) => Effect.Effect<RevocationRequest, InvalidInput> =
  decodeUnknown(RevocationRequest)

/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeErasureRequest: (u: unknown) => Effect.Effect<ErasureRequest, InvalidInput> = decodeUnknown(
  ErasureRequest
)

/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeTenantUpdate: (u: unknown) => Effect.Effect<TenantUpdate, InvalidInput> = decodeUnknown(
  TenantUpdate
)

/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeCreateWebhookRequest: (u: unknown) => Effect.Effect<CreateWebhookRequest, InvalidInput> =
  decodeUnknown(CreateWebhookRequest)
