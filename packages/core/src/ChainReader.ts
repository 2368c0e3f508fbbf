/**
 * Port: reads anchoring transactions back from a chain, for the verifier.
 *
 * Implemented on EVM JSON-RPC by `@sigil/anchor-base`; `layerMemory` serves recorded
 * transactions (tests, offline replays of third-party vectors).
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option, Schema } from "effect"

/**
 * Where an anchor lives: an EVM chain by chain id, or Bitcoin (read only, for third-party
 * Blockcerts credentials).
 *
 * @since 0.1.0
 * @category models
 */
export type ChainRef =
  | { readonly family: "eth"; readonly chainId: number }
  | { readonly family: "btc"; readonly network: "mainnet" | "testnet" }

/**
 * @since 0.1.0
 * @category models
 */
export const chainKey = (chain: ChainRef): string =>
  chain.family === "eth" ? `eth:${chain.chainId}` : `btc:${chain.network}`

/**
 * A transaction as the verifier needs it.
 *
 * @since 0.1.0
 * @category models
 */
export interface ChainTransaction {
  readonly hash: string
  /** EVM: the transaction input (`0x…`). Bitcoin: the OP_RETURN payload as hex. */
  readonly input: string
  /** EVM: the sender address (`0x…`, any case). Bitcoin: the address of the first input. */
  readonly from: string
  /** Undefined while the transaction is pending. */
  readonly blockNumber: number | undefined
  readonly blockTimestamp: Date | undefined
  /** 0 while pending; 1 when in the head block. */
  readonly confirmations: number
}

/**
 * The chain could not be reached (network error, RPC down, no reader configured for it).
 *
 * @since 0.1.0
 * @category errors
 */
export class ChainUnavailable extends Schema.TaggedError<ChainUnavailable>()("ChainUnavailable", {
  chain: Schema.String,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** `None` when the chain does not know the transaction. */
  readonly getTransaction: (
    chain: ChainRef,
    hash: string
  ) => Effect.Effect<Option.Option<ChainTransaction>, ChainUnavailable>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class ChainReader extends Context.Tag("@sigil/core/ChainReader")<ChainReader, Service>() {}

/**
 * @since 0.1.0
 * @category models
 */
export interface MemoryEntry {
  readonly chain: ChainRef
  readonly transaction: ChainTransaction
}

/**
 * An in-memory chain: answers for the given transactions and nothing else. `record` adds more
 * after creation, as a fake chain "mines" them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (entries: Iterable<MemoryEntry> = []) => {
  const byKey = new Map<string, ChainTransaction>()
  const key = (chain: ChainRef, hash: string) => `${chainKey(chain)}/${hash.toLowerCase()}`
  const record = (chain: ChainRef, transaction: ChainTransaction) => {
    byKey.set(key(chain, transaction.hash), transaction)
  }
  for (const e of entries) record(e.chain, e.transaction)
  const service: Service = {
    getTransaction: (chain, hash) => Effect.sync(() => Option.fromNullable(byKey.get(key(chain, hash))))
  }
  return { service, record }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (entries: Iterable<MemoryEntry> = []): Layer.Layer<ChainReader> =>
  Layer.succeed(ChainReader, makeMemory(entries).service)
