/**
 * Port: the durable record of every anchoring transaction Sigil signs, written *before* the
 * transaction is broadcast. It is what makes anchoring "never twice, never lost": after a
 * crash the adapter finds the signed transaction here and broadcasts the same bytes again.
 *
 * `@sigil/store-pg` implements it on Postgres; `layerMemory` is for tests.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import type { Hash32, Hex } from "@sigil/core/Hex"
import type { BatchId } from "@sigil/core/Ids"

/**
 * One signed transaction. A batch has several when its first transaction was replaced with a
 * higher fee at the same nonce; they share the nonce, so at most one is ever mined.
 *
 * @since 0.1.0
 * @category models
 */
export interface Attempt {
  readonly chainId: number
  /** The batch it anchors; undefined for the treasury's gas top-ups. */
  readonly batchId: BatchId | undefined
  readonly sender: string
  readonly nonce: number
  readonly txHash: Hash32
  readonly rawTransaction: Hex
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
  readonly createdAt: Date
}

/**
 * @since 0.1.0
 * @category errors
 */
export class JournalUnavailable extends Schema.TaggedError<JournalUnavailable>()("JournalUnavailable", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Must be durable when it succeeds: the caller broadcasts right after. */
  readonly record: (attempt: Attempt) => Effect.Effect<void, JournalUnavailable>
  /** A batch's attempts, oldest first. */
  readonly attempts: (chainId: number, batchId: BatchId) => Effect.Effect<ReadonlyArray<Attempt>, JournalUnavailable>
  /** The highest nonce recorded for a sender on a chain, if any. */
  readonly lastNonce: (chainId: number, sender: string) => Effect.Effect<number | undefined, JournalUnavailable>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class AnchorJournal extends Context.Tag("@sigil/service/Batches/AnchorJournal")<AnchorJournal, Service>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = () => {
  const rows: Array<Attempt> = []
  const service: Service = {
    record: (attempt) => Effect.sync(() => void rows.push(attempt)),
    attempts: (chainId, batchId) =>
      Effect.sync(() => rows.filter((a) => a.chainId === chainId && a.batchId === batchId)),
    lastNonce: (chainId, sender) =>
      Effect.sync(() => {
        const nonces = rows
          .filter((a) => a.chainId === chainId && a.sender.toLowerCase() === sender.toLowerCase())
          .map((a) => a.nonce)
        return nonces.length === 0 ? undefined : Math.max(...nonces)
      })
  }
  return { service, rows: rows as ReadonlyArray<Attempt> }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<AnchorJournal> = Layer.sync(AnchorJournal, () => makeMemory().service)
