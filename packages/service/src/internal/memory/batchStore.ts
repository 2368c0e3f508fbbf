/**
 * `BatchStore` in memory.
 *
 * @internal
 */
import { Effect, Option } from "effect"
import type { BatchState } from "@sigil/core/BatchState"
import type { BatchRecord, CredentialRecord, RecipientData, Service } from "../../Batches/BatchStore.js"
import type { CredentialState } from "@sigil/core/CredentialState"
import type { BatchId, CredentialId } from "@sigil/core/Ids"
import { MemoryStore } from "../../Transactor.js"
import { copy, descending, duplicate, json, locked, requireTenant, tables } from "./store.js"

// Only the columns Postgres keeps, so both adapters return the same shape.
const batchState = (s: BatchState): BatchState => ({
  status: s.status,
  merkleRoot: s.merkleRoot,
  signedAt: s.signedAt,
  anchoredAt: s.anchoredAt,
  anchor: s.anchor === undefined
    ? undefined
    : { chain: s.anchor.chain, chainId: s.anchor.chainId, txHash: s.anchor.txHash, blockNumber: s.anchor.blockNumber },
  error: s.error === undefined ? undefined : { code: s.error.code, message: s.error.message },
  failedAt: s.failedAt
})

const batchRow = (b: BatchRecord): BatchRecord => ({
  id: b.id,
  tenantId: b.tenantId,
  environment: b.environment,
  credentialsCount: b.credentialsCount,
  createdAt: b.createdAt,
  ...batchState(b)
})

const credentialState = (s: CredentialState): CredentialState => ({
  status: s.status,
  revoked: s.revoked,
  erased: s.erased,
  revocation: s.revocation === undefined
    ? undefined
    : { reason: s.revocation.reason, reasonCode: s.revocation.reasonCode, revokedAt: s.revocation.revokedAt },
  erasure: s.erasure === undefined ? undefined : {
    requester: s.erasure.requester,
    verifiedAt: s.erasure.verifiedAt,
    erasedAt: s.erasure.erasedAt,
    verificationStatusAfterErasure: s.erasure.verificationStatusAfterErasure
  }
})

const credentialRow = (c: CredentialRecord): CredentialRecord => ({
  id: c.id,
  batchId: c.batchId,
  tenantId: c.tenantId,
  environment: c.environment,
  position: c.position,
  recipientId: c.recipientId,
  content: json(c.content),
  document: c.document === undefined ? undefined : json(c.document),
  statusList: c.statusList === undefined ? undefined : { listId: c.statusList.listId, index: c.statusList.index },
  createdAt: c.createdAt,
  ...credentialState(c)
})

const recipientRow = (r: RecipientData): RecipientData => ({
  credentialId: r.credentialId,
  name: r.name,
  email: r.email
})

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const batches = store.table(tables.batches, () => new Map<BatchId, BatchRecord>())
  const credentials = store.table(tables.credentials, () => new Map<CredentialId, CredentialRecord>())
  const recipients = store.table(tables.recipients, () => new Map<CredentialId, RecipientData>())
  const newestFirst = descending<BatchRecord>((b) => b.createdAt, (b) => b.id)
  const inBatch = (batchId: BatchId) =>
    [...credentials.values()].filter((c) => c.batchId === batchId).sort((a, b) => a.position - b.position)

  return {
    insert: (batch, creds, recips) =>
      locked(store, () => {
        // Check everything first: the insert is all or nothing, as its SQL is.
        requireTenant(store, batch.tenantId)
        if (batches.has(batch.id)) duplicate(tables.batches, batch.id)
        const positions = new Set<string>()
        const ids = new Set<string>()
        for (const c of creds) {
          if (c.batchId !== batch.id && !batches.has(c.batchId)) throw new Error(`foreign key violation: no batch ${c.batchId}`)
          if (credentials.has(c.id) || ids.has(c.id)) duplicate(tables.credentials, c.id)
          const position = `${c.batchId}|${c.position}`
          if (positions.has(position)) duplicate(tables.credentials, position)
          for (const existing of credentials.values()) {
            if (`${existing.batchId}|${existing.position}` === position) duplicate(tables.credentials, position)
          }
          ids.add(c.id)
          positions.add(position)
        }
        for (const r of recips) {
          if (!ids.has(r.credentialId) && !credentials.has(r.credentialId)) {
            throw new Error(`foreign key violation: no credential ${r.credentialId}`)
          }
          if (recipients.has(r.credentialId)) duplicate(tables.recipients, r.credentialId)
        }
        batches.set(batch.id, copy(batchRow(batch)))
        for (const c of creds) credentials.set(c.id, copy(credentialRow(c)))
        for (const r of recips) recipients.set(r.credentialId, copy(recipientRow(r)))
      }),

    getBatch: (tenantId, environment, id) =>
      locked(store, () =>
        Option.fromNullable(batches.get(id)).pipe(
          Option.filter((b) => b.tenantId === tenantId && b.environment === environment),
          Option.map(copy)
        )),
    listBatches: (tenantId, environment, query) =>
      locked(store, () => {
        const before = query.before
        return [...batches.values()]
          .filter((b) =>
            b.tenantId === tenantId && b.environment === environment &&
            (query.status === undefined || b.status === query.status) &&
            (before === undefined || newestFirst(b, { ...b, createdAt: before.createdAt, id: before.id }) > 0)
          )
          .sort(newestFirst)
          .slice(0, Math.max(0, query.limit))
          .map(copy)
      }),
    batchById: (id) => locked(store, () => Option.map(Option.fromNullable(batches.get(id)), copy)),
    saveBatchState: (id, state) =>
      locked(store, () => {
        const current = batches.get(id)
        if (current !== undefined) batches.set(id, copy({ ...current, ...batchState(state) }))
      }),

    getCredential: (tenantId, environment, id) =>
      locked(store, () =>
        Option.fromNullable(credentials.get(id)).pipe(
          Option.filter((c) => c.tenantId === tenantId && c.environment === environment),
          Option.map(copy)
        )),
    credentialById: (id) => locked(store, () => Option.map(Option.fromNullable(credentials.get(id)), copy)),
    credentialsOf: (batchId) => locked(store, () => inBatch(batchId).map(copy)),
    credentialSummariesOf: (batchIds) =>
      locked(store, () =>
        batchIds.flatMap((batchId) => inBatch(batchId).map((c) => ({ id: c.id, batchId: c.batchId, recipientId: c.recipientId })))),
    saveCredential: (id, update) =>
      locked(store, () => {
        const current = credentials.get(id)
        if (current === undefined) return
        credentials.set(
          id,
          copy(credentialRow({
            ...current,
            ...credentialState(update.state),
            ...(update.document !== undefined ? { document: update.document } : {}),
            ...(update.statusList !== undefined ? { statusList: update.statusList } : {})
          }))
        )
      }),

    recipient: (credentialId) => locked(store, () => Option.map(Option.fromNullable(recipients.get(credentialId)), copy)),
    recipientsOf: (batchId) =>
      locked(store, () =>
        inBatch(batchId).flatMap((c) => {
          const r = recipients.get(c.id)
          return r === undefined ? [] : [copy(r)]
        })),
    deleteRecipient: (credentialId) => locked(store, () => void recipients.delete(credentialId))
  }
})
