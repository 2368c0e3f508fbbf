/**
 * The credentials service: `GET /credentials/{id}`, revocation and erasure.
 *
 * Revocation and erasure are independent flags. Each is stored with its event in one
 * transaction; revocation also sets the credential's status-list bit, which the next read of
 * the list publishes (decisions §1). Erasure deletes the recipient's
 * personal data rows and never touches the document, the proofs or the anchor (decisions §2);
 * in the same transaction it deletes the credential's claim tokens and cancels a magic-link
 * e-mail not sent yet (issue #10).
 *
 * @since 0.1.0
 */
import type { ChangeFeed } from "./ChangeFeed.js"
import { Effect, Either, Option, Schema } from "effect"
import type { Principal } from "./Access/Auth.js"
import type { CredentialRecord } from "./Batches/BatchStore.js"
import { BatchStore } from "./Batches/BatchStore.js"
import * as CredentialState from "@sigil/core/CredentialState"
import type { JsonObject } from "@sigil/core/Document"
import { EmailDeliveryStore } from "./Email/EmailDeliveryStore.js"
import * as Events from "./Events.js"
import type { EventStore } from "./Events/EventStore.js"
import type { CredentialId } from "@sigil/core/Ids"
import { checkErasureRequest, type ErasureRequest, type RevocationRequest } from "./Inputs/CredentialInputs.js"
import type { InvalidInput } from "./Inputs/InputErrors.js"
import { JobQueue } from "./Pipeline/JobQueue.js"
import { Settings } from "./Settings.js"
import { StatusSlotStore } from "./Credentials/StatusSlotStore.js"
import { Transactor } from "./Transactor.js"
import * as Views from "./Views.js"
import type { WebhookEndpointStore } from "./Webhooks/WebhookEndpointStore.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class CredentialNotFound extends Schema.TaggedError<CredentialNotFound>()("CredentialNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No credential ${this.id} in this tenant and environment.`
  }
}

/**
 * @since 0.1.0
 * @category models
 */
export interface RevocationResponse {
  readonly id: string
  readonly revoked: true
  readonly revoked_at: string
  readonly reason: string
  readonly reason_code: CredentialState.Revocation["reasonCode"]
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ErasureResponse {
  readonly id: string
  readonly erased: true
  readonly erased_at: string
  readonly verification_status_after_erasure: CredentialState.VerificationStatusAfterErasure
}

const find = (principal: Principal, id: CredentialId) =>
  Effect.flatMap(BatchStore, (store) => store.getCredential(principal.tenant.id, principal.environment, id)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(new CredentialNotFound({ id })),
      onSome: Effect.succeed
    }))
  )

/**
 * @since 0.1.0
 * @category operations
 */
export const get = (
  principal: Principal,
  id: CredentialId
): Effect.Effect<Views.Credential, CredentialNotFound, BatchStore | EmailDeliveryStore | Settings> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const record = yield* find(principal, id)
    const delivery = yield* Effect.flatMap(EmailDeliveryStore, (s) => s.get(id))
    return Views.credential(settings.publicBaseUrl, record, Option.getOrUndefined(delivery))
  })

const stateOf = (record: CredentialRecord): CredentialState.CredentialState => ({
  status: record.status,
  revoked: record.revoked,
  erased: record.erased,
  revocation: record.revocation,
  erasure: record.erasure
})

/**
 * Revokes a credential: 409 `credential_already_revoked` the second time.
 *
 * @since 0.1.0
 * @category operations
 */
export const revoke = (
  principal: Principal,
  id: CredentialId,
  request: RevocationRequest,
  now: Date
): Effect.Effect<
  RevocationResponse,
  CredentialNotFound | CredentialState.CredentialAlreadyRevoked,
  Transactor | BatchStore | StatusSlotStore | EventStore | WebhookEndpointStore | JobQueue | ChangeFeed
> =>
  Effect.flatMap(Transactor, (transactor) =>
    transactor.withTransaction(Effect.gen(function*() {
      const store = yield* BatchStore
      const record = yield* find(principal, id)
      const next = CredentialState.transition(
        stateOf(record),
        CredentialState.CredentialEvent.Revoke({ reason: request.reason, reasonCode: request.reason_code, at: now })
      )
      if (Either.isLeft(next)) {
        const error = next.left
        if (error._tag === "CredentialAlreadyRevoked") return yield* error
        return yield* Effect.die(error)
      }
      yield* store.saveCredential(id, { state: next.right })
      // The status list is signed when served, so flipping the bit is all it takes to publish.
      if (record.statusList !== undefined) {
        yield* Effect.flatMap(StatusSlotStore, (lists) => lists.set(record.tenantId, record.statusList!, now))
      }
      yield* Events.emit({
        tenantId: record.tenantId,
        environment: record.environment,
        type: "credential.revoked",
        data: {
          credential_id: id,
          batch_id: record.batchId,
          revoked_at: now.toISOString(),
          reason: request.reason,
          reason_code: request.reason_code
        },
        now
      })
      return {
        id,
        revoked: true as const,
        revoked_at: now.toISOString(),
        reason: request.reason,
        reason_code: request.reason_code
      }
    })))

/**
 * Is the recipient's name in clear in this document (a `plain`-mode credential)? Then a copy
 * of it with the name redacted no longer verifies.
 */
const namesRecipient = (document: JsonObject | undefined): boolean => {
  const subject = document?.credentialSubject
  return typeof subject === "object" && subject !== null && !Array.isArray(subject) && "name" in subject
}

const redactName = (document: JsonObject): JsonObject => {
  const { name: _name, ...subject } = document.credentialSubject as JsonObject
  return { ...document, credentialSubject: subject }
}

/**
 * Erases the recipient's personal data: 409 `credential_already_erased` the second time. The
 * answer says truthfully whether the stored credential stays verifiable: yes when the name was
 * only hashed into it (or it is not signed yet: it will be signed without the name), no when
 * the name is in clear (holders' copies still verify). A `verified_at` in the future (beyond the
 * clock skew allowed) is `InvalidInput`, before anything is looked up.
 *
 * @since 0.1.0
 * @category operations
 */
export const erase = (
  principal: Principal,
  id: CredentialId,
  request: ErasureRequest,
  now: Date
): Effect.Effect<
  ErasureResponse,
  CredentialNotFound | CredentialState.CredentialAlreadyErased | InvalidInput,
  Transactor | BatchStore | EventStore | WebhookEndpointStore | JobQueue | EmailDeliveryStore | ChangeFeed
> =>
  Effect.zipRight(checkErasureRequest(request, now), Effect.flatMap(Transactor, (transactor) =>
    transactor.withTransaction(Effect.gen(function*() {
      const store = yield* BatchStore
      const record = yield* find(principal, id)
      const next = CredentialState.transition(
        stateOf(record),
        CredentialState.CredentialEvent.Erase({
          requester: request.requester,
          verifiedAt: new Date(request.verified_at),
          at: now,
          recipientNameMode: namesRecipient(record.document) ? "plain" : "hashed"
        })
      )
      if (Either.isLeft(next)) {
        const error = next.left
        if (error._tag === "CredentialAlreadyErased") return yield* error
        return yield* Effect.die(error)
      }
      yield* store.deleteRecipient(id)
      // A message not sent yet and the magic links go with the address (issue #10). Cancelling
      // first takes the delivery's lock, so a send preparing its token finishes before the
      // tokens are deleted (`Email.send`).
      const deliveries = yield* EmailDeliveryStore
      yield* deliveries.cancel(id)
      yield* deliveries.deleteTokens(id)
      // Plain mode: the stored copy names the recipient; redact it (that copy stops verifying,
      // copies held by the recipient still verify — decisions §2).
      yield* store.saveCredential(id, {
        state: next.right,
        document: namesRecipient(record.document) ? redactName(record.document!) : undefined
      })
      const status = next.right.erasure!.verificationStatusAfterErasure
      yield* Events.emit({
        tenantId: record.tenantId,
        environment: record.environment,
        type: "credential.erased",
        data: { credential_id: id, erased_at: now.toISOString(), verification_status_after_erasure: status },
        now
      })
      return { id, erased: true as const, erased_at: now.toISOString(), verification_status_after_erasure: status }
    }))))
