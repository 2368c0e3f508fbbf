/**
 * `AnchorJournal` on Postgres. `record` returns once the row is committed (outside a
 * transaction, each statement commits on its own), which is what lets the anchorer broadcast
 * right after. Storage failures are `JournalUnavailable`, as the port says: the anchorer then
 * holds back rather than broadcast an unrecorded transaction.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { AnchorJournal, type Attempt, JournalUnavailable } from "@sigil/service/Batches/AnchorJournal"
import type { Hash32, Hex } from "@sigil/core/Hex"
import type { BatchId } from "@sigil/core/Ids"
import { Effect, Layer } from "effect"
import { int, opt } from "./internal/sql.js"

interface Row {
  readonly chain_id: number
  readonly batch_id: string | null
  readonly sender: string
  readonly nonce: string
  readonly tx_hash: string
  readonly raw_transaction: string
  readonly max_fee_per_gas: string
  readonly max_priority_fee_per_gas: string
  readonly created_at: Date
}

const toAttempt = (r: Row): Attempt => ({
  chainId: r.chain_id,
  batchId: opt(r.batch_id) as BatchId | undefined,
  sender: r.sender,
  nonce: int(r.nonce),
  txHash: r.tx_hash as Hash32,
  rawTransaction: r.raw_transaction as Hex,
  maxFeePerGas: BigInt(r.max_fee_per_gas),
  maxPriorityFeePerGas: BigInt(r.max_priority_fee_per_gas),
  createdAt: r.created_at
})

const unavailable = (name: string) => <A, R>(effect: Effect.Effect<A, SqlError, R>) =>
  effect.pipe(
    Effect.mapError((e) => new JournalUnavailable({ message: `anchor journal unavailable: ${e.message}` })),
    Effect.withSpan(name)
  )

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<AnchorJournal["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    AnchorJournal.of({
      // The same signed transaction twice is one entry.
      record: (a) =>
        sql`INSERT INTO anchor_journal ${
          sql.insert({
            chain_id: a.chainId,
            tx_hash: a.txHash,
            batch_id: a.batchId ?? null,
            sender: a.sender,
            nonce: a.nonce,
            raw_transaction: a.rawTransaction,
            max_fee_per_gas: a.maxFeePerGas.toString(),
            max_priority_fee_per_gas: a.maxPriorityFeePerGas.toString(),
            created_at: a.createdAt
          })
        } ON CONFLICT (chain_id, tx_hash) DO NOTHING`.pipe(Effect.asVoid, unavailable("PgAnchorJournal.record")),
      attempts: (chainId, batchId) =>
        sql<Row>`SELECT * FROM anchor_journal WHERE chain_id = ${chainId}::integer AND batch_id = ${batchId}
          ORDER BY seq`.pipe(Effect.map((rows) => rows.map(toAttempt)), unavailable("PgAnchorJournal.attempts")),
      lastNonce: (chainId, sender) =>
        sql<{ readonly nonce: string | null }>`SELECT max(nonce) AS nonce FROM anchor_journal
          WHERE chain_id = ${chainId}::integer AND lower(sender) = lower(${sender})`.pipe(
          Effect.map((rows) => (rows[0]?.nonce == null ? undefined : int(rows[0].nonce))),
          unavailable("PgAnchorJournal.lastNonce")
        )
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<AnchorJournal, never, SqlClient.SqlClient> = Layer.effect(AnchorJournal, make)
