/**
 * A credential's revocation and its recipient's erasure (`POST /credentials/{id}/revoke`,
 * `POST /credentials/{id}/erase`).
 *
 * @since 0.1.0
 */
import * as CredentialState from "@sigil/core/CredentialState"
import { Effect, Schema } from "effect"
import * as S from "../internal/inputSchemas.js"
import { decodeUnknown, InvalidInput } from "./InputErrors.js"
import { MAX_CLOCK_SKEW_MS, VerifiedAt } from "./InputFormats.js"

const REASON_CODES = CredentialState.REVOCATION_REASON_CODES

/**
 * @since 0.1.0
 * @category enumerations
 */
export const RevocationReasonCode = Schema.Literal(...REASON_CODES).annotations({
  ...S.rule({ expected: S.oneOf(REASON_CODES) }),
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
  ...S.rule({ expected: S.oneOf(REQUESTERS) }),
  description: "Who asked for the erasure."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type ErasureRequester = typeof ErasureRequester.Type



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
    verified_at: VerifiedAt.annotations({
      description: "When the issuer verified the request was legitimate: from 2000-01-01, not in the future."
    })
  })
).annotations({ identifier: "ErasureRequest", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type ErasureRequest = typeof ErasureRequest.Type


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
 * What the schema cannot know: `verified_at` must not be later than `now` (the request's time)
 * plus `MAX_CLOCK_SKEW_MS`. An erasure verified in the future is a typo or a forgery.
 *
 * @since 0.1.0
 * @category decoding
 */
export const checkErasureRequest = (request: ErasureRequest, now: Date): Effect.Effect<ErasureRequest, InvalidInput> =>
  Date.parse(request.verified_at) <= now.getTime() + MAX_CLOCK_SKEW_MS
    ? Effect.succeed(request)
    : Effect.fail(
      new InvalidInput({
        code: "invalid_field_format",
        field: "verified_at",
        message: "Invalid verified_at: must not be in the future (more than 5 minutes ahead of the server's clock)"
      })
    )
