/**
 * The chains Sigil anchors on or reads from, keyed by EVM chain id.
 *
 * Blockcerts anchors name an EVM chain as `eth` plus a network number; Sigil writes the EVM
 * chain id as that number (decisions §1), so Base is `eth` / 8453 in a proofValue.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * The chain names of the API (`AnchorTransaction.chain`), plus `devnet` for the embedded chain.
 *
 * @since 0.1.0
 * @category models
 */
export const ChainName = Schema.Literal("base-mainnet", "base-sepolia", "devnet")
export type ChainName = typeof ChainName.Type

/**
 * The embedded Hardhat EDR devnet uses Hardhat's default chain id.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEVNET_CHAIN_ID = 31337

/**
 * @since 0.1.0
 * @category models
 */
export interface EvmChain {
  readonly chainId: number
  /** The API name for the chains Sigil anchors on; undefined for chains it only reads. */
  readonly name: ChainName | undefined
  readonly label: string
  readonly testnet: boolean
  /** Block explorer base URL, without a trailing slash; transactions live at `${explorer}/tx/<hash>`. */
  readonly explorer: string | undefined
}

const chains: ReadonlyArray<EvmChain> = [
  { chainId: 1, name: undefined, label: "Ethereum", testnet: false, explorer: "https://etherscan.io" },
  { chainId: 3, name: undefined, label: "Ethereum Ropsten", testnet: true, explorer: undefined },
  { chainId: 4, name: undefined, label: "Ethereum Rinkeby", testnet: true, explorer: undefined },
  { chainId: 5, name: undefined, label: "Ethereum Goerli", testnet: true, explorer: undefined },
  { chainId: 11155111, name: undefined, label: "Ethereum Sepolia", testnet: true, explorer: "https://sepolia.etherscan.io" },
  { chainId: 8453, name: "base-mainnet", label: "Base", testnet: false, explorer: "https://basescan.org" },
  { chainId: 84532, name: "base-sepolia", label: "Base Sepolia", testnet: true, explorer: "https://sepolia.basescan.org" },
  { chainId: DEVNET_CHAIN_ID, name: "devnet", label: "Sigil devnet", testnet: true, explorer: undefined }
]

/**
 * Every EVM chain the verifier knows.
 *
 * @since 0.1.0
 * @category constants
 */
export const all: ReadonlyArray<EvmChain> = chains

/**
 * @since 0.1.0
 * @category lookups
 */
export const byChainId = (chainId: number): EvmChain | undefined => chains.find((c) => c.chainId === chainId)

/**
 * @since 0.1.0
 * @category lookups
 */
export const byName = (name: ChainName): EvmChain => chains.find((c) => c.name === name)!

/**
 * The explorer page of a transaction, when the chain has a public explorer.
 *
 * @since 0.1.0
 * @category lookups
 */
export const explorerTxUrl = (chainId: number, txHash: string): string | undefined => {
  const explorer = byChainId(chainId)?.explorer
  return explorer === undefined ? undefined : `${explorer}/tx/${txHash}`
}
