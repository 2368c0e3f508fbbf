/**
 * The life of a credential. Its status follows its batch (`pending` → `signed` → `anchored`;
 * a failed batch leaves its credentials where they were). Two flags are independent of the
 * status and of each other: `revoked` and `erased`. Either can be set once, in any status;
 * setting it again is `CredentialAlreadyRevoked` / `CredentialAlreadyErased` (the contract's
 * 409s).
 *
 * Erasure's result depends on how the tenant puts recipient names in documents (decisions §2):
 * `hashed` leaves the document untouched, so the credential stays `verifiable`; `plain` redacts
 * the stored copy, which then no longer verifies: `invalid`.
 *
 * @since 0.1.0
 */
import { Context, Data, Effect, Either, Layer, Schema } from "effect"

/**
 * Why a credential is revoked, machine-readable (issuer-api.md).
 *
 * @since 0.1.0
 * @category models
 */
export const REVOCATION_REASON_CODES = ["reissued", "issuer_error", "recipient_request", "other"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type RevocationReasonCode = typeof REVOCATION_REASON_CODES[number]

/**
 * Who asked for an erasure (issuer-api.md).
 *
 * @since 0.1.0
 * @category models
 */
export const ERASURE_REQUESTERS = ["recipient", "dpo", "supervisory_authority"] as const

/**
 * @since 0.1.0
 * @category models
 */
export type ErasureRequester = typeof ERASURE_REQUESTERS[number]

/**
 * @since 0.1.0
 * @category models
 */
export const CredentialStatus = Schema.Literal("pending", "signed", "anchored").annotations({
  description: "`pending`, `signed` or `anchored`, following the credential's batch."
})
/**
 * @since 0.1.0
 * @category models
 */
export type CredentialStatus = typeof CredentialStatus.Type

/**
 * How a tenant's documents carry the recipient's name (decisions §2); `hashed` by default.
 *
 * @since 0.1.0
 * @category models
 */
export const RecipientNameMode = Schema.Literal("hashed", "plain")
/**
 * @since 0.1.0
 * @category models
 */
export type RecipientNameMode = typeof RecipientNameMode.Type

/**
 * `ErasureResponse.verification_status_after_erasure`.
 *
 * @since 0.1.0
 * @category models
 */
export const VerificationStatusAfterErasure = Schema.Literal("verifiable", "invalid")
/**
 * @since 0.1.0
 * @category models
 */
export type VerificationStatusAfterErasure = typeof VerificationStatusAfterErasure.Type

/**
 * @since 0.1.0
 * @category models
 */
export interface Revocation {
  readonly reason: string
  readonly reasonCode: RevocationReasonCode
  readonly revokedAt: Date
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Erasure {
  readonly requester: ErasureRequester
  /** When the issuer verified the request was legitimate. */
  readonly verifiedAt: Date
  readonly erasedAt: Date
  readonly verificationStatusAfterErasure: VerificationStatusAfterErasure
}

/**
 * @since 0.1.0
 * @category models
 */
export interface CredentialState {
  readonly status: CredentialStatus
  readonly revoked: boolean
  readonly erased: boolean
  /** Set when revoked through `transition`. */
  readonly revocation: Revocation | undefined
  /** Set when erased through `transition`. */
  readonly erasure: Erasure | undefined
}

/**
 * What happens to a credential. `Sign` and `Anchor` come from its batch; `Revoke` and `Erase`
 * from the issuer.
 *
 * @since 0.1.0
 * @category events
 */
export type CredentialEvent = Data.TaggedEnum<{
  Sign: {}
  Anchor: {}
  Revoke: { readonly reason: string; readonly reasonCode: RevocationReasonCode; readonly at: Date }
  Erase: {
    readonly requester: ErasureRequester
    readonly verifiedAt: Date
    readonly at: Date
    readonly recipientNameMode: RecipientNameMode
  }
}>

/**
 * Constructors and matchers: `CredentialEvent.Revoke({ reason, reasonCode, at })`…
 *
 * @since 0.1.0
 * @category events
 */
export const CredentialEvent = Data.taggedEnum<CredentialEvent>()

/**
 * @since 0.1.0
 * @category events
 */
export const CredentialEventTag = Schema.Literal("Sign", "Anchor", "Revoke", "Erase")
/**
 * @since 0.1.0
 * @category events
 */
export type CredentialEventTag = CredentialEvent["_tag"]

/**
 * A status move out of order (`Sign` when not `pending`, `Anchor` when not `signed`).
 *
 * @since 0.1.0
 * @category errors
 */
export class IllegalCredentialTransition
  extends Schema.TaggedError<IllegalCredentialTransition>()("IllegalCredentialTransition", {
    from: CredentialStatus,
    event: CredentialEventTag
  })
{}

/**
 * Revoke on a revoked credential (409 `credential_already_revoked`).
 *
 * @since 0.1.0
 * @category errors
 */
export class CredentialAlreadyRevoked extends Schema.TaggedError<CredentialAlreadyRevoked>()(
  "CredentialAlreadyRevoked",
  { revokedAt: Schema.optional(Schema.DateFromSelf) }
) {}

/**
 * Erase on an erased credential (409 `credential_already_erased`).
 *
 * @since 0.1.0
 * @category errors
 */
export class CredentialAlreadyErased extends Schema.TaggedError<CredentialAlreadyErased>()(
  "CredentialAlreadyErased",
  { erasedAt: Schema.optional(Schema.DateFromSelf) }
) {}

/**
 * @since 0.1.0
 * @category errors
 */
export type CredentialTransitionError = IllegalCredentialTransition | CredentialAlreadyRevoked | CredentialAlreadyErased

/**
 * A credential of a batch just accepted.
 *
 * @since 0.1.0
 * @category constructors
 */
export const initial: CredentialState = {
  status: "pending",
  revoked: false,
  erased: false,
  revocation: undefined,
  erasure: undefined
}

/**
 * What erasure leaves verifiable under a recipient-name mode (decisions §2).
 *
 * @since 0.1.0
 * @category transitions
 */
export const verificationStatusAfterErasure = (mode: RecipientNameMode): VerificationStatusAfterErasure =>
  mode === "hashed" ? "verifiable" : "invalid"

/**
 * The status moves; `Revoke` and `Erase` are accepted in every status.
 *
 * @since 0.1.0
 * @category transitions
 */
export const statusTransitions: { readonly [S in CredentialStatus]: Partial<Record<"Sign" | "Anchor", CredentialStatus>> } = {
  pending: { Sign: "signed" },
  signed: { Anchor: "anchored" },
  anchored: {}
}

/**
 * Applies an event, or says why it cannot be applied.
 *
 * @since 0.1.0
 * @category transitions
 */
export const transition = (
  state: CredentialState,
  event: CredentialEvent
): Either.Either<CredentialState, CredentialTransitionError> => {
  switch (event._tag) {
    case "Sign":
    case "Anchor": {
      const to = statusTransitions[state.status][event._tag]
      return to === undefined
        ? Either.left(new IllegalCredentialTransition({ from: state.status, event: event._tag }))
        : Either.right({ ...state, status: to })
    }
    case "Revoke":
      // The flag decides; the details may be missing from a state loaded without them.
      return state.revoked
        ? Either.left(new CredentialAlreadyRevoked({ revokedAt: state.revocation?.revokedAt }))
        : Either.right({
          ...state,
          revoked: true,
          revocation: { reason: event.reason, reasonCode: event.reasonCode, revokedAt: event.at }
        })
    case "Erase":
      return state.erased
        ? Either.left(new CredentialAlreadyErased({ erasedAt: state.erasure?.erasedAt }))
        : Either.right({
          ...state,
          erased: true,
          erasure: {
            requester: event.requester,
            verifiedAt: event.verifiedAt,
            erasedAt: event.at,
            verificationStatusAfterErasure: verificationStatusAfterErasure(event.recipientNameMode)
          }
        })
  }
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly transition: (
    state: CredentialState,
    event: CredentialEvent
  ) => Effect.Effect<CredentialState, CredentialTransitionError>
}

/**
 * The credential state machine as a service.
 *
 * @since 0.1.0
 * @category tags
 */
export class CredentialMachine extends Context.Tag("@sigil/core/CredentialMachine")<CredentialMachine, Service>() {}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<CredentialMachine> = Layer.succeed(CredentialMachine, {
  transition: (state, event) => transition(state, event)
})
