/**
 * Port: batches and their credentials. Recipient personal data (name, email) lives apart from
 * the credentials (`RecipientData`), so erasure deletes rows rather than editing documents
 * (decisions §2).
 *
 * Tenant-facing reads are scoped by tenant and environment: another tenant's or environment's
 * batch is simply not found. Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer, type Option } from "effect"
import type { BatchState } from "@sigil/core/BatchState"
import type { CredentialState } from "@sigil/core/CredentialState"
import type { JsonObject } from "@sigil/core/Document"
import type { BatchId, CredentialId, TenantId } from "@sigil/core/Ids"
import type { Environment } from "../Tenants/Plans.js"
import * as internal from "../internal/memory/batchStore.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface BatchRecord extends BatchState {
  readonly id: BatchId
  readonly tenantId: TenantId
  readonly environment: Environment
  readonly credentialsCount: number
  readonly createdAt: Date
}

/**
 * A credential as stored. `content` is what the credential says without the recipient's name
 * and email (achievement, dates, evidence, the recipient's pseudonymous id); `document` is the
 * signed document once the batch is signed (and the anchored one once anchored).
 *
 * @since 0.1.0
 * @category models
 */
export interface CredentialRecord extends CredentialState {
  readonly id: CredentialId
  readonly batchId: BatchId
  readonly tenantId: TenantId
  readonly environment: Environment
  /** Position in the batch: the Merkle leaf index. */
  readonly position: number
  readonly recipientId: string
  readonly content: JsonObject
  readonly document: JsonObject | undefined
  /** The status-list slot published for revocation, if any. */
  readonly statusList: { readonly listId: number; readonly index: number } | undefined
  readonly createdAt: Date
}

/**
 * The recipient's personal data, kept only until erasure.
 *
 * @since 0.1.0
 * @category models
 */
export interface RecipientData {
  readonly credentialId: CredentialId
  readonly name: string
  readonly email: string | undefined
}

/**
 * What a batch view lists of each of its credentials: no document, no content.
 *
 * @since 0.1.0
 * @category models
 */
export interface CredentialSummary {
  readonly id: CredentialId
  readonly batchId: BatchId
  readonly recipientId: string
}

/**
 * Keyset pagination, newest first: `before` is the last row of the previous page.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListQuery {
  readonly status?: BatchState["status"] | undefined
  readonly before?: { readonly createdAt: Date; readonly id: BatchId } | undefined
  readonly limit: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** A new batch with its credentials and recipients (call inside a transaction with its event and job). */
  readonly insert: (
    batch: BatchRecord,
    credentials: ReadonlyArray<CredentialRecord>,
    recipients: ReadonlyArray<RecipientData>
  ) => Effect.Effect<void>

  readonly getBatch: (tenantId: TenantId, environment: Environment, id: BatchId) => Effect.Effect<Option.Option<BatchRecord>>
  /** Newest first (created_at, id descending); at most `limit` rows. */
  readonly listBatches: (
    tenantId: TenantId,
    environment: Environment,
    query: ListQuery
  ) => Effect.Effect<ReadonlyArray<BatchRecord>>
  /** Unscoped, for workers. */
  readonly batchById: (id: BatchId) => Effect.Effect<Option.Option<BatchRecord>>
  /** Updates the batch's state (status and its fields). */
  readonly saveBatchState: (id: BatchId, state: BatchState) => Effect.Effect<void>

  readonly getCredential: (
    tenantId: TenantId,
    environment: Environment,
    id: CredentialId
  ) => Effect.Effect<Option.Option<CredentialRecord>>
  /** Unscoped: the public verification page and workers. */
  readonly credentialById: (id: CredentialId) => Effect.Effect<Option.Option<CredentialRecord>>
  /** A batch's credentials in position order. */
  readonly credentialsOf: (batchId: BatchId) => Effect.Effect<ReadonlyArray<CredentialRecord>>
  /**
   * The summaries of these batches' credentials, batch by batch in the order given, each in
   * position order: what batch views list, read without the documents (a 500-credential
   * batch's documents are ≈2 MB; a page of batches would read them all).
   */
  readonly credentialSummariesOf: (batchIds: ReadonlyArray<BatchId>) => Effect.Effect<ReadonlyArray<CredentialSummary>>
  /** Updates state flags and, when given, the document and status-list slot. */
  readonly saveCredential: (
    id: CredentialId,
    update: {
      readonly state: CredentialState
      readonly document?: JsonObject | undefined
      readonly statusList?: { readonly listId: number; readonly index: number } | undefined
    }
  ) => Effect.Effect<void>

  readonly recipient: (credentialId: CredentialId) => Effect.Effect<Option.Option<RecipientData>>
  /** The recipients of a batch's credentials that still have personal data. */
  readonly recipientsOf: (batchId: BatchId) => Effect.Effect<ReadonlyArray<RecipientData>>
  /** Erasure: deletes the recipient's row. */
  readonly deleteRecipient: (credentialId: CredentialId) => Effect.Effect<void>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class BatchStore extends Context.Tag("@sigil/service/Batches/BatchStore")<BatchStore, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<BatchStore, never, MemoryStore> = Layer.effect(BatchStore, internal.make)
