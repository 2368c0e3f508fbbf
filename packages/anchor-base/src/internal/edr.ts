/**
 * Hardhat 2.29's in-process EDR node (research/feasibility.md §4: the supported in-process
 * EVM on Node 20). We use its provider factory directly, without a Hardhat project or config
 * file. Hardhat exposes no public API for this, so the deep import is pinned with the exact
 * hardhat version in package.json.
 */
import { defaultHardhatNetworkParams } from "hardhat/internal/core/config/default-config.js"
import { createHardhatNetworkProvider } from "hardhat/internal/hardhat-network/provider/provider.js"
import type { Eip1193Provider } from "../ChainConfig.js"

export interface EdrOptions {
  readonly chainId: number
  readonly hardfork: string
  readonly blockGasLimit: number
  readonly genesisTimestamp: number
  readonly automine: boolean
  readonly genesisAccounts: ReadonlyArray<{ readonly privateKey: string; readonly balance: bigint }>
}

export const defaultHardfork: string = defaultHardhatNetworkParams.hardfork

export const create = (options: EdrOptions): Promise<Eip1193Provider> =>
  createHardhatNetworkProvider(
    {
      hardfork: options.hardfork,
      chainId: options.chainId,
      networkId: options.chainId,
      blockGasLimit: options.blockGasLimit,
      minGasPrice: 0n,
      automine: options.automine,
      intervalMining: 0,
      // Replays must rebuild identical blocks: first come, first mined.
      mempoolOrder: "fifo",
      chains: defaultHardhatNetworkParams.chains,
      genesisAccounts: options.genesisAccounts.map((a) => ({ privateKey: a.privateKey, balance: a.balance })),
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      // Keeps block time on the wall clock under bursts (otherwise every block adds a second).
      allowBlocksWithSameTimestamp: true,
      initialDate: new Date(options.genesisTimestamp * 1000),
      enableTransientStorage: false,
      enableRip7212: false
    },
    { enabled: false }
  ) as Promise<Eip1193Provider>
