import * as Anchorer from "@sigil/service/Batches/Anchorer"
import * as AnchorJournal from "@sigil/service/Batches/AnchorJournal"
import type { ChainName } from "@sigil/core/Chains"
import * as CoreHex from "@sigil/core/Hex"
import type { Hash32 } from "@sigil/core/Hex"
import * as Ids from "@sigil/core/Ids"
import type { TenantId } from "@sigil/core/Ids"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import { Duration, Effect, Layer, Schedule } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type Address, type Hex, hexToNumber, numberToHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import * as ChainConfig from "../src/ChainConfig.js"
import * as Devnet from "../src/Devnet.js"
import * as Addresses from "../src/internal/address.js"

/** A fresh directory, removed when the scope closes. */
export const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sigil-anchor-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

export const randomRoot = (): Hash32 => CoreHex.hash32(CoreHex.fromBytes(crypto.getRandomValues(new Uint8Array(32))))

export interface Tenant {
  readonly tenantId: TenantId
  readonly address: Address
  readonly key: KeyVault.TenantKey
}

/** A memory vault; tenants get a secp256k1 key created an hour ago unless told otherwise. */
export const makeVault = () => {
  const memory = KeyVault.makeMemory()
  const addTenant = (createdAt = new Date(Date.now() - 3_600_000)): Tenant => {
    const tenantId = Ids.unsafeMake("tnt")
    const key = memory.seed(tenantId, "secp256k1", KeyVault.generateKeyPair("secp256k1").secretKey, createdAt)
    return { tenantId, address: Addresses.fromPublicKey(key.publicKey), key }
  }
  return { ...memory, addTenant, layer: Layer.succeed(KeyVault.KeyVault, memory.service) }
}

export const makeJournal = () => {
  const memory = AnchorJournal.makeMemory()
  return { ...memory, layer: Layer.succeed(AnchorJournal.AnchorJournal, memory.service) }
}

export const request = (tenant: Tenant, merkleRoot = randomRoot(), chain: ChainName = "devnet"): Anchorer.AnchorRequest => ({
  batchId: Ids.unsafeMake("bat"),
  tenantId: tenant.tenantId,
  chain,
  merkleRoot
})

/** Fast retries for tests: failures surface within a few hundred milliseconds. */
export const quickRetry = { times: 3, base: Duration.millis(5), cap: Duration.millis(40) } as const

const isChainUnavailable = (e: { readonly _tag: string }) => e._tag === "ChainUnavailable"

const retryWhileUnavailable = { while: isChainUnavailable, schedule: Schedule.spaced(Duration.millis(10)) }

/** Confirms until final, retrying while the chain is unavailable; `onPending` runs after each pending answer. */
export const confirmUntilFinal = <R = never>(
  anchorer: Anchorer.Service,
  req: Anchorer.AnchorRequest,
  onPending: Effect.Effect<void, unknown, R> = Effect.void
) =>
  Effect.gen(function*() {
    for (let round = 0; round < 2_000; round++) {
      const status = yield* Effect.retry(anchorer.confirm(req), retryWhileUnavailable)
      if (status._tag === "Final") return status
      yield* Effect.orDie(onPending)
      yield* Effect.sleep(Duration.millis(5))
    }
    return yield* Effect.dieMessage(`${req.batchId} never became final`)
  })

/** What the server's worker does: submit, then confirm until final, both retried while the chain is unavailable. */
export const anchorUntilFinal = <R = never>(
  anchorer: Anchorer.Service,
  req: Anchorer.AnchorRequest,
  onPending: Effect.Effect<void, unknown, R> = Effect.void
) =>
  Effect.zipRight(
    Effect.retry(anchorer.submit(req), retryWhileUnavailable),
    confirmUntilFinal(anchorer, req, onPending)
  )

export const rpc = (provider: ChainConfig.Eip1193Provider) =>
<A = unknown>(method: string, ...params: ReadonlyArray<unknown>) =>
  Effect.promise(() => provider.request({ method, params }) as Promise<A>)

export interface ChainTx {
  readonly hash: string
  readonly from: Address
  readonly to: Address | null
  readonly input: string
  readonly nonce: number
  readonly blockNumber: number
}

/** Every transaction on the chain, oldest first. */
export const scanChain = (provider: ChainConfig.Eip1193Provider) =>
  Effect.gen(function*() {
    const call = rpc(provider)
    const head = hexToNumber(yield* call<Hex>("eth_blockNumber"))
    const txs: Array<ChainTx> = []
    for (let n = 1; n <= head; n++) {
      const block = yield* call<{ transactions: ReadonlyArray<Omit<ChainTx, "nonce" | "blockNumber"> & { nonce: Hex }> }>(
        "eth_getBlockByNumber",
        numberToHex(n),
        true
      )
      for (const tx of block.transactions) txs.push({ ...tx, nonce: hexToNumber(tx.nonce), blockNumber: n })
    }
    return txs
  })

/** The anchor transactions on chain (to the burn address), grouped by input. */
export const anchorsByRoot = (txs: ReadonlyArray<ChainTx>) => {
  const byRoot = new Map<string, Array<ChainTx>>()
  for (const tx of txs) {
    if (tx.to === null || !Addresses.same(tx.to, ChainConfig.BURN_ADDRESS)) continue
    byRoot.set(tx.input, [...(byRoot.get(tx.input) ?? []), tx])
  }
  return byRoot
}

/** Sends ETH from the devnet treasury and waits for it to be mined (automine must be on). */
export const fund = (provider: ChainConfig.Eip1193Provider, to: Address, value = 10n ** 18n) =>
  Effect.gen(function*() {
    const call = rpc(provider)
    const treasury = privateKeyToAccount(Devnet.TREASURY_PRIVATE_KEY)
    const nonce = hexToNumber(yield* call<Hex>("eth_getTransactionCount", treasury.address, "pending"))
    const raw = yield* Effect.promise(() =>
      treasury.signTransaction({
        type: "eip1559",
        chainId: 31337,
        nonce,
        to,
        value,
        gas: 21_000n,
        maxFeePerGas: 10n ** 11n,
        maxPriorityFeePerGas: 10n ** 9n
      })
    )
    yield* call("eth_sendRawTransaction", raw)
  })

/**
 * A provider that fails some calls with the errors a flaky hosted RPC gives: rate limits and
 * lost responses. `failing(call)` decides; for `eth_sendRawTransaction` a failure may also be
 * injected *after* the node accepted the transaction (`loseResponse`), like a timeout.
 */
export const flaky = (
  inner: ChainConfig.Eip1193Provider,
  options: {
    readonly failing: (n: number, method: string) => boolean
    readonly loseResponse?: (n: number, method: string) => boolean
  }
) => {
  let calls = 0
  let failures = 0
  const provider: ChainConfig.Eip1193Provider = {
    request: async (args) => {
      const n = calls++
      if (options.failing(n, args.method)) {
        failures++
        throw Object.assign(new Error("Too many requests, please slow down"), { code: -32005 })
      }
      const result = await inner.request(args)
      if (options.loseResponse?.(n, args.method) === true) {
        failures++
        throw new Error("socket hang up")
      }
      return result
    }
  }
  return { provider, stats: () => ({ calls, failures }) }
}
