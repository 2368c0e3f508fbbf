/**
 * Gas top-ups: the treasury sends ETH to a tenant address that cannot pay for its next
 * transaction (decisions §3).
 *
 * A top-up is a normal treasury transaction, recorded in the journal (batchId undefined)
 * before broadcast. It is made idempotent enough by the chain itself rather than by the
 * journal: under the treasury lock we first wait until the treasury has nothing in flight (an
 * earlier top-up, maybe from before a crash, lands first), then read the balance again, and
 * only then send. The nonce is the chain's pending nonce, not the journal's: a top-up that was
 * recorded but never broadcast must not leave a nonce gap that blocks every later top-up. The
 * worst case after a crash is therefore one extra top-up, never a stream of them.
 */
import { AnchorRejected } from "@sigil/service/Batches/Anchorer"
import type * as AnchorJournal from "@sigil/service/Batches/AnchorJournal"
import { ChainUnavailable } from "@sigil/core/ChainReader"
import { Clock, Duration, Effect } from "effect"
import type { Address } from "viem"
import * as ChainConfig from "../ChainConfig.js"
import { type ChainContext, journalCall } from "./chainContext.js"
import type { KeyedLock } from "./keyedLock.js"
import * as Transactions from "./transactions.js"

/** Waits (polling) until `check` yields a value, for at most `timeout`. */
export const pollUntil = <A, E>(
  check: Effect.Effect<A | undefined, E>,
  interval: Duration.Duration,
  timeout: Duration.Duration,
  onTimeout: () => E
): Effect.Effect<A, E> =>
  Effect.gen(function*() {
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(timeout)
    while (true) {
      const value = yield* check
      if (value !== undefined) return value
      if ((yield* Clock.currentTimeMillis) >= deadline) return yield* Effect.fail(onTimeout())
      yield* Effect.sleep(interval)
    }
  })

export const ensureFunded = (
  ctx: ChainContext,
  journal: AnchorJournal.Service,
  lock: KeyedLock,
  address: Address,
  gas: bigint,
  maxFeePerGas: bigint
): Effect.Effect<void, ChainUnavailable | AnchorRejected> =>
  Effect.gen(function*() {
    const { config, rpc, treasury } = ctx
    // Nodes check a sender's pending transactions together (geth: balance ≥ cost of all of
    // them), so each transaction still in flight reserves about as much as the next one.
    const [mined, pending] = yield* Effect.all([rpc.nonce(address, "latest"), rpc.nonce(address, "pending")])
    const inFlight = BigInt(Math.max(0, pending - mined))
    const need = gas * maxFeePerGas * (inFlight + 1n) + config.topUpMargin
    if ((yield* rpc.balance(address)) >= need) return
    yield* lock(`${config.chainId}:${treasury.address.toLowerCase()}`, Effect.gen(function*() {
      yield* pollUntil(
        Effect.map(
          Effect.all([rpc.nonce(treasury.address, "latest"), rpc.nonce(treasury.address, "pending")]),
          ([treasuryMined, treasuryPending]) => (treasuryPending <= treasuryMined ? true : undefined)
        ),
        config.pollInterval,
        config.topUpTimeout,
        () =>
          new ChainUnavailable({
            chain: config.chain,
            message: `the treasury ${treasury.address} still has a transaction in flight; top-up postponed`
          })
      )
      const balance = yield* rpc.balance(address)
      if (balance >= need) return
      const fees = yield* Transactions.quote(rpc, config.maxFeePerGasCap)
      const value = config.topUpAmount > need - balance ? config.topUpAmount : need - balance
      const tx: Transactions.Unsigned = {
        chainId: config.chainId,
        nonce: yield* rpc.nonce(treasury.address, "pending"),
        to: address,
        value,
        data: "0x",
        gas: ChainConfig.TRANSFER_GAS_LIMIT,
        ...fees
      }
      const signed = yield* Transactions.signWithAccount(treasury, tx)
      yield* journalCall(ctx, journal.record(yield* Transactions.attempt(tx, signed, treasury.address, undefined)))
      const outcome = yield* rpc.sendRaw(signed.raw).pipe(
        Effect.catchTag("RpcFailure", (e): Effect.Effect<never, ChainUnavailable | AnchorRejected> =>
          e.kind === "insufficientFunds"
            // An empty treasury is an operations problem: batches wait until it is refilled.
            ? Effect.fail(
              new ChainUnavailable({
                chain: config.chain,
                message: `the treasury ${treasury.address} cannot pay for a top-up: ${e.message}`
              })
            )
            : Effect.fail(
              new AnchorRejected({ chain: config.chain, message: `top-up from the treasury rejected: ${e.message}` })
            ))
      )
      if (outcome !== "sent" && outcome !== "known") {
        return yield* new ChainUnavailable({
          chain: config.chain,
          message: `top-up to ${address} not accepted (${outcome}); will retry`
        })
      }
      yield* pollUntil(
        Effect.map(rpc.receipt(signed.hash), (r) => r ?? undefined),
        config.pollInterval,
        config.topUpTimeout,
        () =>
          new ChainUnavailable({
            chain: config.chain,
            message: `top-up ${signed.hash} to ${address} not mined within ${Duration.format(config.topUpTimeout)}`
          })
      )
    }))
  })
