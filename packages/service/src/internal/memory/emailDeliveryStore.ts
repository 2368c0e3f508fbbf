/**
 * `EmailDeliveryStore` in memory.
 *
 * @internal
 */
import { Effect, Option } from "effect"
import type { ClaimToken, DeliveryRecord, Service } from "../../Email/EmailDeliveryStore.js"
import type { CredentialId } from "@sigil/core/Ids"
import { MemoryStore } from "../../Transactor.js"
import { copy, locked, requireCredential, requireTenant, tables } from "./store.js"

// Only the columns Postgres keeps, so both adapters return the same shape.
const deliveryRow = (r: DeliveryRecord): DeliveryRecord => ({
  credentialId: r.credentialId,
  tenantId: r.tenantId,
  batchId: r.batchId,
  status: r.status,
  attempts: r.attempts,
  lastError: r.lastError,
  lastAttemptAt: r.lastAttemptAt,
  sentAt: r.sentAt,
  claimedAt: r.claimedAt,
  createdAt: r.createdAt
})

const tokenRow = (t: ClaimToken): ClaimToken => ({
  tokenHash: t.tokenHash,
  credentialId: t.credentialId,
  expiresAt: t.expiresAt,
  createdAt: t.createdAt
})

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const deliveries = store.table(tables.emailDeliveries, () => new Map<CredentialId, DeliveryRecord>())
  const tokens = store.table(tables.claimTokens, () => new Map<string, ClaimToken>())

  return {
    insert: (records) =>
      locked(store, () => {
        // Check everything first: the insert is all or nothing, as its SQL is.
        for (const r of records) {
          requireTenant(store, r.tenantId)
          requireCredential(store, r.credentialId)
        }
        for (const r of records) {
          if (!deliveries.has(r.credentialId)) deliveries.set(r.credentialId, copy(deliveryRow(r)))
        }
      }),
    get: (credentialId) => locked(store, () => Option.map(Option.fromNullable(deliveries.get(credentialId)), copy)),
    lock: (credentialId) => locked(store, () => Option.map(Option.fromNullable(deliveries.get(credentialId)), copy)),
    recordAttempt: (credentialId, attempt) =>
      locked(store, () => {
        const current = deliveries.get(credentialId)
        if (current === undefined) return Option.none()
        const next: DeliveryRecord = {
          ...current,
          status: attempt.status,
          attempts: current.attempts + 1,
          lastError: attempt.error,
          lastAttemptAt: attempt.at,
          sentAt: attempt.status === "sent" ? attempt.at : current.sentAt
        }
        deliveries.set(credentialId, copy(next))
        return Option.some(copy(next))
      }),
    cancel: (credentialId) =>
      locked(store, () => {
        const current = deliveries.get(credentialId)
        if (current === undefined) return false
        const cancelled = current.status === "queued"
        deliveries.set(credentialId, { ...current, lastError: undefined, ...(cancelled ? { status: "cancelled" as const } : {}) })
        return cancelled
      }),
    markClaimed: (credentialId, at) =>
      locked(store, () => {
        const current = deliveries.get(credentialId)
        if (current !== undefined && current.claimedAt === undefined) deliveries.set(credentialId, { ...current, claimedAt: at })
      }),

    addToken: (token) =>
      locked(store, () => {
        requireCredential(store, token.credentialId)
        if (tokens.has(token.tokenHash)) throw new Error(`duplicate key in ${tables.claimTokens}: ${token.tokenHash}`)
        tokens.set(token.tokenHash, copy(tokenRow(token)))
      }),
    findToken: (tokenHash, credentialId, now) =>
      locked(store, () =>
        Option.fromNullable(tokens.get(tokenHash)).pipe(
          Option.filter((t) => t.credentialId === credentialId && t.expiresAt.getTime() > now.getTime()),
          Option.map(copy)
        )),
    deleteTokens: (credentialId) =>
      locked(store, () => {
        for (const [hash, t] of tokens) if (t.credentialId === credentialId) tokens.delete(hash)
      }),
    purgeExpiredTokens: (now) =>
      locked(store, () => {
        let n = 0
        for (const [hash, t] of tokens) {
          if (t.expiresAt.getTime() <= now.getTime()) {
            tokens.delete(hash)
            n++
          }
        }
        return n
      })
  }
})
