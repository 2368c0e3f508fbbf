/**
 * `BatchStore` on Postgres. Credentials keep their content and signed document as `json` (the
 * text as written, key order included); recipient personal data sits in `recipients`, one row
 * per credential, deleted on erasure.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { AnchorRecord, BatchState } from "@sigil/core/BatchState"
import { type BatchRecord, BatchStore, type CredentialRecord, type CredentialSummary, type RecipientData } from "@sigil/service/Batches/BatchStore"
import type { ChainName } from "@sigil/core/Chains"
import type { CredentialState, CredentialStatus, VerificationStatusAfterErasure } from "@sigil/core/CredentialState"
import type { JsonObject } from "@sigil/core/Document"
import type { Hash32 } from "@sigil/core/Hex"
import type { BatchId, CredentialId, TenantId } from "@sigil/core/Ids"
import type { ErasureRequester, RevocationReasonCode } from "@sigil/service/Inputs/CredentialInputs"
import type { Environment } from "@sigil/service/Tenants/Plans"
import { Effect, Layer, Option } from "effect"
import { int, jsonText, op, opt } from "./internal/sql.js"

interface BatchRow {
  readonly id: string
  readonly tenant_id: string
  readonly environment: Environment
  readonly status: BatchState["status"]
  readonly credentials_count: number
  readonly merkle_root: string | null
  readonly signed_at: Date | null
  readonly anchored_at: Date | null
  readonly anchor_chain: string | null
  readonly anchor_chain_id: number | null
  readonly anchor_tx_hash: string | null
  readonly anchor_block_number: string | null
  readonly error_code: string | null
  readonly error_message: string | null
  readonly failed_at: Date | null
  readonly created_at: Date
}

interface CredentialRow {
  readonly id: string
  readonly batch_id: string
  readonly tenant_id: string
  readonly environment: Environment
  readonly position: number
  readonly recipient_id: string
  readonly content: JsonObject
  readonly document: JsonObject | null
  readonly status: CredentialStatus
  readonly revoked: boolean
  readonly revoked_at: Date | null
  readonly revocation_reason: string | null
  readonly revocation_reason_code: RevocationReasonCode | null
  readonly erased: boolean
  readonly erased_at: Date | null
  readonly erasure_requester: ErasureRequester | null
  readonly erasure_verified_at: Date | null
  readonly erasure_verification_status: VerificationStatusAfterErasure | null
  readonly status_list_id: number | null
  readonly status_list_index: number | null
  readonly created_at: Date
}

interface RecipientRow {
  readonly credential_id: string
  readonly name: string
  readonly email: string | null
}

const stateColumns = (s: BatchState) => ({
  status: s.status,
  merkle_root: s.merkleRoot ?? null,
  signed_at: s.signedAt ?? null,
  anchored_at: s.anchoredAt ?? null,
  anchor_chain: s.anchor?.chain ?? null,
  anchor_chain_id: s.anchor?.chainId ?? null,
  anchor_tx_hash: s.anchor?.txHash ?? null,
  anchor_block_number: s.anchor?.blockNumber ?? null,
  error_code: s.error?.code ?? null,
  error_message: s.error?.message ?? null,
  failed_at: s.failedAt ?? null
})

const toBatch = (r: BatchRow): BatchRecord => ({
  id: r.id as BatchId,
  tenantId: r.tenant_id as TenantId,
  environment: r.environment,
  credentialsCount: r.credentials_count,
  createdAt: r.created_at,
  status: r.status,
  merkleRoot: opt(r.merkle_root) as Hash32 | undefined,
  signedAt: opt(r.signed_at),
  anchoredAt: opt(r.anchored_at),
  anchor: r.anchor_tx_hash === null
    ? undefined
    : ({
      chain: r.anchor_chain as ChainName,
      chainId: r.anchor_chain_id!,
      txHash: r.anchor_tx_hash as Hash32,
      blockNumber: int(r.anchor_block_number!)
    } satisfies AnchorRecord),
  error: r.error_code === null ? undefined : { code: r.error_code, message: r.error_message ?? "" },
  failedAt: opt(r.failed_at)
})

const credentialStateColumns = (s: CredentialState) => ({
  status: s.status,
  revoked: s.revoked,
  revoked_at: s.revocation?.revokedAt ?? null,
  revocation_reason: s.revocation?.reason ?? null,
  revocation_reason_code: s.revocation?.reasonCode ?? null,
  erased: s.erased,
  erased_at: s.erasure?.erasedAt ?? null,
  erasure_requester: s.erasure?.requester ?? null,
  erasure_verified_at: s.erasure?.verifiedAt ?? null,
  erasure_verification_status: s.erasure?.verificationStatusAfterErasure ?? null
})

const toCredential = (r: CredentialRow): CredentialRecord => ({
  id: r.id as CredentialId,
  batchId: r.batch_id as BatchId,
  tenantId: r.tenant_id as TenantId,
  environment: r.environment,
  position: r.position,
  recipientId: r.recipient_id,
  content: r.content,
  document: opt(r.document),
  statusList: r.status_list_id === null ? undefined : { listId: r.status_list_id, index: r.status_list_index! },
  createdAt: r.created_at,
  status: r.status,
  revoked: r.revoked,
  erased: r.erased,
  revocation: r.revoked_at === null ? undefined : {
    reason: r.revocation_reason ?? "",
    reasonCode: r.revocation_reason_code!,
    revokedAt: r.revoked_at
  },
  erasure: r.erased_at === null ? undefined : {
    requester: r.erasure_requester!,
    verifiedAt: r.erasure_verified_at!,
    erasedAt: r.erased_at,
    verificationStatusAfterErasure: r.erasure_verification_status!
  }
})

const toRecipient = (r: RecipientRow): RecipientData => ({
  credentialId: r.credential_id as CredentialId,
  name: r.name,
  email: opt(r.email)
})

const first = <R, A>(f: (r: R) => A) => (rows: ReadonlyArray<R>) => Option.map(Option.fromNullable(rows[0]), f)

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<BatchStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    BatchStore.of({
      // All three tables or none, also when called outside a transaction.
      insert: (batch, credentials, recipients) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO batches ${
            sql.insert({
              id: batch.id,
              tenant_id: batch.tenantId,
              environment: batch.environment,
              credentials_count: batch.credentialsCount,
              created_at: batch.createdAt,
              ...stateColumns(batch)
            })
          }`
          if (credentials.length > 0) {
            yield* sql`INSERT INTO credentials ${
              sql.insert(credentials.map((c) => ({
                id: c.id,
                batch_id: c.batchId,
                tenant_id: c.tenantId,
                environment: c.environment,
                position: c.position,
                recipient_id: c.recipientId,
                content: jsonText(c.content),
                document: c.document === undefined ? null : jsonText(c.document),
                status_list_id: c.statusList?.listId ?? null,
                status_list_index: c.statusList?.index ?? null,
                created_at: c.createdAt,
                ...credentialStateColumns(c)
              })))
            }`
          }
          if (recipients.length > 0) {
            yield* sql`INSERT INTO recipients ${
              sql.insert(recipients.map((r) => ({ credential_id: r.credentialId, name: r.name, email: r.email ?? null })))
            }`
          }
        })).pipe(op("PgBatchStore.insert")),

      getBatch: (tenantId, environment, id) =>
        sql<BatchRow>`SELECT * FROM batches
          WHERE id = ${id} AND tenant_id = ${tenantId} AND environment = ${environment}`.pipe(
          Effect.map(first(toBatch)),
          op("PgBatchStore.getBatch")
        ),
      listBatches: (tenantId, environment, query) => {
        const where = [sql`tenant_id = ${tenantId}`, sql`environment = ${environment}`]
        if (query.status !== undefined) where.push(sql`status = ${query.status}`)
        if (query.before !== undefined) where.push(sql`(created_at, id) < (${query.before.createdAt}, ${query.before.id})`)
        return sql<BatchRow>`SELECT * FROM batches WHERE ${sql.and(where)}
          ORDER BY created_at DESC, id DESC LIMIT ${Math.max(0, query.limit)}`.pipe(
          Effect.map((rows) => rows.map(toBatch)),
          op("PgBatchStore.listBatches")
        )
      },
      batchById: (id) =>
        sql<BatchRow>`SELECT * FROM batches WHERE id = ${id}`.pipe(Effect.map(first(toBatch)), op("PgBatchStore.batchById")),
      saveBatchState: (id, state) =>
        sql`UPDATE batches SET ${sql.update(stateColumns(state))} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          op("PgBatchStore.saveBatchState")
        ),

      getCredential: (tenantId, environment, id) =>
        sql<CredentialRow>`SELECT * FROM credentials
          WHERE id = ${id} AND tenant_id = ${tenantId} AND environment = ${environment}`.pipe(
          Effect.map(first(toCredential)),
          op("PgBatchStore.getCredential")
        ),
      credentialById: (id) =>
        sql<CredentialRow>`SELECT * FROM credentials WHERE id = ${id}`.pipe(
          Effect.map(first(toCredential)),
          op("PgBatchStore.credentialById")
        ),
      credentialsOf: (batchId) =>
        sql<CredentialRow>`SELECT * FROM credentials WHERE batch_id = ${batchId} ORDER BY position`.pipe(
          Effect.map((rows) => rows.map(toCredential)),
          op("PgBatchStore.credentialsOf")
        ),
      credentialSummariesOf: (batchIds) =>
        batchIds.length === 0
          ? Effect.succeed([])
          : sql<{ readonly id: string; readonly batch_id: string; readonly recipient_id: string }>`
              SELECT id, batch_id, recipient_id FROM credentials
              WHERE batch_id IN ${sql.in(batchIds)} ORDER BY batch_id, position`.pipe(
              Effect.map((rows) => {
                const byBatch = new Map<string, Array<CredentialSummary>>()
                for (const row of rows) {
                  const summary = { id: row.id as CredentialId, batchId: row.batch_id as BatchId, recipientId: row.recipient_id }
                  const list = byBatch.get(row.batch_id)
                  if (list === undefined) byBatch.set(row.batch_id, [summary])
                  else list.push(summary)
                }
                return batchIds.flatMap((id) => byBatch.get(id) ?? [])
              }),
              op("PgBatchStore.credentialSummariesOf")
            ),
      saveCredential: (id, update) =>
        sql`UPDATE credentials SET ${
          sql.update({
            ...credentialStateColumns(update.state),
            ...(update.document !== undefined ? { document: jsonText(update.document) } : {}),
            ...(update.statusList !== undefined
              ? { status_list_id: update.statusList.listId, status_list_index: update.statusList.index }
              : {})
          })
        } WHERE id = ${id}`.pipe(Effect.asVoid, op("PgBatchStore.saveCredential")),

      recipient: (credentialId) =>
        sql<RecipientRow>`SELECT * FROM recipients WHERE credential_id = ${credentialId}`.pipe(
          Effect.map(first(toRecipient)),
          op("PgBatchStore.recipient")
        ),
      recipientsOf: (batchId) =>
        sql<RecipientRow>`SELECT r.* FROM recipients r JOIN credentials c ON c.id = r.credential_id
          WHERE c.batch_id = ${batchId} ORDER BY c.position`.pipe(
          Effect.map((rows) => rows.map(toRecipient)),
          op("PgBatchStore.recipientsOf")
        ),
      deleteRecipient: (credentialId) =>
        sql`DELETE FROM recipients WHERE credential_id = ${credentialId}`.pipe(
          Effect.asVoid,
          op("PgBatchStore.deleteRecipient")
        )
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BatchStore, never, SqlClient.SqlClient> = Layer.effect(BatchStore, make)
