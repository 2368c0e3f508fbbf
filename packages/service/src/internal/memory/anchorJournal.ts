/**
 * `AnchorJournal` in the shared memory store, so a journal entry takes part in memory
 * transactions like every other table. Recording the same transaction twice keeps the first
 * (Postgres: `ON CONFLICT DO NOTHING` on chain and hash).
 *
 * @internal
 */
import { Effect } from "effect"
import type { Attempt, Service } from "../../Batches/AnchorJournal.js"
import { MemoryStore } from "../../Transactor.js"
import { copy, locked, tables } from "./store.js"

const attemptRow = (a: Attempt): Attempt => ({
  chainId: a.chainId,
  batchId: a.batchId,
  sender: a.sender,
  nonce: a.nonce,
  txHash: a.txHash,
  rawTransaction: a.rawTransaction,
  maxFeePerGas: a.maxFeePerGas,
  maxPriorityFeePerGas: a.maxPriorityFeePerGas,
  createdAt: a.createdAt
})

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const rows = store.table(tables.journal, () => new Array<Attempt>())
  return {
    record: (attempt) =>
      locked(store, () => {
        if (rows.some((a) => a.chainId === attempt.chainId && a.txHash === attempt.txHash)) return
        rows.push(copy(attemptRow(attempt)))
      }),
    attempts: (chainId, batchId) =>
      locked(store, () => rows.filter((a) => a.chainId === chainId && a.batchId === batchId).map(copy)),
    lastNonce: (chainId, sender) =>
      locked(store, () => {
        const nonces = rows
          .filter((a) => a.chainId === chainId && a.sender.toLowerCase() === sender.toLowerCase())
          .map((a) => a.nonce)
        return nonces.length === 0 ? undefined : Math.max(...nonces)
      })
  }
})
