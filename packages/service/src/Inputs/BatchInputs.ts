/**
 * `POST /batches`: the batch and each credential's content (recipient, achievement, alignment,
 * evidence, dates), with the limits of issuer-api.md.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import * as Formats from "../internal/inputFormats.js"
import * as S from "../internal/inputSchemas.js"
import { decodeUnknown, type InvalidInput } from "./InputErrors.js"
import { Email, ExpirationDate, IssuanceDate, RecipientId, Uri } from "./InputFormats.js"

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


const FRAMEWORKS = ["ESCO", "O*NET", "ISCED-F", "CUSTOM"] as const

/**
 * @since 0.1.0
 * @category enumerations
 */
export const AlignmentFramework = Schema.Literal(...FRAMEWORKS).annotations({
  ...S.rule({ code: "alignment_framework_unknown", expected: S.oneOf(FRAMEWORKS) }),
  description: "The framework the alignment points into."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type AlignmentFramework = typeof AlignmentFramework.Type



/**
 * An evidence reference: `id` (absolute URI), `narrative`, or both.
 *
 * @since 0.1.0
 * @category credentials
 */
export const EvidenceInput = S.object(
  Schema.Struct({
    id: S.optional(Uri.annotations({ description: "Where the evidence is, or its identifier." })),
    narrative: S.optional(S.text(65_536).annotations({ description: "The evidence, in words." }))
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
    email: S.optional(Email.annotations({ description: "Off-chain only; for magic-link delivery if enabled." }))
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
    targetUrl: S.optional(Uri.annotations({ description: "The framework's page for the target." }))
  }).annotations({ identifier: "AlignmentInput", description: "A skill or qualification the achievement aligns to." })
)
/**
 * @since 0.1.0
 * @category credentials
 */
export type AlignmentInput = typeof AlignmentInput.Type

const CriteriaInput = S.object(
  Schema.Struct({
    narrative: S.optional(S.text().annotations({ description: "How the achievement is earned." }))
  }).annotations({ identifier: "CriteriaInput" })
)

const achievementFields = {
  id: S.optional(Uri.annotations({
    description: "Stable URI identifying the achievement definition; need not resolve.",
    examples: ["https://university.example/programs/bsc-cs"]
  })),
  name: S.text(1000).annotations({ description: "The achievement's name.", examples: ["BSc Computer Science"] }),
  description: S.text().annotations({ description: "What the achievement is." }),
  criteria: S.optional(CriteriaInput),
  alignment: S.optional(Schema.Array(AlignmentInput).annotations(S.rule({ expected: "an array of alignments" })))
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
    Schema.Struct({ ...achievementFields, evidence: S.optional(EvidenceList) }).annotations({
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
    issuanceDate: IssuanceDate.annotations({ description: "When the credential is issued (UTC), from 1900 to 2199." }),
    expirationDate: S.optional(
      Schema.NullOr(ExpirationDate).annotations({
        ...S.rule({ expected: "an ISO 8601 UTC date-time before 2300-01-01, such as 2030-06-30T12:00:00Z, or null" }),
        description: "When the credential expires (UTC); absent or null for a non-expiring credential."
      })
    ),
    evidence: S.optional(EvidenceList)
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
  expirationDate: S.optional(Schema.String),
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
