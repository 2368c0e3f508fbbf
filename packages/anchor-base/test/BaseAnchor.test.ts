import { assert, describe, it } from "@effect/vitest"
import * as Anchorer from "@sigil/service/Batches/Anchorer"
import { Duration, Effect, Either, Layer, Redacted } from "effect"
import { type Hex, hexToBigInt, hexToNumber } from "viem"
import * as BaseAnchor from "../src/BaseAnchor.js"
import * as ChainConfig from "../src/ChainConfig.js"
import * as Devnet from "../src/Devnet.js"
import * as Addresses from "../src/internal/address.js"
import {
  anchorsByRoot,
  anchorUntilFinal,
  confirmUntilFinal,
  flaky,
  fund,
  makeJournal,
  makeVault,
  quickRetry,
  randomRoot,
  request,
  rpc,
  scanChain,
  tempDir
} from "./helpers.js"

type Vault = ReturnType<typeof makeVault>
type Journal = ReturnType<typeof makeJournal>

/** A fresh Anchorer (a fresh "layer") over the given provider, vault and journal. */
const anchorer = (
  provider: ChainConfig.Eip1193Provider,
  vault: Vault,
  journal: Journal,
  overrides: Devnet.ChainOverrides = {}
) =>
  BaseAnchor.make({
    chains: [{
      chain: "devnet",
      rpc: ChainConfig.rpcProvider(provider),
      treasuryKey: Redacted.make(Devnet.TREASURY_PRIVATE_KEY),
      retry: quickRetry,
      ...overrides
    }]
  }).pipe(Effect.provide(Layer.merge(vault.layer, journal.layer)))

const setup = Effect.gen(function*() {
  const dataDir = yield* tempDir
  const devnet = yield* Devnet.make({ dataDir })
  return { dataDir, devnet, vault: makeVault(), journal: makeJournal(), call: rpc(devnet.provider) }
})

const attemptsOf = (journal: Journal, req: Anchorer.AnchorRequest) => journal.rows.filter((a) => a.batchId === req.batchId)

describe("BaseAnchor on the devnet", () => {
  it.scopedLive("anchors 50 roots from 5 tenants: input is the root, sender the tenant, one transaction each", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const service = yield* anchorer(devnet.provider, vault, journal)
      const tenants = Array.from({ length: 5 }, () => vault.addTenant())
      const requests = Array.from({ length: 50 }, (_, i) => request(tenants[i % 5]!))

      const finals = yield* Effect.forEach(requests, (req) => anchorUntilFinal(service, req), { concurrency: 16 })

      const onChain = anchorsByRoot(yield* scanChain(devnet.provider))
      for (const [i, req] of requests.entries()) {
        const final = finals[i]!
        const tenant = tenants[i % 5]!
        const txs = onChain.get(req.merkleRoot) ?? []
        assert.strictEqual(txs.length, 1, `root ${i} must be on chain exactly once`)
        const tx = txs[0]!
        assert.strictEqual<string>(tx.input, req.merkleRoot, "input is exactly 0x + root")
        assert.isTrue(Addresses.same(tx.from, tenant.address), "sent from the tenant's address")
        assert.strictEqual<string>(final.txHash, tx.hash)
        assert.strictEqual(final.blockNumber, tx.blockNumber)
        assert.isTrue(Addresses.same(final.sender, tenant.address))
        assert.isAbove(final.blockTimestamp.getTime(), tenant.key.createdAt.getTime())
        assert.strictEqual(attemptsOf(journal, req).length, 1)
      }
      assert.strictEqual(onChain.size, 50)
      // Each tenant started empty and was topped up by the treasury (once: 0.1 ETH pays many anchors).
      const topUps = journal.rows.filter((a) => a.batchId === undefined && Addresses.same(a.sender, devnet.treasuryAddress))
      assert.strictEqual(topUps.length, 5)
    }))

  it.scopedLive("never sends in the second the tenant's key was created", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const service = yield* anchorer(devnet.provider, vault, journal)
      const tenant = vault.addTenant(new Date())
      const final = yield* anchorUntilFinal(service, request(tenant))
      assert.isAbove(
        Math.floor(final.blockTimestamp.getTime() / 1000),
        Math.floor(tenant.key.createdAt.getTime() / 1000),
        "block time strictly after the key's created second"
      )
    }))

  it.scopedLive("is idempotent: submitting or confirming a final batch sends nothing new", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const service = yield* anchorer(devnet.provider, vault, journal)
      const req = request(vault.addTenant())
      // Two workers racing on one batch still make one transaction.
      const [a, b] = yield* Effect.all([service.submit(req), service.submit(req)], { concurrency: 2 })
      assert.strictEqual(a.txHash, b.txHash)
      const final = yield* confirmUntilFinal(service, req)
      assert.strictEqual(attemptsOf(journal, req).length, 1)
      const again = yield* service.submit(req)
      const status = yield* service.confirm(req)
      assert.strictEqual(again.txHash, final.txHash)
      assert.deepStrictEqual(status, final)
      assert.strictEqual(anchorsByRoot(yield* scanChain(devnet.provider)).get(req.merkleRoot)?.length, 1)
    }))

  it.scopedLive("a restart after broadcast and before the receipt yields exactly one transaction per root", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal, call } = yield* setup
      const tenants = [vault.addTenant(), vault.addTenant()]
      for (const t of tenants) yield* fund(devnet.provider, t.address)
      yield* call("evm_setAutomine", false)

      // First life: broadcast, nothing mined yet.
      const first = yield* anchorer(devnet.provider, vault, journal)
      const requests = Array.from({ length: 6 }, (_, i) => request(tenants[i % 2]!))
      const submitted = yield* Effect.forEach(requests, (req) => first.submit(req))

      // Crash between record and broadcast: the journal has it, the node never saw it.
      const lost = request(tenants[0]!)
      const deaf = flaky(devnet.provider, { failing: (_, method) => method === "eth_sendRawTransaction" })
      const crashing = yield* anchorer(deaf.provider, vault, journal)
      const lostResult = yield* Effect.either(crashing.submit(lost))
      assert.isTrue(Either.isLeft(lostResult) && lostResult.left._tag === "ChainUnavailable")
      assert.strictEqual(attemptsOf(journal, lost).length, 1)

      // Second life: a new layer over the same journal and chain.
      const second = yield* anchorer(devnet.provider, vault, journal)
      const resubmitted = yield* Effect.forEach([...requests, lost], (req) => second.submit(req))
      for (const [i, s] of submitted.entries()) assert.strictEqual(resubmitted[i]!.txHash, s.txHash)
      assert.strictEqual(resubmitted.at(-1)!.txHash, attemptsOf(journal, lost)[0]!.txHash)

      yield* call("evm_mine")
      for (const req of [...requests, lost]) {
        const final = yield* anchorUntilFinal(second, req, call("evm_mine"))
        assert.strictEqual(final.txHash, attemptsOf(journal, req)[0]!.txHash)
      }
      const onChain = anchorsByRoot(yield* scanChain(devnet.provider))
      for (const req of [...requests, lost]) {
        assert.strictEqual(onChain.get(req.merkleRoot)?.length, 1)
        assert.strictEqual(attemptsOf(journal, req).length, 1)
      }
    }))

  it.scopedLive("a devnet restart that loses the mempool re-broadcasts the recorded transaction", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const vault = makeVault()
      const journal = makeJournal()
      const tenant = vault.addTenant()
      const req = request(tenant)
      const submitted = yield* Effect.scoped(Effect.gen(function*() {
        const devnet = yield* Devnet.make({ dataDir })
        yield* fund(devnet.provider, tenant.address)
        yield* rpc(devnet.provider)("evm_setAutomine", false)
        return yield* (yield* anchorer(devnet.provider, vault, journal)).submit(req)
      }))
      const devnet = yield* Devnet.make({ dataDir })
      assert.isNull(yield* rpc(devnet.provider)("eth_getTransactionByHash", submitted.txHash))
      const final = yield* confirmUntilFinal(yield* anchorer(devnet.provider, vault, journal), req)
      assert.strictEqual(final.txHash, submitted.txHash)
      assert.strictEqual(attemptsOf(journal, req).length, 1)
      assert.strictEqual(anchorsByRoot(yield* scanChain(devnet.provider)).get(req.merkleRoot)?.length, 1)
    }))

  it.scopedLive("replaces a transaction stuck below the market at the same nonce with higher fees", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal, call } = yield* setup
      const tenant = vault.addTenant()
      yield* fund(devnet.provider, tenant.address)
      yield* call("evm_setAutomine", false)
      const service = yield* anchorer(devnet.provider, vault, journal, { stuckAfter: Duration.zero })
      const req = request(tenant)
      const submitted = yield* service.submit(req)
      const original = attemptsOf(journal, req)[0]!

      // The market moves above the transaction's maxFeePerGas: it cannot be mined.
      yield* call("hardhat_setNextBlockBaseFeePerGas", `0x${(original.maxFeePerGas * 4n).toString(16)}`)
      yield* call("evm_mine")
      assert.isNull(yield* call("eth_getTransactionReceipt", submitted.txHash))

      const status = yield* service.confirm(req)
      const attempts = attemptsOf(journal, req)
      assert.strictEqual(attempts.length, 2)
      const replacement = attempts[1]!
      assert.strictEqual(status.txHash, replacement.txHash)
      assert.notStrictEqual(replacement.txHash, original.txHash)
      assert.strictEqual(replacement.nonce, original.nonce)
      assert.isTrue(replacement.maxFeePerGas * 8n >= original.maxFeePerGas * 9n, "maxFee bumped by at least 12.5%")
      assert.isTrue(replacement.maxPriorityFeePerGas * 8n >= original.maxPriorityFeePerGas * 9n, "tip bumped by at least 12.5%")
      const latest = yield* call<{ baseFeePerGas: Hex }>("eth_getBlockByNumber", "latest", false)
      assert.isTrue(replacement.maxFeePerGas >= hexToBigInt(latest.baseFeePerGas), "pays the current base fee")

      const final = yield* anchorUntilFinal(service, req, call("evm_mine"))
      assert.strictEqual(final.txHash, replacement.txHash)
      const onChain = anchorsByRoot(yield* scanChain(devnet.provider)).get(req.merkleRoot) ?? []
      assert.deepStrictEqual(onChain.map((tx) => tx.hash), [replacement.txHash])
    }))

  it.scopedLive("an RPC that fails for a while delays anchors but never loses or doubles one", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      // Every third call is rate limited for the first 600 calls, and the first three broadcasts
      // reach the node but their answers are lost.
      let broadcasts = 0
      const proxy = flaky(devnet.provider, {
        failing: (n) => n < 600 && n % 3 === 1,
        loseResponse: (_, method) => method === "eth_sendRawTransaction" && broadcasts++ < 3
      })
      const service = yield* anchorer(proxy.provider, vault, journal, { retry: { times: 1, base: Duration.millis(1) } })
      const tenants = [vault.addTenant(), vault.addTenant()]
      const requests = Array.from({ length: 10 }, (_, i) => request(tenants[i % 2]!))
      yield* Effect.forEach(requests, (req) => anchorUntilFinal(service, req), { concurrency: 4 })

      assert.isAbove(proxy.stats().failures, 10)
      const onChain = anchorsByRoot(yield* scanChain(devnet.provider))
      for (const req of requests) {
        assert.strictEqual(onChain.get(req.merkleRoot)?.length, 1)
        assert.strictEqual(attemptsOf(journal, req).length, 1)
      }
    }))

  it.scopedLive("a reorg that drops the mined transaction re-broadcasts the same bytes", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal, call } = yield* setup
      const tenant = vault.addTenant()
      yield* fund(devnet.provider, tenant.address)
      const service = yield* anchorer(devnet.provider, vault, journal, { confirmations: 2 })
      const req = request(tenant)
      const snapshot = yield* call("evm_snapshot")
      const submitted = yield* service.submit(req)
      const first = yield* service.confirm(req)
      assert.deepStrictEqual(first, { _tag: "Pending", chainId: 31337, txHash: submitted.txHash, confirmations: 1 })

      yield* call("evm_revert", snapshot)
      assert.isNull(yield* call("eth_getTransactionByHash", submitted.txHash))

      // confirm (not submit) notices the node no longer knows it and sends the recorded bytes again.
      const afterReorg = yield* service.confirm(req)
      assert.strictEqual(afterReorg.txHash, submitted.txHash)
      assert.isNotNull(yield* call("eth_getTransactionByHash", submitted.txHash))
      const final = yield* confirmUntilFinal(service, req, call("evm_mine"))
      assert.strictEqual(final.txHash, submitted.txHash)
      assert.strictEqual(attemptsOf(journal, req).length, 1)
      assert.strictEqual(anchorsByRoot(yield* scanChain(devnet.provider)).get(req.merkleRoot)?.length, 1)
    }))

  it.scopedLive("a nonce burnt by a rejected transaction is filled so later anchors are not blocked", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const tenant = vault.addTenant()
      yield* fund(devnet.provider, tenant.address)
      // A broadcast the node rejects for good: recorded at nonce 0, never on chain.
      const rejecting = {
        request: (args: { readonly method: string; readonly params?: ReadonlyArray<unknown> | object }) =>
          args.method === "eth_sendRawTransaction"
            ? Promise.reject(Object.assign(new Error("invalid sender"), { code: -32000 }))
            : devnet.provider.request(args)
      }
      const abandoned = request(tenant)
      const rejected = yield* Effect.either((yield* anchorer(rejecting, vault, journal)).submit(abandoned))
      assert.isTrue(Either.isLeft(rejected) && rejected.left._tag === "AnchorRejected")
      assert.include(Either.isLeft(rejected) ? rejected.left.message : "", "invalid sender")

      const service = yield* anchorer(devnet.provider, vault, journal, { stuckAfter: Duration.zero })
      const req = request(tenant)
      const final = yield* anchorUntilFinal(service, req)
      const txs = yield* scanChain(devnet.provider)
      const onChain = anchorsByRoot(txs)
      assert.strictEqual<string | undefined>(onChain.get(req.merkleRoot)?.[0]?.hash, final.txHash)
      assert.isUndefined(onChain.get(abandoned.merkleRoot))
      const filler = txs.find((tx) => Addresses.same(tx.from, tenant.address) && tx.nonce === 0)
      assert.isTrue(filler !== undefined && Addresses.same(filler.to ?? "", tenant.address) && filler.input === "0x")
    }))

  it.scopedLive("rejects an RPC that serves another chain, waits on an unconfigured one", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const tenant = vault.addTenant()
      const wrongChain = yield* BaseAnchor.make({
        chains: [{
          chain: "base-sepolia",
          rpc: ChainConfig.rpcProvider(devnet.provider),
          treasuryKey: devnet.treasuryKey,
          retry: quickRetry
        }]
      }).pipe(Effect.provide(Layer.merge(vault.layer, journal.layer)))
      const mismatch = yield* Effect.flip(wrongChain.submit(request(tenant, randomRoot(), "base-sepolia")))
      assert.strictEqual(mismatch._tag, "AnchorRejected")
      assert.include(mismatch.message, "chain id 31337, expected 84532")

      const service = yield* anchorer(devnet.provider, vault, journal)
      const unconfigured = yield* Effect.flip(service.submit(request(tenant, randomRoot(), "base-mainnet")))
      assert.strictEqual(unconfigured._tag, "ChainUnavailable")
    }))

  it.scopedLive("rejects an anchor its sender cannot pay for even after a top-up", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const tenant = vault.addTenant()
      const broke = {
        request: (args: { readonly method: string; readonly params?: ReadonlyArray<unknown> | object }) =>
          args.method === "eth_sendRawTransaction"
            ? Promise.reject(Object.assign(new Error("insufficient funds for gas * price + value: balance 0"), { code: -32000 }))
            : devnet.provider.request(args)
      }
      yield* fund(devnet.provider, tenant.address)
      const error = yield* Effect.flip((yield* anchorer(broke, vault, journal)).submit(request(tenant)))
      assert.strictEqual(error._tag, "AnchorRejected")
      assert.include(error.message, "cannot pay for the anchor even after a top-up")
    }))

  it.scopedLive("rejects a tenant without a secp256k1 key", () =>
    Effect.gen(function*() {
      const { devnet, vault, journal } = yield* setup
      const service = yield* anchorer(devnet.provider, vault, journal)
      const tenant = vault.addTenant()
      yield* vault.service.revoke(tenant.key.keyId, new Date())
      const error = yield* Effect.flip(service.submit(request(tenant)))
      assert.strictEqual(error._tag, "AnchorRejected")
      assert.include(error.message, "no active secp256k1 key")
    }))

  it.scopedLive("an unreachable chain is ChainUnavailable, nothing is recorded, the URL stays secret", () =>
    Effect.gen(function*() {
      const vault = makeVault()
      const journal = makeJournal()
      const service = yield* BaseAnchor.make({
        chains: [{
          chain: "base-sepolia",
          rpc: ChainConfig.rpcUrl(Redacted.make("http://127.0.0.1:9/v2/secret-api-key"), { timeout: "1 second" }),
          treasuryKey: Redacted.make(Devnet.TREASURY_PRIVATE_KEY),
          retry: quickRetry
        }]
      }).pipe(Effect.provide(Layer.merge(vault.layer, journal.layer)))
      const error = yield* Effect.flip(service.submit(request(vault.addTenant(), randomRoot(), "base-sepolia")))
      assert.strictEqual(error._tag, "ChainUnavailable")
      assert.notInclude(error.message, "secret-api-key", "RPC URLs carry API keys: never in messages")
      assert.strictEqual(journal.rows.length, 0)
    }))
})

describe("BaseAnchor layers", () => {
  it.scopedLive("layerDevnet provides an Anchorer on the Devnet service", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const vault = makeVault()
      const journal = makeJournal()
      const context = yield* Layer.build(
        BaseAnchor.layerDevnet().pipe(
          Layer.provideMerge(Layer.mergeAll(vault.layer, journal.layer, Devnet.layer({ dataDir })))
        )
      )
      const service = yield* Effect.provide(Anchorer.Anchorer, context)
      const final = yield* anchorUntilFinal(service, request(vault.addTenant()))
      const devnet = yield* Effect.provide(Devnet.Devnet, context)
      const tx = yield* rpc(devnet.provider)<{ blockNumber: Hex }>("eth_getTransactionByHash", final.txHash)
      assert.strictEqual(hexToNumber(tx.blockNumber), final.blockNumber)
    }))
})
