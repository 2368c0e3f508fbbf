/**
 * The formats every request body of the issuer API (issuer-api.md) shares, and the rules all
 * the input modules (`BatchInputs`, `CredentialInputs`, `TenantInputs`, `WebhookInputs`)
 * follow. Errors are `InputErrors.InvalidInput`.
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
 *   Gregorian, no leap second). Decoded to the same string with `Z` for `+00:00`; the fraction
 *   is kept as sent. Sane ranges: `issuanceDate` from 1900-01-01 to before 2200-01-01,
 *   `expirationDate` before 2300-01-01, `verified_at` from 2000-01-01 and not later than the
 *   request's time plus 5 minutes of clock skew (`CredentialInputs.checkErasureRequest`).
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
 *   ("must not be empty"); the value itself is kept untrimmed. No control characters but tab,
 *   line feed and carriage return (C0, DEL and C1 are refused with `invalid_field_format`
 *   naming the field; U+0000 cannot even be stored in Postgres text), in every field, the
 *   e-mail address and the administrative channel's names included. Limits, in Unicode code points:
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
import { Schema } from "effect"
import * as Formats from "../internal/inputFormats.js"
import * as S from "../internal/inputSchemas.js"

/**
 * An ISO 8601 UTC date-time (`Z` or `+00:00`, fraction of up to 9 digits, real calendar date),
 * decoded to the same string ending in `Z`.
 *
 * @since 0.1.0
 * @category formats
 */
export const UtcDateTime = S.utcDateTime.annotations({ examples: ["2025-06-30T12:00:00Z"] })

/**
 * The instants `issuanceDate` accepts: 1900-01-01 to before 2200-01-01 (a diploma of the 19th
 * century or of the 23rd is a typo, and year 0 or 9999 is a probe).
 *
 * @since 0.1.0
 * @category formats
 */
export const ISSUANCE_DATE_RANGE = { from: "1900-01-01T00:00:00", before: "2200-01-01T00:00:00" } as const

/**
 * The instants `expirationDate` accepts (besides being after `issuanceDate`): before 2300-01-01.
 *
 * @since 0.1.0
 * @category formats
 */
export const EXPIRATION_DATE_RANGE = { from: "1900-01-01T00:00:00", before: "2300-01-01T00:00:00" } as const

/**
 * The instants `verified_at` accepts from the format alone: from 2000-01-01 (no erasure request
 * was verified before GDPR-era services existed, and year 0 is a probe); it must also not be
 * in the future (`MAX_CLOCK_SKEW_MS`).
 *
 * @since 0.1.0
 * @category formats
 */
export const VERIFIED_AT_RANGE = { from: "2000-01-01T00:00:00", before: "2200-01-01T00:00:00" } as const

/**
 * How far in the future a `verified_at` may be: the issuer's clock may run ahead of Sigil's.
 *
 * @since 0.1.0
 * @category formats
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000

/**
 * `issuanceDate`: a `UtcDateTime` within `ISSUANCE_DATE_RANGE`.
 *
 * @since 0.1.0
 * @category formats
 */
export const IssuanceDate = S.utcDateTimeIn(
  ISSUANCE_DATE_RANGE,
  "an ISO 8601 UTC date-time from 1900-01-01 to before 2200-01-01, such as 2025-06-30T12:00:00Z"
).annotations({ examples: ["2025-06-30T12:00:00Z"] })

/**
 * `expirationDate`: a `UtcDateTime` within `EXPIRATION_DATE_RANGE`.
 *
 * @since 0.1.0
 * @category formats
 */
export const ExpirationDate = S.utcDateTimeIn(
  EXPIRATION_DATE_RANGE,
  "an ISO 8601 UTC date-time before 2300-01-01, such as 2030-06-30T12:00:00Z, or null"
).annotations({ examples: ["2030-06-30T12:00:00Z"] })

/**
 * `verified_at`: a `UtcDateTime` within `VERIFIED_AT_RANGE`.
 *
 * @since 0.1.0
 * @category formats
 */
export const VerifiedAt = S.utcDateTimeIn(
  VERIFIED_AT_RANGE,
  "an ISO 8601 UTC date-time from 2000-01-01, not in the future, such as 2025-07-01T08:00:00Z"
).annotations({ examples: ["2025-07-01T08:00:00Z"] })

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

/**
 * Whether a text has a control character other than tab, line feed and carriage return (C0,
 * DEL, C1): every text field of every request refuses them (docs/decisions/input-validation.md).
 *
 * @since 0.1.0
 * @category formats
 */
export const hasControlCharacters: (text: string) => boolean = Formats.hasControlCharacters
