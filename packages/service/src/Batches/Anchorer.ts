/**
 * Port: puts a batch's Merkle root on chain, one transaction per batch, sent from the tenant's
 * secp256k1 address (decisions §3), and follows it to finality.
 *
 * `submit` and `confirm` are both idempotent and safe to call again after a crash: the adapter
 * records every signed transaction in the `AnchorJournal` before broadcasting it, so a retry
 * resumes the same transaction instead of sending a second one.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import type { ChainName } from "@sigil/core/Chains"
import * as Chains from "@sigil/core/Chains"
import type { JournalUnavailable } from "./AnchorJournal.js"
import type { ChainUnavailable } from "@sigil/core/ChainReader"
import type { Hash32 } from "@sigil/core/Hex"
import * as Primitives from "@sigil/core/Primitives"
import type { BatchId, TenantId } from "@sigil/core/Ids"
import type { SigningKeyUnavailable } from "../Tenants/KeyVault.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface AnchorRequest {
  readonly batchId: BatchId
  readonly tenantId: TenantId
  readonly chain: ChainName
  /** `0x` + 64 hex: the transaction's whole `data`. */
  readonly merkleRoot: Hash32
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Submission {
  readonly chainId: number
  readonly txHash: Hash32
  readonly sender: string
  readonly nonce: number
}

/**
 * Where an anchor stands. `Final` once the transaction has the configured number of
 * confirmations.
 *
 * @since 0.1.0
 * @category models
 */
export type Status =
  | { readonly _tag: "Pending"; readonly chainId: number; readonly txHash: Hash32; readonly confirmations: number }
  | {
    readonly _tag: "Final"
    readonly chainId: number
    readonly txHash: Hash32
    readonly blockNumber: number
    readonly blockTimestamp: Date
    readonly sender: string
  }

/**
 * The chain refused the transaction for good (for example it is invalid). The batch fails
 * with this message.
 *
 * @since 0.1.0
 * @category errors
 */
export class AnchorRejected extends Schema.TaggedError<AnchorRejected>()("AnchorRejected", {
  chain: Schema.String,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export type AnchorError = ChainUnavailable | AnchorRejected | SigningKeyUnavailable | JournalUnavailable

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Signs, records and broadcasts the batch's transaction; re-broadcasts the recorded one if it exists. */
  readonly submit: (request: AnchorRequest) => Effect.Effect<Submission, AnchorError>
  /** Checks the batch's transaction: replaces it when stuck, re-broadcasts it when dropped. */
  readonly confirm: (request: AnchorRequest) => Effect.Effect<Status, AnchorError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Anchorer extends Context.Tag("@sigil/service/Batches/Anchorer")<Anchorer, Service>() {}

/**
 * An anchor that is final at once, with made-up transaction hashes; for offline examples and
 * tests of code above the port. `onFinal` sees each anchored transaction, so a test can feed
 * a memory `ChainReader`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeInstant = (options: {
  /** The tenant's anchoring address; `undefined` when it has none (refused, as Base refuses it). */
  readonly sender: (tenantId: TenantId) => string | undefined
  readonly now: () => Date
  readonly onFinal?: (request: AnchorRequest, status: Extract<Status, { _tag: "Final" }>) => void
}): Service => {
  const finals = new Map<string, Extract<Status, { _tag: "Final" }>>()
  let block = 0
  const anchor = (request: AnchorRequest): Effect.Effect<Extract<Status, { _tag: "Final" }>, AnchorRejected> =>
    Effect.suspend(() => {
      const existing = finals.get(request.batchId)
      if (existing !== undefined) return Effect.succeed(existing)
      const sender = options.sender(request.tenantId)
      if (sender === undefined) {
        return Effect.fail(
          new AnchorRejected({ chain: request.chain, message: `tenant ${request.tenantId} has no key to anchor with` })
        )
      }
      const chainId = Chains.byName(request.chain).chainId
      const txHash = fakeTxHash(request)
      const status = {
        _tag: "Final" as const,
        chainId,
        txHash,
        blockNumber: ++block,
        blockTimestamp: options.now(),
        sender
      }
      finals.set(request.batchId, status)
      options.onFinal?.(request, status)
      return Effect.succeed(status)
    })
  return {
    submit: (request) =>
      Effect.map(anchor(request), (s) => ({ chainId: s.chainId, txHash: s.txHash, sender: s.sender, nonce: 0 })),
    confirm: anchor
  }
}

const fakeTxHash = (request: AnchorRequest): Hash32 =>
  // A deterministic stand-in, one per batch (two batches may share a root), never a real transaction.
  `0x${Primitives.sha256Utf8Hex(`sigil-instant-anchor:${request.batchId}:${request.merkleRoot}`)}` as Hash32

/**
 * @since 0.1.0
 * @category layers
 */
export const layerInstant = (options: Parameters<typeof makeInstant>[0]): Layer.Layer<Anchorer> =>
  Layer.sync(Anchorer, () => makeInstant(options))
