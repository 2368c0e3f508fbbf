/**
 * Per-chain settings of the anchoring adapter and the chain reader: where the RPC is, who pays
 * for gas, how many confirmations make an anchor final, and how hard to retry.
 *
 * Nothing here reads the environment; the server builds these values from its own config
 * (decisions §7) and passes them to `BaseAnchor.layer` / `EvmChainReader.layer`.
 *
 * @since 0.1.0
 */
import type { ChainName } from "@sigil/core/Chains"
import * as Chains from "@sigil/core/Chains"
import { Duration, type Redacted } from "effect"
import { type Address, type Chain, defineChain, getAddress } from "viem"
import { base, baseSepolia } from "viem/chains"

/**
 * A minimal EIP-1193 provider (what Hardhat's in-process node and wallet libraries expose).
 *
 * @since 0.1.0
 * @category models
 */
export interface Eip1193Provider {
  readonly request: (args: { readonly method: string; readonly params?: ReadonlyArray<unknown> | object }) => Promise<unknown>
}

/**
 * Where to send JSON-RPC: an HTTP(S) URL (kept redacted: hosted RPC URLs carry API keys) or an
 * in-process provider (the devnet, or a test proxy around it).
 *
 * @since 0.1.0
 * @category models
 */
export type Rpc =
  | { readonly _tag: "Url"; readonly url: Redacted.Redacted<string>; readonly timeout?: Duration.DurationInput }
  | { readonly _tag: "Provider"; readonly provider: Eip1193Provider }

/**
 * @since 0.1.0
 * @category constructors
 */
export const rpcUrl = (url: Redacted.Redacted<string>, options?: { readonly timeout?: Duration.DurationInput }): Rpc =>
  options?.timeout === undefined ? { _tag: "Url", url } : { _tag: "Url", url, timeout: options.timeout }

/**
 * @since 0.1.0
 * @category constructors
 */
export const rpcProvider = (provider: Eip1193Provider): Rpc => ({ _tag: "Provider", provider })

/**
 * Transient RPC failures are retried inside each call with exponential backoff (base, doubling,
 * capped, jittered), `times` retries at most; then the call fails with `ChainUnavailable` and
 * the caller's job stays queued.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryOptions {
  readonly times?: number
  readonly base?: Duration.DurationInput
  readonly cap?: Duration.DurationInput
}

/**
 * Settings of one chain Sigil anchors on. Only `chain`, `rpc` and `treasuryKey` are required;
 * the rest default per chain (see `defaults`).
 *
 * @since 0.1.0
 * @category models
 */
export interface ChainOptions {
  readonly chain: ChainName
  readonly rpc: Rpc
  /** Private key (`0x` + 64 hex) of the account that tops tenant addresses up with gas. */
  readonly treasuryKey: Redacted.Redacted<string>
  /** Confirmations (the mined block counts as 1) before an anchor is final. */
  readonly confirmations?: number
  /** Gas limit of an anchor transaction (see `ANCHOR_GAS_LIMIT`). */
  readonly gasLimit?: bigint
  /** Wei the treasury sends when a tenant address cannot pay for its next anchor. */
  readonly topUpAmount?: bigint
  /** Wei kept on top of gasLimit × maxFeePerGas before topping up (Base charges an L1 data fee on top of gas). */
  readonly topUpMargin?: bigint
  /** How much a replacement raises both fees, in percent; at least 12.5 (the nodes' replacement minimum is 10). */
  readonly feeBumpPercent?: number
  /** Never sign a maxFeePerGas above this; when the market is higher the anchor waits (`ChainUnavailable`). */
  readonly maxFeePerGasCap?: bigint
  /** A transaction pending this long is looked at again: replaced when underpriced, unblocked when behind a nonce gap. */
  readonly stuckAfter?: Duration.DurationInput
  /** How often to poll while waiting for a top-up to be mined. */
  readonly pollInterval?: Duration.DurationInput
  /** How long `submit` waits for a top-up to be mined before giving up for now (`ChainUnavailable`). */
  readonly topUpTimeout?: Duration.DurationInput
  readonly retry?: RetryOptions
}

/**
 * A chain the reader reads, by EVM chain id (any chain, not only the ones Sigil anchors on:
 * the verifier also reads third-party Blockcerts anchors).
 *
 * @since 0.1.0
 * @category models
 */
export interface ReaderChainOptions {
  readonly chainId: number
  readonly rpc: Rpc
  readonly retry?: RetryOptions
}

/**
 * The gas limit of an anchor transaction. Its calldata is 32 bytes, almost always all
 * non-zero: intrinsic gas is 21,000 + 32 × 16 = 21,512, and since Prague (EIP-7623, live on
 * Base and on the devnet's hardfork) the calldata floor is 21,000 + 10 × 4 × 32 = 22,280.
 * Sending to an EOA runs no code, so the cost is exactly that; 25,000 (cert-issuer's default)
 * leaves room and is only charged for what is used.
 *
 * @since 0.1.0
 * @category constants
 */
export const ANCHOR_GAS_LIMIT = 25_000n

/**
 * Gas limit of a plain value transfer (top-ups, nonce-gap fillers).
 *
 * @since 0.1.0
 * @category constants
 */
export const TRANSFER_GAS_LIMIT = 21_000n

/**
 * Where anchors are sent: the conventional burn address, which nobody holds a key for. The
 * Blockcerts verifier does not check `to` (research/blockcerts.md §0.4); cert-issuer uses
 * `0xdead…dead`, we use the more widely recognised `0x…dEaD`.
 *
 * @since 0.1.0
 * @category constants
 */
export const BURN_ADDRESS: Address = getAddress("0x000000000000000000000000000000000000dead")

/**
 * Fully resolved settings of one chain.
 *
 * @since 0.1.0
 * @category models
 */
export interface Resolved {
  readonly chain: ChainName
  readonly chainId: number
  readonly rpc: Rpc
  readonly treasuryKey: Redacted.Redacted<string>
  readonly confirmations: number
  readonly gasLimit: bigint
  readonly topUpAmount: bigint
  readonly topUpMargin: bigint
  readonly feeBumpPercent: number
  readonly maxFeePerGasCap: bigint | undefined
  readonly stuckAfter: Duration.Duration
  readonly pollInterval: Duration.Duration
  readonly topUpTimeout: Duration.Duration
  readonly retry: ResolvedRetry
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ResolvedRetry {
  readonly times: number
  readonly base: Duration.Duration
  readonly cap: Duration.Duration
}

const ETHER = 10n ** 18n

/**
 * The defaults per chain. Confirmations follow decisions §7 (1 on the devnet, 3 on Base); a
 * Base anchor costs ~22k gas × a few hundredths of a gwei plus a small L1 fee, so a top-up of
 * 0.0005 ETH pays for hundreds of anchors.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = (chain: ChainName): Omit<Resolved, "chain" | "chainId" | "rpc" | "treasuryKey"> => {
  const retry = resolveRetry(undefined)
  if (chain === "devnet") {
    return {
      confirmations: 1,
      gasLimit: ANCHOR_GAS_LIMIT,
      topUpAmount: ETHER / 10n,
      topUpMargin: 0n,
      feeBumpPercent: 25,
      maxFeePerGasCap: undefined,
      // Blocks are instant here: a transaction pending for seconds is stuck.
      stuckAfter: Duration.seconds(5),
      pollInterval: Duration.millis(20),
      topUpTimeout: Duration.seconds(30),
      retry
    }
  }
  return {
    confirmations: 3,
    gasLimit: ANCHOR_GAS_LIMIT,
    topUpAmount: ETHER / 2000n,
    topUpMargin: 10n ** 12n,
    feeBumpPercent: 25,
    maxFeePerGasCap: undefined,
    stuckAfter: Duration.minutes(3),
    pollInterval: Duration.seconds(1),
    topUpTimeout: Duration.minutes(1),
    retry
  }
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const resolveRetry = (retry: RetryOptions | undefined): ResolvedRetry => ({
  times: Math.max(0, Math.floor(retry?.times ?? 5)),
  base: Duration.decode(retry?.base ?? "200 millis"),
  cap: Duration.decode(retry?.cap ?? "5 seconds")
})

/**
 * Fills in the defaults and checks the values that would make anchoring unsafe.
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolve = (options: ChainOptions): Resolved => {
  const d = defaults(options.chain)
  const feeBumpPercent = options.feeBumpPercent ?? d.feeBumpPercent
  if (!(feeBumpPercent >= 12.5)) {
    throw new Error(`feeBumpPercent must be at least 12.5 (nodes refuse smaller replacements), got ${feeBumpPercent}`)
  }
  const confirmations = options.confirmations ?? d.confirmations
  if (!Number.isInteger(confirmations) || confirmations < 1) {
    throw new Error(`confirmations must be a positive integer, got ${confirmations}`)
  }
  return {
    chain: options.chain,
    chainId: Chains.byName(options.chain).chainId,
    rpc: options.rpc,
    treasuryKey: options.treasuryKey,
    confirmations,
    gasLimit: options.gasLimit ?? d.gasLimit,
    topUpAmount: options.topUpAmount ?? d.topUpAmount,
    topUpMargin: options.topUpMargin ?? d.topUpMargin,
    feeBumpPercent,
    maxFeePerGasCap: options.maxFeePerGasCap ?? d.maxFeePerGasCap,
    stuckAfter: Duration.decode(options.stuckAfter ?? d.stuckAfter),
    pollInterval: Duration.decode(options.pollInterval ?? d.pollInterval),
    topUpTimeout: Duration.decode(options.topUpTimeout ?? d.topUpTimeout),
    retry: options.retry === undefined ? d.retry : resolveRetry(options.retry)
  }
}

/**
 * The devnet as a viem chain (for clients outside this package, e.g. a verification page).
 *
 * @since 0.1.0
 * @category constants
 */
export const devnetChain: Chain = defineChain({
  id: Chains.DEVNET_CHAIN_ID,
  name: "Sigil devnet",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [] } },
  testnet: true
})

/**
 * The viem chain of a chain name; the Base chains carry their explorer (basescan.org,
 * sepolia.basescan.org), as `Chains.explorerTxUrl` does.
 *
 * @since 0.1.0
 * @category lookups
 */
export const viemChain = (chain: ChainName): Chain =>
  chain === "base-mainnet" ? base : chain === "base-sepolia" ? baseSepolia : devnetChain
