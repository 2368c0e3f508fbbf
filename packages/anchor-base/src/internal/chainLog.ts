/**
 * The devnet's append-only chain log (`<dataDir>/devnet/chain.jsonl`): one JSON line per event,
 * enough to rebuild the identical chain in a fresh EDR node (same genesis, same raw
 * transactions in the same blocks with the same timestamps and base fees, so the same hashes).
 *
 * - `genesis`: first line; the node parameters.
 * - `block`: a mined block, its raw transactions in block order.
 * - `truncate`: blocks above `number` were undone (evm_revert, used by reorg tests).
 * - `state`: a state override (hardhat_setBalance…) replayed at its position.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export interface Genesis {
  readonly t: "genesis"
  readonly chainId: number
  readonly timestamp: number
  readonly hardfork: string
  readonly blockGasLimit: number
  readonly accounts: ReadonlyArray<{ readonly privateKey: string; readonly balance: string }>
}

export interface Block {
  readonly t: "block"
  readonly number: number
  readonly hash: string
  readonly timestamp: number
  readonly baseFeePerGas: string
  readonly txs: ReadonlyArray<string>
}

export interface Truncate {
  readonly t: "truncate"
  readonly number: number
}

export interface State {
  readonly t: "state"
  readonly method: string
  readonly params: ReadonlyArray<unknown>
}

export type Entry = Genesis | Block | Truncate | State

export interface Loaded {
  readonly genesis: Genesis | undefined
  /** Blocks and state changes still in effect (truncations applied), in order. */
  readonly entries: ReadonlyArray<Block | State>
  /** The file had truncations or a torn last line and should be rewritten. */
  readonly compact: boolean
}

export const file = (dataDir: string): string => path.join(dataDir, "devnet", "chain.jsonl")

export const load = (filePath: string): Loaded => {
  if (!fs.existsSync(filePath)) return { genesis: undefined, entries: [], compact: false }
  const text = fs.readFileSync(filePath, "utf8")
  const lines = text.split("\n")
  // A crash mid-append leaves a torn last line: drop it (its block is replayed as missing).
  const torn = lines.at(-1) !== ""
  let genesis: Genesis | undefined
  const entries: Array<Block | State> = []
  let compact = torn && lines.at(-1)!.length > 0
  for (const [i, line] of lines.entries()) {
    if (line === "") continue
    let entry: Entry
    try {
      entry = JSON.parse(line) as Entry
    } catch (e) {
      if (i === lines.length - 1) break
      throw new Error(`${filePath}:${i + 1}: unreadable line (${String(e)})`)
    }
    switch (entry.t) {
      case "genesis":
        genesis = entry
        break
      case "block":
      case "state":
        entries.push(entry)
        break
      case "truncate": {
        compact = true
        // Drop undone blocks and the state changes made after the last kept block.
        let keep = entries.length
        while (keep > 0) {
          const last = entries[keep - 1]!
          if (last.t === "block" && last.number <= entry.number) break
          keep--
        }
        entries.length = keep
        break
      }
    }
  }
  return { genesis, entries, compact }
}

/** Appends lines, each flushed to disk before returning: an anchored transaction must survive a crash. */
export interface Writer {
  readonly append: (entry: Entry) => void
  readonly close: () => void
}

export const openWriter = (filePath: string): Writer => {
  fs.mkdirSync(path.dirname(filePath), { recursive: true })
  const fd = fs.openSync(filePath, "a")
  let open = true
  return {
    append: (entry) => {
      if (!open) throw new Error("devnet chain log is closed")
      fs.writeSync(fd, `${JSON.stringify(entry)}\n`)
      fs.fdatasyncSync(fd)
    },
    close: () => {
      if (!open) return
      open = false
      fs.closeSync(fd)
    }
  }
}

/** Rewrites the log with only what is in effect (atomic rename). */
export const rewrite = (filePath: string, genesis: Genesis, entries: ReadonlyArray<Block | State>): void => {
  const tmp = `${filePath}.tmp`
  fs.writeFileSync(tmp, [genesis, ...entries].map((e) => `${JSON.stringify(e)}\n`).join(""))
  const fd = fs.openSync(tmp, "r")
  fs.fsyncSync(fd)
  fs.closeSync(fd)
  fs.renameSync(tmp, filePath)
}
