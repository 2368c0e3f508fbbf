import { assert, describe, it } from "@effect/vitest"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import { Deferred, Duration, Effect, Fiber } from "effect"
import { HttpRequestError, InternalRpcError, InvalidInputRpcError, InvalidParamsRpcError, LimitExceededRpcError, TimeoutError, UnknownRpcError } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import * as ChainConfig from "../src/ChainConfig.js"
import * as Devnet from "../src/Devnet.js"
import * as Addresses from "../src/internal/address.js"
import * as KeyedLock from "../src/internal/keyedLock.js"
import * as RpcErrors from "../src/internal/rpcErrors.js"
import * as Transactions from "../src/internal/transactions.js"

const node = (message: string, code = -32000) => Object.assign(new Error(message), { code })

describe("rpcErrors.classify", () => {
  const cases: ReadonlyArray<readonly [unknown, RpcErrors.Kind]> = [
    [new InvalidInputRpcError(node("Known transaction: 0xabc")), "known"],
    [new InvalidInputRpcError(node("already known")), "known"],
    [new InvalidInputRpcError(node("Nonce too low. Expected nonce to be 1 but got 0.")), "nonceTooLow"],
    [new InvalidInputRpcError(node("Nonce too high. Expected nonce to be 0 but got 1.")), "nonceTooHigh"],
    [new InvalidInputRpcError(node("replacement transaction underpriced")), "underpriced"],
    [new InvalidInputRpcError(node("Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least 3300000000 is necessary")), "underpriced"],
    [new InvalidInputRpcError(node("max fee per gas less than block base fee: address 0x…")), "feeTooLow"],
    [new InvalidInputRpcError(node("Transaction maxFeePerGas (100) is too low for the next block")), "feeTooLow"],
    [new InvalidInputRpcError(node("transaction underpriced")), "feeTooLow"],
    [new InvalidInputRpcError(node("insufficient funds for gas * price + value")), "insufficientFunds"],
    [new InvalidInputRpcError(node("Sender doesn't have enough funds to send tx.")), "insufficientFunds"],
    [new InvalidParamsRpcError(node("Trying to send a raw transaction with an invalid chainId. The expected chainId is 31337", -32602)), "rejected"],
    [new InvalidInputRpcError(node("invalid sender")), "rejected"],
    [new InvalidInputRpcError(node("intrinsic gas too low")), "rejected"],
    [new InvalidParamsRpcError(node("something odd", -32602)), "rejected"],
    [new LimitExceededRpcError(node("rate limited", -32005)), "transient"],
    [new InternalRpcError(node("internal error", -32603)), "transient"],
    [new InvalidInputRpcError(node("header not found")), "transient"],
    [new HttpRequestError({ url: "https://rpc.example", status: 503, details: "Service Unavailable" }), "transient"],
    [new HttpRequestError({ url: "https://rpc.example", status: 429, details: "Too Many Requests" }), "transient"],
    [new HttpRequestError({ url: "https://rpc.example", cause: new Error("fetch failed") }), "transient"],
    [new TimeoutError({ body: {}, url: "https://rpc.example" }), "transient"],
    [new UnknownRpcError(new Error("socket hang up")), "transient"],
    [new Error("ECONNRESET"), "transient"]
  ]
  for (const [error, kind] of cases) {
    it(`${RpcErrors.describe(error)} → ${kind}`, () => {
      assert.strictEqual(RpcErrors.classify(error).kind, kind)
    })
  }

  it("keeps the node's own words as the message", () => {
    const error = new InvalidParamsRpcError(node("Trying to send a raw transaction with an invalid chainId. The expected chainId is 31337", -32602))
    assert.strictEqual(RpcErrors.classify(error).message, "Trying to send a raw transaction with an invalid chainId. The expected chainId is 31337")
  })
})

describe("address.fromPublicKey", () => {
  it("derives the devnet treasury's address from its compressed key", () => {
    const secretKey = Uint8Array.from(Buffer.from(Devnet.TREASURY_PRIVATE_KEY.slice(2), "hex"))
    const memory = KeyVault.makeMemory()
    const key = memory.seed("tnt_01JAAAAAAAAAAAAAAAAAAAAAAA" as never, "secp256k1", secretKey, new Date())
    assert.strictEqual(Addresses.fromPublicKey(key.publicKey), Devnet.TREASURY_ADDRESS)
  })

  it("agrees with viem for random keys, both parities", () => {
    for (let i = 0; i < 20; i++) {
      const { secretKey, publicKey } = KeyVault.generateKeyPair("secp256k1")
      const expected = privateKeyToAccount(`0x${Buffer.from(secretKey).toString("hex")}`).address
      assert.strictEqual(Addresses.fromPublicKey(publicKey), expected)
    }
  })
})

describe("fees", () => {
  it("bumps both fees by at least the percentage and never below the market", () => {
    const old = { maxFeePerGas: 1_000n, maxPriorityFeePerGas: 100n }
    assert.deepStrictEqual(Transactions.bump(old, { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }, 12.5, undefined), {
      maxFeePerGas: 1_125n,
      maxPriorityFeePerGas: 113n
    })
    assert.deepStrictEqual(Transactions.bump(old, { maxFeePerGas: 5_000n, maxPriorityFeePerGas: 200n }, 25, undefined), {
      maxFeePerGas: 5_000n,
      maxPriorityFeePerGas: 200n
    })
    assert.strictEqual(Transactions.bump(old, old, 25, 1_100n).maxFeePerGas, 1_100n)
  })

  it("refuses replacement bumps the nodes would reject, and resolves defaults per chain", () => {
    const base = { rpc: ChainConfig.rpcProvider({ request: async () => null }), treasuryKey: {} as never }
    assert.throws(() => ChainConfig.resolve({ ...base, chain: "base-mainnet", feeBumpPercent: 10 }))
    const mainnet = ChainConfig.resolve({ ...base, chain: "base-mainnet" })
    assert.strictEqual(mainnet.chainId, 8453)
    assert.strictEqual(mainnet.confirmations, 3)
    const sepolia = ChainConfig.resolve({ ...base, chain: "base-sepolia", confirmations: 5, stuckAfter: "10 seconds" })
    assert.strictEqual(sepolia.chainId, 84532)
    assert.strictEqual(sepolia.confirmations, 5)
    assert.isTrue(Duration.equals(sepolia.stuckAfter, Duration.seconds(10)))
    assert.strictEqual(ChainConfig.resolve({ ...base, chain: "devnet" }).confirmations, 1)
    assert.strictEqual(ChainConfig.viemChain("base-sepolia").blockExplorers?.default.url, "https://sepolia.basescan.org")
    assert.strictEqual(ChainConfig.viemChain("base-mainnet").blockExplorers?.default.url, "https://basescan.org")
  })
})

describe("keyedLock", () => {
  it.effect("runs one effect per key at a time, and keeps a key's lock only while it is held or awaited", () =>
    Effect.gen(function*() {
      const lock = KeyedLock.make()
      const release = yield* Deferred.make<void>()
      const order: Array<string> = []
      const first = yield* Effect.fork(lock("sender-a", Effect.zipRight(Effect.sync(() => order.push("first in")), Deferred.await(release))))
      yield* Effect.yieldNow()
      const second = yield* Effect.fork(lock("sender-a", Effect.sync(() => order.push("second"))))
      const other = yield* lock("sender-b", Effect.sync(() => order.push("other key")))
      assert.strictEqual(other, 2)
      assert.deepStrictEqual(order, ["first in", "other key"], "the second waits for the first; another key does not")
      assert.strictEqual(lock.size(), 1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
      yield* Fiber.join(second)
      assert.deepStrictEqual(order, ["first in", "other key", "second"])
      assert.strictEqual(lock.size(), 0)
      const waiting = yield* Effect.fork(lock("sender-c", Effect.never))
      yield* Effect.yieldNow()
      assert.strictEqual(lock.size(), 1)
      yield* Fiber.interrupt(waiting)
      assert.strictEqual(lock.size(), 0, "an interrupted holder gives its lock back")
    }))
})
