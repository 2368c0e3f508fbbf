/**
 * The embedded devnet: an in-process Hardhat EDR node (chain id 31337, automine, a prefunded
 * treasury) that the test environment anchors on when no Base RPC URL is configured
 * (decisions §7). The server mounts `handleJsonRpc` at `POST /devnet/rpc` so that verifiers
 * outside the process can read the anchors.
 *
 * Its chain survives restarts: every mined block is appended to `<dataDir>/devnet/chain.jsonl`
 * and replayed at start with its original timestamp and base fee, so transaction hashes, block
 * numbers, block hashes and times come back identical. Transactions still waiting in the
 * mempool at shutdown are not kept; the anchoring adapter re-broadcasts them.
 *
 * The treasury is Hardhat's default account #0. Its key is public knowledge: it is for the
 * devnet only and must never hold value on a real chain.
 *
 * @since 0.1.0
 */
import * as Chains from "@sigil/core/Chains"
import { Config, type ConfigError, Context, Effect, Layer, Redacted, Runtime, Schema, type Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { type Address, getAddress } from "viem"
import * as ChainConfig from "./ChainConfig.js"
import * as Edr from "./internal/edr.js"
import * as DevnetNode from "./internal/devnetNode.js"
import * as JsonRpc from "./internal/jsonRpc.js"

/**
 * Hardhat's default account #0 (from the public "test test … junk" mnemonic). Devnet only.
 *
 * @since 0.1.0
 * @category constants
 */
export const TREASURY_PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

/**
 * @since 0.1.0
 * @category constants
 */
export const TREASURY_ADDRESS: Address = getAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")

/**
 * One million ETH in the genesis block: ~10 million devnet top-ups.
 *
 * @since 0.1.0
 * @category constants
 */
export const TREASURY_BALANCE = 10n ** 24n

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly chainId: number
  /** The node, with persistence. Tests may call evm_ / hardhat_ methods on it (not hardhat_reset). */
  readonly provider: ChainConfig.Eip1193Provider
  readonly treasuryKey: Redacted.Redacted<string>
  readonly treasuryAddress: Address
  /**
   * Answers a parsed JSON-RPC 2.0 body (single or batch) with standard methods only; returns
   * the response body, or `undefined` when the body held only notifications (reply 204).
   */
  readonly handleJsonRpc: (body: unknown) => Effect.Effect<unknown>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Devnet extends Context.Tag("@sigil/anchor-base/Devnet")<Devnet, Service>() {}

/**
 * The devnet could not start (data directory unusable or held by another process, log
 * unreadable).
 *
 * @since 0.1.0
 * @category errors
 */
export class DevnetError extends Schema.TaggedError<DevnetError>()("DevnetError", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The server's data directory; the devnet keeps `devnet/chain.jsonl` and `devnet/lock` in it. */
  readonly dataDir: string
  /** Mine each transaction as it arrives (default true). */
  readonly automine?: boolean
}

const BLOCK_GAS_LIMIT = 30_000_000

const lockFile = (dataDir: string) => path.join(dataDir, "devnet", "lock")

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

// One process per data directory: two writers would interleave the chain log.
const acquireLock = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const file = lockFile(dataDir)
        fs.mkdirSync(path.dirname(file), { recursive: true })
        for (let round = 0; round < 2; round++) {
          try {
            fs.writeFileSync(file, String(process.pid), { flag: "wx" })
            return file
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
            const holder = Number(fs.readFileSync(file, "utf8"))
            if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
              throw new Error(`the devnet in ${dataDir} is in use by process ${holder}`)
            }
            fs.rmSync(file, { force: true })
          }
        }
        throw new Error(`could not lock ${file}`)
      },
      catch: (e) => new DevnetError({ message: e instanceof Error ? e.message : String(e) })
    }),
    (file) => Effect.sync(() => fs.rmSync(file, { force: true }))
  )

/**
 * Starts the node (replaying the chain log), for the life of the scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<Service, DevnetError, Scope.Scope> =>
  Effect.gen(function*() {
    const dataDir = path.resolve(options.dataDir)
    yield* acquireLock(dataDir)
    const runtime = yield* Effect.runtime<never>()
    const warn = (message: string) => Runtime.runFork(runtime)(Effect.logWarning(message))
    const started = Date.now()
    const node = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          DevnetNode.start({
            dataDir,
            automine: options.automine ?? true,
            nowSeconds: () => Math.floor(Date.now() / 1000),
            warn,
            freshGenesis: () => ({
              t: "genesis",
              chainId: Chains.DEVNET_CHAIN_ID,
              timestamp: Math.floor(Date.now() / 1000),
              hardfork: Edr.defaultHardfork,
              blockGasLimit: BLOCK_GAS_LIMIT,
              accounts: [{ privateKey: TREASURY_PRIVATE_KEY, balance: TREASURY_BALANCE.toString() }]
            })
          }),
        catch: (e) => new DevnetError({ message: `the devnet did not start: ${e instanceof Error ? e.message : String(e)}` })
      }),
      (node) => Effect.promise(() => node.close())
    )
    yield* Effect.logInfo(
      `devnet (chain ${node.genesis.chainId}) up in ${Date.now() - started} ms, ${node.replayedBlocks} blocks replayed from ${dataDir}`
    )
    return {
      chainId: node.genesis.chainId,
      provider: node.provider,
      treasuryKey: Redacted.make(TREASURY_PRIVATE_KEY),
      treasuryAddress: TREASURY_ADDRESS,
      handleJsonRpc: (body) => Effect.promise(() => JsonRpc.handle(node.provider, body))
    } satisfies Service
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<Devnet, DevnetError> => Layer.scoped(Devnet, make(options))

/**
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (config: Config.Config.Wrap<Options>): Layer.Layer<Devnet, DevnetError | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(config), layer))

/**
 * Settings of the devnet's chain for `BaseAnchor.layer`, with the defaults of
 * `ChainConfig.defaults("devnet")`.
 *
 * @since 0.1.0
 * @category models
 */
export type ChainOverrides = Partial<Omit<ChainConfig.ChainOptions, "chain" | "rpc" | "treasuryKey">>

/**
 * The devnet as an anchoring chain: its provider and its treasury.
 *
 * @since 0.1.0
 * @category constructors
 */
export const chainOptions = (overrides: ChainOverrides = {}): Effect.Effect<ChainConfig.ChainOptions, never, Devnet> =>
  Effect.map(Devnet, (devnet) => ({
    ...overrides,
    chain: "devnet" as const,
    rpc: ChainConfig.rpcProvider(devnet.provider),
    treasuryKey: devnet.treasuryKey
  }))

/**
 * The devnet as a chain for `EvmChainReader.layer`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const readerChain = (
  overrides: Pick<ChainConfig.ReaderChainOptions, "retry"> = {}
): Effect.Effect<ChainConfig.ReaderChainOptions, never, Devnet> =>
  Effect.map(Devnet, (devnet) => ({ ...overrides, chainId: devnet.chainId, rpc: ChainConfig.rpcProvider(devnet.provider) }))
