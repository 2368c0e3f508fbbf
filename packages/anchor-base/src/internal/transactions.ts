/**
 * EIP-1559 fees and signing. Tenant transactions are signed through the KeyVault (the raw key
 * never leaves it): we serialize the unsigned transaction, hash it, have the vault sign the
 * digest, and serialize again with the signature. The treasury key is ours and signs directly.
 */
import { AnchorRejected } from "@sigil/service/Batches/Anchorer"
import type { Attempt } from "@sigil/service/Batches/AnchorJournal"
import { ChainUnavailable } from "@sigil/core/ChainReader"
import * as CoreHex from "@sigil/core/Hex"
import type { BatchId } from "@sigil/core/Ids"
import type * as KeyVault from "@sigil/service/Tenants/KeyVault"
import { Clock, Effect } from "effect"
import {
  type Address,
  type Hex,
  hexToBigInt,
  hexToBytes,
  keccak256,
  numberToHex,
  type PrivateKeyAccount,
  recoverAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559
} from "viem"
import * as Addresses from "./address.js"
import type { Rpc } from "./rpc.js"

export interface Fees {
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
}

export interface Quote extends Fees {
  readonly baseFee: bigint
}

/**
 * The market: twice the latest base fee (it can rise 12.5% per block, so this survives ~6 full
 * blocks) plus the node's suggested tip.
 */
export const quote = (rpc: Rpc, cap: bigint | undefined): Effect.Effect<Quote, ChainUnavailable> =>
  Effect.gen(function*() {
    const latest = yield* rpc.block("latest")
    if (latest === null || latest.baseFeePerGas === undefined || latest.baseFeePerGas === null) {
      return yield* new ChainUnavailable({ chain: rpc.label, message: "the latest block has no base fee (not an EIP-1559 chain?)" })
    }
    const baseFee = hexToBigInt(latest.baseFeePerGas)
    const tip = yield* rpc.priorityFee(baseFee)
    let maxFeePerGas = baseFee * 2n + tip
    if (cap !== undefined && maxFeePerGas > cap) {
      if (baseFee + tip > cap) {
        return yield* new ChainUnavailable({
          chain: rpc.label,
          message: `the market fee (base ${baseFee} + tip ${tip} wei/gas) is above the configured cap of ${cap} wei/gas`
        })
      }
      maxFeePerGas = cap
    }
    return { baseFee, maxFeePerGas, maxPriorityFeePerGas: tip }
  })

const raise = (value: bigint, percent: number): bigint => {
  // ceil(value × (100 + percent) / 100), in hundredths of a percent so 12.5 stays exact.
  const factor = BigInt(Math.ceil((100 + percent) * 100))
  return (value * factor + 9_999n) / 10_000n
}

/** Fees for a replacement: at least the market, and both fees raised by `percent` over the old ones. */
export const bump = (old: Fees, market: Fees, percent: number, cap: bigint | undefined): Fees => {
  const maxPriorityFeePerGas = max(market.maxPriorityFeePerGas, raise(old.maxPriorityFeePerGas, percent))
  let maxFeePerGas = max(max(market.maxFeePerGas, raise(old.maxFeePerGas, percent)), maxPriorityFeePerGas)
  if (cap !== undefined && maxFeePerGas > cap) maxFeePerGas = max(cap, maxPriorityFeePerGas)
  return { maxFeePerGas, maxPriorityFeePerGas }
}

/** Whether a pending transaction pays less than the market asks now. */
export const belowMarket = (fees: Fees, market: Fees): boolean =>
  fees.maxFeePerGas < market.maxFeePerGas || fees.maxPriorityFeePerGas < market.maxPriorityFeePerGas

const max = (a: bigint, b: bigint) => (a > b ? a : b)

export interface Unsigned extends Fees {
  readonly chainId: number
  readonly nonce: number
  readonly to: Address
  readonly value: bigint
  readonly data: Hex
  readonly gas: bigint
}

const serializable = (tx: Unsigned): TransactionSerializableEIP1559 => ({
  type: "eip1559",
  chainId: tx.chainId,
  nonce: tx.nonce,
  to: tx.to,
  value: tx.value,
  data: tx.data,
  gas: tx.gas,
  maxFeePerGas: tx.maxFeePerGas,
  maxPriorityFeePerGas: tx.maxPriorityFeePerGas
})

export interface Signed {
  readonly raw: Hex
  readonly hash: Hex
}

/** Signs a tenant transaction through the vault and checks the signature recovers to the sender. */
export const signWithVault = (
  vault: KeyVault.Service,
  chain: string,
  keyId: string,
  sender: Address,
  tx: Unsigned
): Effect.Effect<Signed, AnchorRejected | KeyVault.SigningKeyUnavailable> =>
  Effect.gen(function*() {
    const unsigned = serializable(tx)
    const digest = keccak256(serializeTransaction(unsigned))
    const sig = yield* vault.signSecp256k1(keyId, hexToBytes(digest)).pipe(
      Effect.catchTag("KeyNotFound", (e) =>
        Effect.fail(new AnchorRejected({ chain, message: `the vault no longer has key ${e.keyId}` })))
    )
    const signature = {
      r: numberToHex(sig.r, { size: 32 }),
      s: numberToHex(sig.s, { size: 32 }),
      yParity: sig.yParity
    }
    // A wrong signer would put the root on chain from an address the credentials don't name.
    const recovered = yield* Effect.promise(() => recoverAddress({ hash: digest, signature }))
    if (!Addresses.same(recovered, sender)) {
      return yield* new AnchorRejected({
        chain,
        message: `the vault's signature with key ${keyId} recovers to ${recovered}, not the sender ${sender}`
      })
    }
    const raw = serializeTransaction(unsigned, signature)
    return { raw, hash: keccak256(raw) }
  })

/** Signs with an account whose key we hold (the treasury). */
export const signWithAccount = (account: PrivateKeyAccount, tx: Unsigned): Effect.Effect<Signed> =>
  Effect.map(Effect.promise(() => account.signTransaction(serializable(tx))), (raw) => ({ raw, hash: keccak256(raw) }))

/** The journal row of a signed transaction. */
export const attempt = (
  tx: Unsigned,
  signed: Signed,
  sender: Address,
  batchId: BatchId | undefined
): Effect.Effect<Attempt> =>
  Effect.map(Clock.currentTimeMillis, (now) => ({
    chainId: tx.chainId,
    batchId,
    sender,
    nonce: tx.nonce,
    txHash: CoreHex.hash32(signed.hash),
    rawTransaction: CoreHex.normalize(signed.raw),
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    createdAt: new Date(now)
  }))
