/**
 * The verifier's `ChainReader` on EVM JSON-RPC: a transaction by hash with its input, sender,
 * block number, block time and confirmations (what the Blockcerts verifier compares,
 * research/blockcerts.md §3.3).
 *
 * @since 0.1.0
 */
import * as ChainReader from "@sigil/core/ChainReader"
import { ChainUnavailable } from "@sigil/core/ChainReader"
import * as Chains from "@sigil/core/Chains"
import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import { getAddress, type Hex, hexToNumber } from "viem"
import * as ChainConfig from "./ChainConfig.js"
import * as Devnet from "./Devnet.js"
import * as Rpc from "./internal/rpc.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly chains: ReadonlyArray<ChainConfig.ReaderChainOptions>
}

const HASH = /^(0x)?[0-9a-fA-F]{64}$/

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): ChainReader.Service => {
  const clients = new Map<number, Rpc.Rpc>()
  for (const chain of options.chains) {
    const label = Chains.byChainId(chain.chainId)?.name ?? `eth:${chain.chainId}`
    clients.set(chain.chainId, Rpc.make(label, chain.rpc, ChainConfig.resolveRetry(chain.retry)))
  }

  const getTransaction = (chain: ChainReader.ChainRef, hash: string) =>
    Effect.gen(function*() {
      const rpc = chain.family === "eth" ? clients.get(chain.chainId) : undefined
      if (rpc === undefined) {
        return yield* new ChainUnavailable({
          chain: ChainReader.chainKey(chain),
          message: `no RPC is configured to read ${ChainReader.chainKey(chain)}`
        })
      }
      // Nothing on chain has a malformed hash; asking would only draw an invalid-params error.
      if (!HASH.test(hash)) return Option.none()
      const normalized = `0x${hash.replace(/^0x/, "").toLowerCase()}` as Hex
      const tx = yield* rpc.transaction(normalized)
      if (tx === null) return Option.none()
      const base = { hash: tx.hash, input: tx.input, from: getAddress(tx.from) }
      if (tx.blockNumber === null) {
        return Option.some({ ...base, blockNumber: undefined, blockTimestamp: undefined, confirmations: 0 })
      }
      const blockNumber = hexToNumber(tx.blockNumber)
      const [block, head] = yield* Effect.all([rpc.block(blockNumber), rpc.blockNumber], { concurrency: 2 })
      if (block === null || (tx.blockHash !== null && block.hash !== tx.blockHash)) {
        // Reorged between the two reads: report it as pending; the caller asks again later.
        return Option.some({ ...base, blockNumber: undefined, blockTimestamp: undefined, confirmations: 0 })
      }
      return Option.some({
        ...base,
        blockNumber,
        blockTimestamp: new Date(hexToNumber(block.timestamp) * 1000),
        confirmations: Math.max(1, head - blockNumber + 1)
      } satisfies ChainReader.ChainTransaction)
    })

  return { getTransaction }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<ChainReader.ChainReader> =>
  Layer.sync(ChainReader.ChainReader, () => make(options))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<ChainReader.ChainReader, ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(config), layer))

/**
 * Reads the embedded devnet, plus any other chains given.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerDevnet = (
  others: ReadonlyArray<ChainConfig.ReaderChainOptions> = []
): Layer.Layer<ChainReader.ChainReader, never, Devnet.Devnet> =>
  Layer.unwrapEffect(Effect.map(Devnet.readerChain(), (devnet) => layer({ chains: [devnet, ...others] })))
