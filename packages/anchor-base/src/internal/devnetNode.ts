/**
 * The persistent devnet node: an EDR provider rebuilt from the chain log at start, and wrapped
 * so that every block it mines afterwards is appended to that log.
 *
 * Calls that can mine or undo blocks run one at a time; after each, the wrapper compares the
 * node's head with the log (by hash, walking back to the common ancestor after an evm_revert)
 * and writes what changed. Raw transactions come from `eth_sendRawTransaction` itself, or are
 * re-serialized from the mined transaction and checked against its hash.
 */
import { formatTransaction, hexToNumber, keccak256, serializeTransaction, type RpcTransaction } from "viem"
import type { Eip1193Provider } from "../ChainConfig.js"
import * as ChainLog from "./chainLog.js"
import * as Edr from "./edr.js"

export interface NodeOptions {
  readonly dataDir: string
  readonly automine: boolean
  readonly freshGenesis: () => ChainLog.Genesis
  readonly nowSeconds: () => number
  readonly warn: (message: string) => void
}

export interface Node {
  readonly provider: Eip1193Provider
  readonly genesis: ChainLog.Genesis
  readonly replayedBlocks: number
  /** Stops accepting calls, lets the running one finish its log write, closes the log. */
  readonly close: () => Promise<void>
}

/** Calls that may mine blocks or undo them: the log is reconciled after each. */
const MINING = new Set([
  "eth_sendRawTransaction",
  "eth_sendTransaction",
  "evm_mine",
  "hardhat_mine",
  "evm_revert",
  "evm_setAutomine"
])

/** State overrides that blocks alone do not reproduce: logged and replayed as they are. */
const STATE = new Set([
  "hardhat_setBalance",
  "hardhat_setNonce",
  "hardhat_setCode",
  "hardhat_setStorageAt",
  "hardhat_setCoinbase",
  "hardhat_setPrevRandao",
  "hardhat_setMinGasPrice"
])

/** Calls whose effects cannot be persisted (a reset, unsigned transactions, timer-driven blocks). */
const REFUSED = new Set([
  "hardhat_reset",
  "hardhat_impersonateAccount",
  "hardhat_stopImpersonatingAccount",
  "evm_setIntervalMining"
])

const providerError = (code: number, message: string) => Object.assign(new Error(message), { code })

interface MinedBlock {
  readonly number: `0x${string}`
  readonly hash: `0x${string}`
  readonly timestamp: `0x${string}`
  readonly baseFeePerGas: `0x${string}`
  readonly transactions: ReadonlyArray<RpcTransaction>
}

const reserialize = (rpcTx: RpcTransaction): string | undefined => {
  try {
    const tx = formatTransaction(rpcTx)
    if (tx.r === undefined || tx.s === undefined) return undefined
    const signature = tx.type === "legacy"
      ? { r: tx.r, s: tx.s, v: tx.v }
      : { r: tx.r, s: tx.s, yParity: tx.yParity ?? 0 }
    const raw = serializeTransaction({ ...tx, data: tx.input } as Parameters<typeof serializeTransaction>[0], signature)
    return keccak256(raw) === rpcTx.hash ? raw : undefined
  } catch {
    return undefined
  }
}

export const start = async (options: NodeOptions): Promise<Node> => {
  const filePath = ChainLog.file(options.dataDir)
  const loaded = ChainLog.load(filePath)
  const genesis = loaded.genesis ?? options.freshGenesis()
  const edr = await Edr.create({
    chainId: genesis.chainId,
    hardfork: genesis.hardfork,
    blockGasLimit: genesis.blockGasLimit,
    genesisTimestamp: genesis.timestamp,
    automine: false,
    genesisAccounts: genesis.accounts.map((a) => ({ privateKey: a.privateKey, balance: BigInt(a.balance) }))
  })
  const call = (method: string, params: ReadonlyArray<unknown> = []) => edr.request({ method, params })

  // Replay: same transactions, same block timestamps and base fees → same blocks.
  const entries = [...loaded.entries]
  let diverged = false
  for (const [i, entry] of entries.entries()) {
    if (entry.t === "state") {
      await call(entry.method, entry.params)
      continue
    }
    for (const raw of entry.txs) {
      try {
        await call("eth_sendRawTransaction", [raw])
      } catch (e) {
        options.warn(`devnet replay: block ${entry.number} transaction ${keccak256(raw as `0x${string}`)} refused: ${String(e)}`)
      }
    }
    await call("hardhat_setNextBlockBaseFeePerGas", [entry.baseFeePerGas])
    await call("evm_mine", [entry.timestamp])
    const mined = (await call("eth_getBlockByNumber", ["latest", false])) as MinedBlock
    if (mined.hash !== entry.hash || hexToNumber(mined.number) !== entry.number) {
      if (!diverged) {
        options.warn(`devnet replay: block ${entry.number} came back as ${mined.hash} (logged ${entry.hash}); transaction hashes are unchanged`)
      }
      diverged = true
      entries[i] = { ...entry, number: hexToNumber(mined.number), hash: mined.hash }
    }
  }
  if (loaded.genesis === undefined || loaded.compact || diverged) ChainLog.rewrite(filePath, genesis, entries)

  // Replayed blocks moved the node's clock into the past: bring it back to now.
  const head = (await call("eth_getBlockByNumber", ["latest", false])) as MinedBlock
  const behind = options.nowSeconds() - hexToNumber(head.timestamp)
  if (behind > 0) await call("evm_increaseTime", [behind])
  await call("evm_setAutomine", [options.automine])

  const hashes: Array<string> = []
  hashes[0] = ((await call("eth_getBlockByNumber", ["0x0", false])) as MinedBlock).hash
  for (const entry of entries) if (entry.t === "block") hashes[entry.number] = entry.hash
  let loggedHead = hashes.length - 1

  const writer = ChainLog.openWriter(filePath)
  const raws = new Map<string, string>()
  let closed = false

  const blockAt = (n: number | "latest", full: boolean) =>
    call("eth_getBlockByNumber", [n === "latest" ? n : `0x${n.toString(16)}`, full]) as Promise<MinedBlock>

  const logBlock = (block: MinedBlock) => {
    const txs = block.transactions.map((tx) => {
      const raw = raws.get(tx.hash) ?? reserialize(tx)
      raws.delete(tx.hash)
      if (raw === undefined) options.warn(`devnet: cannot persist transaction ${tx.hash}; it will be missing after a restart`)
      return raw
    }).filter((raw): raw is string => raw !== undefined)
    const number = hexToNumber(block.number)
    writer.append({ t: "block", number, hash: block.hash, timestamp: hexToNumber(block.timestamp), baseFeePerGas: block.baseFeePerGas, txs })
    hashes[number] = block.hash
    loggedHead = number
  }

  const reconcile = async () => {
    const latest = await blockAt("latest", true)
    const headNumber = hexToNumber(latest.number)
    if (headNumber === loggedHead && latest.hash === hashes[headNumber]) return
    let ancestor = Math.min(headNumber, loggedHead)
    while (ancestor > 0) {
      const block = ancestor === headNumber ? latest : await blockAt(ancestor, false)
      if (block.hash === hashes[ancestor]) break
      ancestor--
    }
    if (ancestor < loggedHead) {
      writer.append({ t: "truncate", number: ancestor })
      hashes.length = ancestor + 1
      loggedHead = ancestor
    }
    for (let n = ancestor + 1; n <= headNumber; n++) logBlock(n === headNumber ? latest : await blockAt(n, true))
  }

  // Mining calls and their log writes happen one at a time, in order.
  let tail: Promise<unknown> = Promise.resolve()
  const exclusive = <A>(f: () => Promise<A>): Promise<A> => {
    const run = tail.then(f, f)
    tail = run.catch(() => undefined)
    return run
  }

  const provider: Eip1193Provider = {
    request: async (args) => {
      const { method } = args
      const params = (args.params ?? []) as ReadonlyArray<unknown>
      if (closed) throw providerError(-32603, "the devnet has stopped")
      if (REFUSED.has(method)) throw providerError(-32601, `${method} is not available on the persistent devnet`)
      if (STATE.has(method)) {
        return exclusive(async () => {
          const result = await call(method, params)
          writer.append({ t: "state", method, params })
          return result
        })
      }
      if (!MINING.has(method)) return call(method, params)
      return exclusive(async () => {
        try {
          const result = await call(method, params)
          if (method === "eth_sendRawTransaction" && typeof result === "string") raws.set(result, params[0] as string)
          return result
        } finally {
          await reconcile().catch((e) => options.warn(`devnet: could not log mined blocks: ${String(e)}`))
        }
      })
    }
  }

  return {
    provider,
    genesis,
    replayedBlocks: entries.filter((e) => e.t === "block").length,
    close: async () => {
      closed = true
      await tail
      writer.close()
    }
  }
}
