/**
 * Port: magic-link e-mail deliveries and claim tokens (issue #10), beside the credentials.
 *
 * - A delivery record per credential whose recipient was e-mailed: its status (`queued`,
 *   `sent`, `bounced`, `failed`, or `cancelled` by erasure), attempts, last error, when it was
 *   sent and when the recipient first opened their claim link. It holds no copy of the
 *   address: the address lives once, in the recipient's row (`BatchStore`), which erasure
 *   deletes; erasure also clears the record's last error (a server's reply may have quoted
 *   the address).
 * - Claim tokens, stored only as the hex SHA-256 of the token, with their expiry. A lookup
 *   goes by that hash and the credential together and answers only an unexpired token, so a
 *   wrong token and an expired one are the same empty answer of the same query.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer, type Option } from "effect"
import type { BatchId, CredentialId, TenantId } from "@sigil/core/Ids"
import * as internal from "../internal/memory/emailDeliveryStore.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * `cancelled`: erased before it could be sent.
 *
 * @since 0.1.0
 * @category models
 */
export type DeliveryStatus = "queued" | "sent" | "bounced" | "failed" | "cancelled"

/**
 * @since 0.1.0
 * @category models
 */
export interface DeliveryRecord {
  readonly credentialId: CredentialId
  readonly tenantId: TenantId
  readonly batchId: BatchId
  readonly status: DeliveryStatus
  /** Sending attempts made so far. */
  readonly attempts: number
  /** Why the last attempt failed (never the address). */
  readonly lastError: string | undefined
  readonly lastAttemptAt: Date | undefined
  readonly sentAt: Date | undefined
  /** When the recipient first opened the page through a valid claim link. */
  readonly claimedAt: Date | undefined
  readonly createdAt: Date
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ClaimToken {
  /** Hex SHA-256 of the token; the token itself is never stored. */
  readonly tokenHash: string
  readonly credentialId: CredentialId
  readonly expiresAt: Date
  readonly createdAt: Date
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Attempt {
  readonly at: Date
  /** The status after the attempt: `queued` when it will be retried. */
  readonly status: Exclude<DeliveryStatus, "cancelled">
  readonly error: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** New `queued` records; a credential that already has one keeps it (one message per recipient). */
  readonly insert: (records: ReadonlyArray<DeliveryRecord>) => Effect.Effect<void>
  readonly get: (credentialId: CredentialId) => Effect.Effect<Option.Option<DeliveryRecord>>
  /**
   * The record, locked until the caller's transaction ends (`FOR UPDATE` on Postgres; memory
   * transactions hold the store's lock anyway): a concurrent `cancel` waits for it, so a send
   * that found its delivery `queued` and an erasure never interleave.
   */
  readonly lock: (credentialId: CredentialId) => Effect.Effect<Option.Option<DeliveryRecord>>
  /** Counts an attempt and sets the status (and `sentAt` when `sent`); `None` when there is no record. */
  readonly recordAttempt: (credentialId: CredentialId, attempt: Attempt) => Effect.Effect<Option.Option<DeliveryRecord>>
  /**
   * Erasure: a `queued` delivery becomes `cancelled`, and the last error of any is cleared.
   * `true` when a queued delivery was cancelled.
   */
  readonly cancel: (credentialId: CredentialId) => Effect.Effect<boolean>
  /** Sets `claimedAt` unless already set. */
  readonly markClaimed: (credentialId: CredentialId, at: Date) => Effect.Effect<void>

  readonly addToken: (token: ClaimToken) => Effect.Effect<void>
  /** The unexpired token with this hash for this credential (`expiresAt > now`). */
  readonly findToken: (tokenHash: string, credentialId: CredentialId, now: Date) => Effect.Effect<Option.Option<ClaimToken>>
  /** Every token of the credential (erasure). */
  readonly deleteTokens: (credentialId: CredentialId) => Effect.Effect<void>
  /** Deletes tokens expired at `now`; how many. */
  readonly purgeExpiredTokens: (now: Date) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class EmailDeliveryStore extends Context.Tag("@sigil/service/Email/EmailDeliveryStore")<EmailDeliveryStore, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<EmailDeliveryStore, never, MemoryStore> = Layer.effect(EmailDeliveryStore, internal.make)
