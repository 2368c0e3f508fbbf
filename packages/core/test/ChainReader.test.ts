import { Effect, Layer } from "effect"
import * as ChainReader from "../src/ChainReader.js"
import * as Hex from "../src/Hex.js"
import { chainReaderContract } from "../testkit/ChainReader.contract.js"

const chain: ChainReader.ChainRef = { family: "eth", chainId: 84532 }
const memory = ChainReader.makeMemory()
let head = 100

const randomHex = (bytes: number) => Hex.fromBytes(crypto.getRandomValues(new Uint8Array(bytes)))

chainReaderContract("memory", {
  layer: Layer.succeed(ChainReader.ChainReader, memory.service),
  chain,
  put: (input) =>
    Effect.sync(() => {
      const transaction: ChainReader.ChainTransaction = {
        hash: randomHex(32),
        input,
        // Checksummed addresses mix cases; the reader must not care.
        from: `0x${randomHex(20).slice(2).toUpperCase()}`,
        blockNumber: ++head,
        blockTimestamp: new Date(Math.floor(Date.now() / 1000) * 1000),
        confirmations: 1
      }
      memory.record(chain, transaction)
      return { ...transaction, blockNumber: head, blockTimestamp: transaction.blockTimestamp! }
    }),
  // The memory chain has no network to lose; this stands in for a fake that is offline.
  unreachable: Layer.succeed(ChainReader.ChainReader, {
    getTransaction: (c) =>
      Effect.fail(new ChainReader.ChainUnavailable({ chain: ChainReader.chainKey(c), message: "offline" }))
  })
})
