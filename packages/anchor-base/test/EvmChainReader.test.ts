import { assert, describe, it } from "@effect/vitest"
import * as ChainReader from "@sigil/core/ChainReader"
import { Effect, Layer, Option, Redacted } from "effect"
import { type Hex, hexToNumber } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { chainReaderContract } from "@sigil/core/testkit/ChainReader.contract"
import * as ChainConfig from "../src/ChainConfig.js"
import * as Devnet from "../src/Devnet.js"
import * as EvmChainReader from "../src/EvmChainReader.js"
import { flaky, quickRetry, randomRoot, rpc, tempDir } from "./helpers.js"

const devnetLayer = Layer.scoped(Devnet.Devnet, Effect.flatMap(tempDir, (dataDir) => Devnet.make({ dataDir })))
const chain: ChainReader.ChainRef = { family: "eth", chainId: 31337 }
const treasury = privateKeyToAccount(Devnet.TREASURY_PRIVATE_KEY)

/** Sends a transaction with this input from the treasury; with automine it is mined at once. */
const send = (input: Hex, automine = true) =>
  Effect.gen(function*() {
    const devnet = yield* Devnet.Devnet
    const call = rpc(devnet.provider)
    const nonce = hexToNumber(yield* call<Hex>("eth_getTransactionCount", treasury.address, "pending"))
    const raw = yield* Effect.promise(() =>
      treasury.signTransaction({
        type: "eip1559",
        chainId: 31337,
        nonce,
        to: ChainConfig.BURN_ADDRESS,
        value: 0n,
        data: input,
        gas: 25_000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n
      })
    )
    const hash = yield* call<Hex>("eth_sendRawTransaction", raw)
    if (!automine) return { hash, blockNumber: undefined, blockTimestamp: undefined }
    const receipt = yield* call<{ blockNumber: Hex }>("eth_getTransactionReceipt", hash)
    const block = yield* call<{ timestamp: Hex }>("eth_getBlockByNumber", receipt.blockNumber, false)
    return {
      hash,
      blockNumber: hexToNumber(receipt.blockNumber),
      blockTimestamp: new Date(hexToNumber(block.timestamp) * 1000)
    }
  })

chainReaderContract("EVM JSON-RPC on the devnet", {
  layer: EvmChainReader.layerDevnet().pipe(Layer.provideMerge(devnetLayer)),
  chain,
  put: (input) =>
    Effect.map(send(input as Hex), (sent) => ({
      hash: sent.hash,
      input,
      from: treasury.address,
      blockNumber: sent.blockNumber!,
      blockTimestamp: sent.blockTimestamp!
    })),
  advance: Effect.flatMap(Devnet.Devnet, (devnet) => rpc(devnet.provider)("evm_mine")),
  unreachable: EvmChainReader.layer({
    chains: [{ chainId: 31337, rpc: ChainConfig.rpcUrl(Redacted.make("http://127.0.0.1:9/"), { timeout: "1 second" }), retry: quickRetry }]
  })
})

describe("EvmChainReader", () => {
  it.scopedLive("reports a pending transaction without block and with 0 confirmations", () =>
    Effect.gen(function*() {
      const devnet = yield* Devnet.Devnet
      yield* rpc(devnet.provider)("evm_setAutomine", false)
      const input = randomRoot() as Hex
      const sent = yield* send(input, false)
      const reader = EvmChainReader.make({ chains: [yield* Devnet.readerChain()] })
      const tx = Option.getOrThrow(yield* reader.getTransaction(chain, sent.hash))
      assert.deepStrictEqual(tx, { hash: sent.hash, input, from: treasury.address, blockNumber: undefined, blockTimestamp: undefined, confirmations: 0 })
    }).pipe(Effect.provide(devnetLayer)))

  it.scopedLive("is unavailable for chains it has no RPC for, Bitcoin included", () =>
    Effect.gen(function*() {
      const reader = EvmChainReader.make({ chains: [yield* Devnet.readerChain()] })
      const other = yield* Effect.flip(reader.getTransaction({ family: "eth", chainId: 8453 }, randomRoot()))
      assert.strictEqual(other._tag, "ChainUnavailable")
      assert.strictEqual(other.chain, "eth:8453")
      const btc = yield* Effect.flip(reader.getTransaction({ family: "btc", network: "mainnet" }, randomRoot()))
      assert.strictEqual(btc.chain, "btc:mainnet")
    }).pipe(Effect.provide(devnetLayer)))

  it.scopedLive("retries transient RPC failures inside the call", () =>
    Effect.gen(function*() {
      const devnet = yield* Devnet.Devnet
      const sent = yield* send(randomRoot() as Hex)
      const proxy = flaky(devnet.provider, { failing: (n) => n % 2 === 0 })
      const reader = EvmChainReader.make({ chains: [{ chainId: 31337, rpc: ChainConfig.rpcProvider(proxy.provider), retry: quickRetry }] })
      const tx = Option.getOrThrow(yield* reader.getTransaction(chain, sent.hash))
      assert.strictEqual(tx.blockNumber, sent.blockNumber)
      assert.isAbove(proxy.stats().failures, 0)
    }).pipe(Effect.provide(devnetLayer)))
})
