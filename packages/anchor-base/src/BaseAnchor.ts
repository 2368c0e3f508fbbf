/**
 * The `Anchorer` on EVM chains: Base mainnet, Base Sepolia and the embedded devnet.
 *
 * One transaction per batch: `data` = the 32-byte Merkle root and nothing else, value 0, to
 * `ChainConfig.BURN_ADDRESS`, sent from the tenant's secp256k1 address (decisions §3), signed
 * through the `KeyVault`. "Never twice, never lost" rests on three rules:
 *
 * 1. Every signed transaction is written to the `AnchorJournal` before it is broadcast, and a
 *    batch that has attempts is only ever continued (the latest attempt re-broadcast, byte for
 *    byte), never started again.
 * 2. All attempts of a batch share one nonce, except when that nonce was provably taken by a
 *    transaction that is none of them (then none of them can ever be mined, and the anchor is
 *    signed again at a fresh nonce).
 * 3. `confirm` looks for a receipt of any attempt, re-broadcasts when the node has forgotten
 *    the transaction (dropped, reorged, node restarted), replaces it with higher fees at the
 *    same nonce when it is stuck below the market, and fills a nonce gap that holds it back.
 *
 * @since 0.1.0
 */
import * as Anchorer from "@sigil/service/Batches/Anchorer"
import { AnchorRejected } from "@sigil/service/Batches/Anchorer"
import * as AnchorJournal from "@sigil/service/Batches/AnchorJournal"
import { ChainUnavailable } from "@sigil/core/ChainReader"
import * as BoundedMap from "@sigil/core/BoundedMap"
import type { ChainName } from "@sigil/core/Chains"
import type { TenantId } from "@sigil/core/Ids"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import { Clock, Config, type ConfigError, Duration, Effect, Layer } from "effect"
import { type Address, type Hex, hexToNumber } from "viem"
import * as ChainConfig from "./ChainConfig.js"
import * as Devnet from "./Devnet.js"
import * as Addresses from "./internal/address.js"
import * as ChainContext from "./internal/chainContext.js"
import { journalCall } from "./internal/chainContext.js"
import * as Funding from "./internal/funding.js"
import * as KeyedLock from "./internal/keyedLock.js"
import type { RpcReceipt, SendOutcome } from "./internal/rpc.js"
import * as Transactions from "./internal/transactions.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The chains this process anchors on; a request for any other chain waits (`ChainUnavailable`). */
  readonly chains: ReadonlyArray<ChainConfig.ChainOptions>
}

/** Nonce gaps wider than this are filled over several `confirm` calls. */
const MAX_FILLERS_PER_CALL = 16
/** Replacement rounds when the node keeps answering "underpriced". */
const MAX_REPLACEMENT_ROUNDS = 5

interface SenderKey {
  readonly keyId: string
  readonly address: Address
  readonly createdAt: Date
}

type Attempt = AnchorJournal.Attempt
type Pending = Extract<Anchorer.Status, { _tag: "Pending" }>

const pending = (attempt: Attempt, confirmations = 0): Pending => ({
  _tag: "Pending",
  chainId: attempt.chainId,
  txHash: attempt.txHash,
  confirmations
})

const submission = (attempt: Attempt): Anchorer.Submission => ({
  chainId: attempt.chainId,
  txHash: attempt.txHash,
  sender: attempt.sender,
  nonce: attempt.nonce
})

/**
 * Options that would make anchoring unsafe (a fee bump below 12.5%, zero confirmations, an
 * invalid treasury key, a chain listed twice) are defects when the layer is built.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<Anchorer.Service, never, KeyVault.KeyVault | AnchorJournal.AnchorJournal> =>
  Effect.gen(function*() {
    const vault = yield* KeyVault.KeyVault
    const journal = yield* AnchorJournal.AnchorJournal
    const lock = KeyedLock.make()
    const chains = new Map<ChainName, ChainContext.ChainContext>()
    for (const chainOptions of options.chains) {
      if (chains.has(chainOptions.chain)) return yield* Effect.dieMessage(`chain ${chainOptions.chain} is configured twice`)
      chains.set(chainOptions.chain, yield* Effect.orDie(Effect.try(() => ChainContext.make(chainOptions))))
    }

    const context = (chain: ChainName) =>
      Effect.gen(function*() {
        const ctx = chains.get(chain)
        if (ctx === undefined) {
          return yield* new ChainUnavailable({ chain, message: `anchoring on ${chain} is not configured` })
        }
        if (!ctx.chainIdChecked) {
          const served = yield* ctx.rpc.chainId
          if (served !== ctx.config.chainId) {
            return yield* new AnchorRejected({
              chain,
              message: `the RPC configured for ${chain} serves chain id ${served}, expected ${ctx.config.chainId}`
            })
          }
          ctx.chainIdChecked = true
        }
        return ctx
      })

    const senderLock = (ctx: ChainContext.ChainContext, address: string) => `${ctx.config.chainId}:${address.toLowerCase()}`

    // A key id always names the same public key, so its address is derived once. One per
    // tenant key, kept for the 10,000 most recently derived (≈150 bytes each): past that the
    // oldest is derived again (≈60 µs).
    const addresses = BoundedMap.make<string, Address>(10_000)
    const addressOf = (chain: string, key: KeyVault.TenantKey) =>
      Effect.suspend(() => {
        const known = addresses.get(key.keyId)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.try({
          try: () => {
            const address = Addresses.fromPublicKey(key.publicKey)
            addresses.set(key.keyId, address)
            return address
          },
          catch: () => new AnchorRejected({ chain, message: `key ${key.keyId} is not a valid secp256k1 public key` })
        })
      })

    const activeSender = (chain: string, tenantId: TenantId) =>
      Effect.gen(function*() {
        const key = KeyVault.activeKey(yield* vault.keys(tenantId), "secp256k1")
        if (key === undefined) {
          return yield* new AnchorRejected({ chain, message: `tenant ${tenantId} has no active secp256k1 key to anchor with` })
        }
        return { keyId: key.keyId, address: yield* addressOf(chain, key), createdAt: key.createdAt } satisfies SenderKey
      })

    // Replacements and fillers must come from the address the batch started with, even after a rotation.
    const keyOfSender = (chain: string, tenantId: TenantId, sender: string) =>
      Effect.gen(function*() {
        for (const key of yield* vault.keys(tenantId)) {
          if (key.kind !== "secp256k1") continue
          const address = yield* addressOf(chain, key)
          if (Addresses.same(address, sender)) return { keyId: key.keyId, address, createdAt: key.createdAt } satisfies SenderKey
        }
        return yield* new AnchorRejected({ chain, message: `tenant ${tenantId} no longer has the key of ${sender}` })
      })

    // Blockcerts rejects a transaction whose block time is not strictly after the key's `created`
    // (whole seconds): never send in the second the key was made.
    const waitForKeyAge = (createdAt: Date) =>
      Effect.gen(function*() {
        const ready = Math.floor(createdAt.getTime() / 1000) * 1000 + 1000
        const now = yield* Clock.currentTimeMillis
        if (now < ready) yield* Effect.sleep(Duration.millis(ready - now))
      })

    const nextNonce = (ctx: ChainContext.ChainContext, address: Address) =>
      Effect.gen(function*() {
        const chainNonce = yield* ctx.rpc.nonce(address, "pending")
        const last = yield* journalCall(ctx, journal.lastNonce(ctx.config.chainId, address))
        return Math.max(chainNonce, last === undefined ? 0 : last + 1)
      })

    const anchorTx = (
      ctx: ChainContext.ChainContext,
      request: Anchorer.AnchorRequest,
      nonce: number,
      fees: Transactions.Fees
    ): Transactions.Unsigned => ({
      chainId: ctx.config.chainId,
      nonce,
      to: ChainConfig.BURN_ADDRESS,
      value: 0n,
      data: request.merkleRoot as Hex,
      gas: ctx.config.gasLimit,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas
    })

    const sign = (
      ctx: ChainContext.ChainContext,
      key: SenderKey,
      tx: Transactions.Unsigned,
      batchId: Anchorer.AnchorRequest["batchId"] | undefined
    ) =>
      Effect.flatMap(
        Transactions.signWithVault(vault, ctx.config.chain, key.keyId, key.address, tx),
        (signed) => Transactions.attempt(tx, signed, key.address, batchId)
      )

    /** Broadcasts a recorded attempt; a sender short of gas is topped up once before giving up. */
    const broadcast = (ctx: ChainContext.ChainContext, attempt: Attempt, gas: bigint) => {
      const send = ctx.rpc.sendRaw(attempt.rawTransaction as Hex)
      const reject = (message: string) => Effect.fail(new AnchorRejected({ chain: ctx.config.chain, message }))
      return send.pipe(
        Effect.catchTag("RpcFailure", (e): Effect.Effect<SendOutcome, ChainUnavailable | AnchorRejected> =>
          e.kind === "insufficientFunds"
            ? Funding.ensureFunded(ctx, journal, lock, attempt.sender as Address, gas, attempt.maxFeePerGas).pipe(
              Effect.zipRight(send),
              Effect.catchTag("RpcFailure", (e2) =>
                reject(
                  e2.kind === "insufficientFunds"
                    ? `${attempt.sender} cannot pay for the anchor even after a top-up: ${e2.message}`
                    : `the chain rejected the anchor transaction: ${e2.message}`
                ))
            )
            : reject(`the chain rejected the anchor transaction: ${e.message}`))
      )
    }

    const recordAndBroadcast = (ctx: ChainContext.ChainContext, attempt: Attempt, gas: bigint) =>
      Effect.zipRight(journalCall(ctx, journal.record(attempt)), broadcast(ctx, attempt, gas))

    /** Same nonce, higher fees. Caller holds the sender lock. */
    const replace = (ctx: ChainContext.ChainContext, request: Anchorer.AnchorRequest, key: SenderKey, latest: Attempt) =>
      Effect.gen(function*() {
        const { config, rpc } = ctx
        let fees = Transactions.bump(latest, yield* Transactions.quote(rpc, config.maxFeePerGasCap), config.feeBumpPercent, config.maxFeePerGasCap)
        let current = latest
        for (let round = 0; round < MAX_REPLACEMENT_ROUNDS; round++) {
          if (fees.maxFeePerGas <= current.maxFeePerGas && fees.maxPriorityFeePerGas <= current.maxPriorityFeePerGas) {
            return yield* new ChainUnavailable({
              chain: config.chain,
              message: `${current.txHash} needs higher fees but maxFeePerGas is capped at ${config.maxFeePerGasCap}`
            })
          }
          yield* Funding.ensureFunded(ctx, journal, lock, key.address, config.gasLimit, fees.maxFeePerGas)
          current = yield* sign(ctx, key, anchorTx(ctx, request, latest.nonce, fees), request.batchId)
          const outcome = yield* recordAndBroadcast(ctx, current, config.gasLimit)
          if (outcome !== "underpriced" && outcome !== "feeTooLow") return current
          fees = Transactions.bump(current, yield* Transactions.quote(rpc, config.maxFeePerGasCap), config.feeBumpPercent, config.maxFeePerGasCap)
        }
        return current
      })

    /** A new attempt at a fresh nonce. Caller holds the sender lock. */
    const fresh = (ctx: ChainContext.ChainContext, request: Anchorer.AnchorRequest, key: SenderKey) =>
      Effect.gen(function*() {
        const { config, rpc } = ctx
        const fees = yield* Transactions.quote(rpc, config.maxFeePerGasCap)
        yield* Funding.ensureFunded(ctx, journal, lock, key.address, config.gasLimit, fees.maxFeePerGas)
        const nonce = yield* nextNonce(ctx, key.address)
        const attempt = yield* sign(ctx, key, anchorTx(ctx, request, nonce, fees), request.batchId)
        const outcome = yield* recordAndBroadcast(ctx, attempt, config.gasLimit)
        // The base fee rose between the quote and the broadcast.
        return outcome === "feeTooLow" ? yield* replace(ctx, request, key, attempt) : attempt
      })

    /** Self-transfers that take the nonces in [from, to) so a transaction waiting behind them can be mined. */
    const fillGap = (ctx: ChainContext.ChainContext, key: SenderKey, from: number, to: number) =>
      Effect.gen(function*() {
        const { config, rpc } = ctx
        const fees = yield* Transactions.quote(rpc, config.maxFeePerGasCap)
        for (let nonce = from; nonce < Math.min(to, from + MAX_FILLERS_PER_CALL); nonce++) {
          yield* Funding.ensureFunded(ctx, journal, lock, key.address, ChainConfig.TRANSFER_GAS_LIMIT, fees.maxFeePerGas)
          const tx: Transactions.Unsigned = {
            chainId: config.chainId,
            nonce,
            to: key.address,
            value: 0n,
            data: "0x",
            gas: ChainConfig.TRANSFER_GAS_LIMIT,
            ...fees
          }
          yield* Effect.logInfo(`filling nonce gap of ${key.address} on ${config.chain} at nonce ${nonce}`)
          yield* recordAndBroadcast(ctx, yield* sign(ctx, key, tx, undefined), ChainConfig.TRANSFER_GAS_LIMIT)
        }
      })

    const attemptsOf = (ctx: ChainContext.ChainContext, request: Anchorer.AnchorRequest) =>
      journalCall(ctx, journal.attempts(ctx.config.chainId, request.batchId))

    /** Continues a batch that already has attempts: the latest one goes out again, byte for byte. */
    const resume = (ctx: ChainContext.ChainContext, request: Anchorer.AnchorRequest, latest: Attempt, locked: boolean) =>
      Effect.gen(function*() {
        const outcome = yield* broadcast(ctx, latest, ctx.config.gasLimit)
        if (outcome !== "feeTooLow") return latest
        const replaceLatest = Effect.gen(function*() {
          const current = (yield* attemptsOf(ctx, request)).at(-1) ?? latest
          if (current.txHash !== latest.txHash) return current
          return yield* replace(ctx, request, yield* keyOfSender(ctx.config.chain, request.tenantId, latest.sender), latest)
        })
        return yield* (locked ? replaceLatest : lock(senderLock(ctx, latest.sender), replaceLatest))
      })

    const submit = (request: Anchorer.AnchorRequest): Effect.Effect<Anchorer.Submission, Anchorer.AnchorError> =>
      Effect.gen(function*() {
        const ctx = yield* context(request.chain)
        const existing = yield* attemptsOf(ctx, request)
        if (existing.length > 0) return submission(yield* resume(ctx, request, existing.at(-1)!, false))
        const key = yield* activeSender(ctx.config.chain, request.tenantId)
        yield* waitForKeyAge(key.createdAt)
        const attempt = yield* lock(
          senderLock(ctx, key.address),
          Effect.gen(function*() {
            // Checked again under the lock: a concurrent submit of the same batch may have won.
            const again = yield* attemptsOf(ctx, request)
            if (again.length > 0) return yield* resume(ctx, request, again.at(-1)!, true)
            return yield* fresh(ctx, request, key)
          })
        )
        return submission(attempt)
      }).pipe(Effect.withSpan("BaseAnchor.submit", { attributes: { chain: request.chain, batchId: request.batchId } }))

    const findReceipt = (ctx: ChainContext.ChainContext, attempts: ReadonlyArray<Attempt>) =>
      Effect.gen(function*() {
        const seen = new Set<string>()
        for (const attempt of [...attempts].reverse()) {
          if (seen.has(attempt.txHash)) continue
          seen.add(attempt.txHash)
          const receipt = yield* ctx.rpc.receipt(attempt.txHash as Hex)
          if (receipt !== null) return receipt
        }
        return undefined as RpcReceipt | undefined
      })

    /** Nothing of the batch is mined: find out why and act. Caller holds the sender lock. */
    const unstick = (ctx: ChainContext.ChainContext, request: Anchorer.AnchorRequest, settledNonce: number) =>
      Effect.gen(function*() {
        const { config, rpc } = ctx
        const latest = (yield* attemptsOf(ctx, request)).at(-1)!
        if (settledNonce > latest.nonce) {
          // The nonce is taken by a settled transaction that is none of ours (we saw no receipt
          // after reading the nonce), so no attempt of this batch can ever be mined.
          const key = yield* keyOfSender(config.chain, request.tenantId, latest.sender)
          yield* Effect.logWarning(`nonce ${latest.nonce} of ${latest.sender} was taken by another transaction; signing ${request.batchId} again`)
          return pending(yield* fresh(ctx, request, key))
        }
        const known = (yield* rpc.transaction(latest.txHash as Hex)) !== null
        let gap = false
        if (!known) {
          const outcome = yield* broadcast(ctx, latest, config.gasLimit)
          if (outcome === "feeTooLow") {
            const key = yield* keyOfSender(config.chain, request.tenantId, latest.sender)
            return pending(yield* replace(ctx, request, key, latest))
          }
          gap = outcome === "nonceTooHigh"
        }
        const age = (yield* Clock.currentTimeMillis) - latest.createdAt.getTime()
        if (age < Duration.toMillis(config.stuckAfter)) return pending(latest)
        const pendingNonce = yield* rpc.nonce(latest.sender as Address, "pending")
        if (gap || latest.nonce > pendingNonce) {
          const key = yield* keyOfSender(config.chain, request.tenantId, latest.sender)
          yield* fillGap(ctx, key, pendingNonce, latest.nonce)
          yield* broadcast(ctx, latest, config.gasLimit)
          return pending(latest)
        }
        if (known && Transactions.belowMarket(latest, yield* Transactions.quote(rpc, config.maxFeePerGasCap))) {
          const key = yield* keyOfSender(config.chain, request.tenantId, latest.sender)
          return pending(yield* replace(ctx, request, key, latest))
        }
        return pending(latest)
      })

    const confirm = (request: Anchorer.AnchorRequest): Effect.Effect<Anchorer.Status, Anchorer.AnchorError> =>
      Effect.gen(function*() {
        const ctx = yield* context(request.chain)
        const { config, rpc } = ctx
        const attempts = yield* attemptsOf(ctx, request)
        if (attempts.length === 0) {
          const s = yield* submit(request)
          return { _tag: "Pending", chainId: s.chainId, txHash: s.txHash, confirmations: 0 } satisfies Pending
        }
        const latest = attempts.at(-1)!
        // Read before the receipts, at a depth a reorg is not expected to undo.
        const head = yield* rpc.blockNumber
        const settledNonce = yield* rpc.nonce(latest.sender as Address, Math.max(0, head - (config.confirmations - 1)))
        const receipt = yield* findReceipt(ctx, attempts)
        if (receipt === undefined) return yield* lock(senderLock(ctx, latest.sender), unstick(ctx, request, settledNonce))
        const blockNumber = hexToNumber(receipt.blockNumber)
        const confirmations = Math.max(1, (yield* rpc.blockNumber) - blockNumber + 1)
        const mined = attempts.find((a) => a.txHash === receipt.transactionHash.toLowerCase()) ?? latest
        if (confirmations < config.confirmations) return pending(mined, confirmations)
        const block = yield* rpc.block(blockNumber)
        // The block was reorged away between the two reads: look again next time.
        if (block === null || block.hash !== receipt.blockHash) return pending(mined, 0)
        return {
          _tag: "Final",
          chainId: config.chainId,
          txHash: mined.txHash,
          blockNumber,
          blockTimestamp: new Date(hexToNumber(block.timestamp) * 1000),
          sender: mined.sender
        } satisfies Anchorer.Status
      }).pipe(Effect.withSpan("BaseAnchor.confirm", { attributes: { chain: request.chain, batchId: request.batchId } }))

    return { submit, confirm } satisfies Anchorer.Service
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<Anchorer.Anchorer, never, KeyVault.KeyVault | AnchorJournal.AnchorJournal> =>
  Layer.effect(Anchorer.Anchorer, make(options))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<Anchorer.Anchorer, ConfigError.ConfigError, KeyVault.KeyVault | AnchorJournal.AnchorJournal> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(config), layer))

/**
 * Anchors on the embedded devnet only, paid by its prefunded treasury. To anchor on the devnet
 * and on Base from one layer, combine `Devnet.chainOptions` with Base `ChainOptions` in `layer`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerDevnet = (
  overrides: Devnet.ChainOverrides = {}
): Layer.Layer<Anchorer.Anchorer, never, KeyVault.KeyVault | AnchorJournal.AnchorJournal | Devnet.Devnet> =>
  Layer.unwrapEffect(Effect.map(Devnet.chainOptions(overrides), (chain) => layer({ chains: [chain] })))
