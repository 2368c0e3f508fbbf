import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { type Hex, hexToNumber } from "viem"
import * as BaseAnchor from "../src/BaseAnchor.js"
import * as ChainConfig from "../src/ChainConfig.js"
import * as Devnet from "../src/Devnet.js"
import * as EvmChainReader from "../src/EvmChainReader.js"
import { anchorUntilFinal, fund, makeJournal, makeVault, quickRetry, request, rpc, scanChain, tempDir } from "./helpers.js"

interface Block {
  readonly number: Hex
  readonly hash: Hex
  readonly timestamp: Hex
  readonly transactions: ReadonlyArray<Hex>
}

/** Every block of the chain, as the node reports it. */
const blocks = (provider: ChainConfig.Eip1193Provider) =>
  Effect.gen(function*() {
    const call = rpc(provider)
    const head = hexToNumber(yield* call<Hex>("eth_blockNumber"))
    return yield* Effect.forEach(Array.from({ length: head + 1 }, (_, n) => n), (n) =>
      call<Block>("eth_getBlockByNumber", `0x${n.toString(16)}`, false))
  })

const anchorer = (devnet: Devnet.Service, vault: ReturnType<typeof makeVault>, journal: ReturnType<typeof makeJournal>) =>
  BaseAnchor.make({
    chains: [{ chain: "devnet", rpc: ChainConfig.rpcProvider(devnet.provider), treasuryKey: devnet.treasuryKey, retry: quickRetry }]
  }).pipe(Effect.provide(Layer.merge(vault.layer, journal.layer)))

describe("Devnet", () => {
  it.scopedLive("survives a restart: every transaction comes back with the same hash, block and time", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const vault = makeVault()
      const journal = makeJournal()
      const tenants = [vault.addTenant(), vault.addTenant(), vault.addTenant()]
      // Its anchor gets reverted away; its journal nonce is then a gap no one else should wait on.
      const reverted = vault.addTenant()
      const requests = Array.from({ length: 12 }, (_, i) => request(tenants[i % 3]!))
      const chain = { family: "eth", chainId: 31337 } as const

      const before = yield* Effect.scoped(Effect.gen(function*() {
        const devnet = yield* Devnet.make({ dataDir })
        const call = rpc(devnet.provider)
        const service = yield* anchorer(devnet, vault, journal)
        const finals = yield* Effect.forEach(requests.slice(0, 6), (req) => anchorUntilFinal(service, req), { concurrency: 3 })
        // Undone blocks must not come back: anchor one root, then revert it away.
        const snapshot = yield* call("evm_snapshot")
        yield* anchorUntilFinal(service, request(reverted))
        yield* call("evm_revert", snapshot)
        yield* call("hardhat_setBalance", tenants[2]!.address, "0x1234567890")
        yield* call("evm_mine")
        finals.push(...(yield* Effect.forEach(requests.slice(6), (req) => anchorUntilFinal(service, req), { concurrency: 3 })))
        const reader = EvmChainReader.make({ chains: [{ chainId: 31337, rpc: ChainConfig.rpcProvider(devnet.provider) }] })
        const reads = yield* Effect.forEach(finals, (f) => reader.getTransaction(chain, f.txHash))
        return {
          finals,
          reads,
          blocks: yield* blocks(devnet.provider),
          txs: yield* scanChain(devnet.provider),
          balance: yield* call<Hex>("eth_getBalance", tenants[1]!.address, "latest")
        }
      }))

      const log = path.join(dataDir, "devnet", "chain.jsonl")
      const kinds = (text: string) => text.trim().split("\n").map((line) => (JSON.parse(line) as { t: string }).t)
      assert.includeMembers(kinds(fs.readFileSync(log, "utf8")), ["genesis", "block", "truncate", "state"])

      const devnet = yield* Devnet.make({ dataDir })
      const call = rpc(devnet.provider)
      assert.notInclude(kinds(fs.readFileSync(log, "utf8")), "truncate", "the log is compacted at start")
      assert.deepStrictEqual(yield* blocks(devnet.provider), before.blocks, "same blocks: numbers, hashes, times, transactions")
      assert.deepStrictEqual(yield* scanChain(devnet.provider), before.txs)
      assert.strictEqual(yield* call<Hex>("eth_getBalance", tenants[1]!.address, "latest"), before.balance)
      const reader = EvmChainReader.make({ chains: [{ chainId: 31337, rpc: ChainConfig.rpcProvider(devnet.provider) }] })
      for (const [i, final] of before.finals.entries()) {
        const tx = Option.getOrThrow(yield* reader.getTransaction(chain, final.txHash))
        const earlier = Option.getOrThrow(before.reads[i]!)
        assert.deepStrictEqual({ ...tx, confirmations: 0 }, { ...earlier, confirmations: 0 })
        assert.strictEqual(tx.blockNumber, final.blockNumber)
        assert.strictEqual(tx.blockTimestamp?.getTime(), final.blockTimestamp.getTime())
      }

      // The restarted chain carries on, on the wall clock, and anchors again.
      const service = yield* anchorer(devnet, vault, journal)
      const next = yield* anchorUntilFinal(service, request(tenants[0]!))
      assert.strictEqual(next.blockNumber, before.blocks.length)
      const now = Date.now()
      assert.isTrue(Math.abs(next.blockTimestamp.getTime() - now) < 10_000, "block time follows the wall clock")
    }))

  it.scopedLive("tolerates a torn last line of the chain log", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const hashes = yield* Effect.scoped(Effect.gen(function*() {
        const devnet = yield* Devnet.make({ dataDir })
        yield* fund(devnet.provider, Devnet.TREASURY_ADDRESS)
        yield* fund(devnet.provider, Devnet.TREASURY_ADDRESS)
        return (yield* blocks(devnet.provider)).map((b) => b.hash)
      }))
      const file = path.join(dataDir, "devnet", "chain.jsonl")
      fs.appendFileSync(file, `{"t":"block","number":3,"ha`)
      const devnet = yield* Devnet.make({ dataDir })
      assert.deepStrictEqual((yield* blocks(devnet.provider)).map((b) => b.hash), hashes)
      assert.isTrue(fs.readFileSync(file, "utf8").endsWith("\n"))
    }))

  it.scopedLive("lets one devnet at a time use a data directory", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* Devnet.make({ dataDir })
      const second = yield* Effect.either(Effect.scoped(Devnet.make({ dataDir })))
      assert.isTrue(Either.isLeft(second))
      if (Either.isLeft(second)) assert.include(second.left.message, `in use by process ${process.pid}`)
    }))

  it.scopedLive("refuses calls whose effects it cannot persist", () =>
    Effect.gen(function*() {
      const devnet = yield* Devnet.make({ dataDir: yield* tempDir })
      const reset = yield* Effect.either(Effect.tryPromise(() => devnet.provider.request({ method: "hardhat_reset", params: [] })))
      assert.isTrue(Either.isLeft(reset))
    }))
})

describe("Devnet.handleJsonRpc", () => {
  it.scopedLive("answers single and batch JSON-RPC requests with standard methods only", () =>
    Effect.gen(function*() {
      const devnet = yield* Devnet.make({ dataDir: yield* tempDir })
      const vault = makeVault()
      const final = yield* anchorUntilFinal(yield* anchorer(devnet, vault, makeJournal()), request(vault.addTenant()))

      assert.deepStrictEqual(
        yield* devnet.handleJsonRpc({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        { jsonrpc: "2.0", id: 1, result: "0x7a69" }
      )
      const batch = (yield* devnet.handleJsonRpc([
        { jsonrpc: "2.0", id: "a", method: "eth_getTransactionByHash", params: [final.txHash] },
        { jsonrpc: "2.0", id: "b", method: "evm_mine", params: [] },
        { jsonrpc: "2.0", id: "c", method: "eth_sendTransaction", params: [{ from: Devnet.TREASURY_ADDRESS }] },
        { jsonrpc: "2.0", id: "d", method: "eth_sendRawTransaction", params: ["0x02"] },
        { jsonrpc: "2.0", method: "eth_blockNumber" },
        { id: "e", method: "eth_blockNumber" }
      ])) as ReadonlyArray<{ id: unknown; result?: { hash: string; blockNumber: Hex }; error?: { code: number } }>
      assert.deepStrictEqual(batch.map((r) => r.id), ["a", "b", "c", "d", "e"], "the notification gets no answer")
      assert.strictEqual(batch[0]!.result?.hash, final.txHash)
      assert.strictEqual(hexToNumber(batch[0]!.result!.blockNumber), final.blockNumber)
      assert.strictEqual(batch[1]!.error?.code, -32601)
      assert.strictEqual(batch[2]!.error?.code, -32601)
      assert.isNumber(batch[3]!.error?.code)
      assert.strictEqual(batch[4]!.error?.code, -32600)
      assert.isUndefined(yield* devnet.handleJsonRpc({ jsonrpc: "2.0", method: "eth_chainId" }))
      assert.deepStrictEqual(yield* devnet.handleJsonRpc([]), { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } })
      assert.deepStrictEqual(yield* devnet.handleJsonRpc("nonsense"), { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } })
    }))

  it.scopedLive("serves viem over HTTP-like round trips (what an external verifier does)", () =>
    Effect.gen(function*() {
      const devnet = yield* Devnet.make({ dataDir: yield* tempDir })
      const vault = makeVault()
      const final = yield* anchorUntilFinal(yield* anchorer(devnet, vault, makeJournal()), request(vault.addTenant()))
      // A provider that goes through handleJsonRpc the way the server's route would.
      let id = 0
      const viaEndpoint: ChainConfig.Eip1193Provider = {
        request: async ({ method, params }) => {
          const body = JSON.parse(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }))
          const response = (await Effect.runPromise(devnet.handleJsonRpc(body))) as { result?: unknown; error?: { code: number; message: string } }
          if (response.error) throw Object.assign(new Error(response.error.message), { code: response.error.code })
          return response.result
        }
      }
      const reader = EvmChainReader.make({ chains: [{ chainId: 31337, rpc: ChainConfig.rpcProvider(viaEndpoint) }] })
      const tx = Option.getOrThrow(yield* reader.getTransaction({ family: "eth", chainId: 31337 }, final.txHash))
      assert.strictEqual(tx.blockNumber, final.blockNumber)
      assert.strictEqual(tx.from, final.sender)
    }))
})
