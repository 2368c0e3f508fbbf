/**
 * Reads JSON-RPC failures. Nodes disagree on codes (geth, op-geth, Hardhat EDR, hosted RPCs all
 * use -32000 for most transaction errors), so the message text decides, and codes or HTTP
 * statuses only break ties.
 */
import { BaseError, HttpRequestError, TimeoutError } from "viem"

/**
 * - `transient`: try again later (network, timeouts, rate limits, 5xx, anything unknown).
 * - `known`: the node already has this exact transaction.
 * - `nonceTooLow`: the nonce is used: by this transaction (mined) or by another one.
 * - `nonceTooHigh`: the node refuses to queue behind a nonce gap (Hardhat with automine).
 * - `underpriced`: another transaction with this nonce is in the pool and pays more.
 * - `feeTooLow`: the fee cannot pay the next block's base fee or the node's minimum tip.
 * - `insufficientFunds`: the sender cannot pay gas × maxFee + value.
 * - `rejected`: the node will never accept this transaction (wrong chain, bad signature…).
 */
export type Kind =
  | "transient"
  | "known"
  | "nonceTooLow"
  | "nonceTooHigh"
  | "underpriced"
  | "feeTooLow"
  | "insufficientFunds"
  | "rejected"

export interface Classified {
  readonly kind: Kind
  readonly message: string
}

const patterns: ReadonlyArray<readonly [Kind, RegExp]> = [
  ["known", /already known|known transaction|alreadyknown|already imported|already in (the )?mempool/],
  ["nonceTooLow", /nonce too low|nonce has already been used|oldnonce|invalid nonce.*lower/],
  ["nonceTooHigh", /nonce too high|nonce gap/],
  ["underpriced", /replacement (transaction )?underpriced|could not replace existing tx/],
  [
    "feeTooLow",
    /fee cap less than block base fee|less than block base fee|is too low for the next block|transaction underpriced|max fee per gas less than|tip too low|gas price too low|fee too low/
  ],
  ["insufficientFunds", /insufficient funds|doesn't have enough funds|not enough funds/],
  [
    "rejected",
    /invalid chain ?id|chain ?id mismatch|invalid sender|invalid signature|intrinsic gas too low|exceeds block gas limit|oversized data|transaction type not supported|tx type not supported|rlp|could not decode|invalid transaction|gas limit reached/
  ]
]

/** Every message along the error's cause chain, most specific last. */
const messages = (error: unknown): ReadonlyArray<string> => {
  const out: Array<string> = []
  let current: unknown = error
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof BaseError) {
      out.push(current.shortMessage)
      if (current.details) out.push(current.details)
    } else if (current instanceof Error) {
      out.push(current.message)
    } else if (typeof current === "object" && "message" in current && typeof current.message === "string") {
      out.push(current.message)
    } else {
      out.push(String(current))
    }
    current = typeof current === "object" && "cause" in current ? current.cause : undefined
  }
  return out
}

const codeOf = (error: unknown): number | undefined => {
  let found: number | undefined
  if (error instanceof BaseError) {
    error.walk((e) => {
      if (found === undefined && typeof e === "object" && e !== null && "code" in e && typeof e.code === "number") {
        found = e.code
      }
      return false
    })
  } else if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "number") {
    found = error.code
  }
  return found
}

/** The most specific human-readable message: the node's own words when viem kept them. */
export const describe = (error: unknown): string => {
  const all = messages(error).filter((m) => m.length > 0)
  const specific = all.filter((m) => !/^(missing or invalid parameters|an internal error was received|an unknown rpc error occurred|invalid parameters were provided)/i.test(m))
  const text = (specific.at(-1) ?? all.at(-1) ?? "unknown error").split("\n")[0]!.trim()
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}

/** Classifies a failed JSON-RPC call. */
export const classify = (error: unknown): Classified => {
  const message = describe(error)
  const haystack = messages(error).join(" | ").toLowerCase()
  for (const [kind, pattern] of patterns) {
    if (pattern.test(haystack)) return { kind, message }
  }
  if (error instanceof BaseError) {
    // The transport itself failed: status codes and timeouts, never the transaction.
    if (error.walk((e) => e instanceof TimeoutError) !== null) return { kind: "transient", message }
    const http = error.walk((e) => e instanceof HttpRequestError)
    if (http instanceof HttpRequestError) return { kind: "transient", message }
  }
  const code = codeOf(error)
  // -32602 invalid params / -32600 invalid request / -32700 parse error: our bytes are wrong.
  if (code === -32602 || code === -32600 || code === -32700) return { kind: "rejected", message }
  // Everything else (-32005 limit exceeded, -32603 internal, -32000 "header not found", unknown
  // errors) may pass: retrying costs little, rejecting a good anchor costs a batch.
  return { kind: "transient", message }
}
