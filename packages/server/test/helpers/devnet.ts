/**
 * The embedded devnet as an outside verifier sees it: standard Ethereum JSON-RPC over
 * `POST {baseUrl}/devnet/rpc`.
 */
import type { CvjsTransaction } from "@sigil/core/testkit/certVerifierJs"

/** Where every anchor transaction goes (anchor-base `ChainConfig.BURN_ADDRESS`). */
export const BURN_ADDRESS = "0x000000000000000000000000000000000000dead"

export interface RpcTransaction {
  readonly hash: string
  readonly from: string
  readonly to: string | null
  readonly input: string
  readonly blockNumber: string | null
  readonly nonce: string
}

export interface RpcBlock {
  readonly number: string
  readonly timestamp: string
  readonly transactions: ReadonlyArray<RpcTransaction>
}

let nextId = 1

/** One JSON-RPC call; throws on a JSON-RPC error. */
export const rpc = async <A = any>(baseUrl: string, method: string, params: ReadonlyArray<unknown> = []): Promise<A> => {
  const response = await fetch(`${baseUrl}/devnet/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params })
  })
  const answer = (await response.json()) as { result?: A; error?: { message: string } }
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`)
  return answer.result as A
}

export const blockNumber = async (baseUrl: string): Promise<number> => Number(await rpc<string>(baseUrl, "eth_blockNumber"))

export const block = (baseUrl: string, n: number): Promise<RpcBlock> =>
  rpc<RpcBlock>(baseUrl, "eth_getBlockByNumber", [`0x${n.toString(16)}`, true])

/** Every transaction on the chain, with its block's time, oldest first. */
export const allTransactions = async (baseUrl: string): Promise<ReadonlyArray<RpcTransaction & { readonly time: Date }>> => {
  const head = await blockNumber(baseUrl)
  const blocks = await Promise.all(Array.from({ length: head + 1 }, (_, n) => block(baseUrl, n)))
  return blocks.flatMap((b) => b.transactions.map((tx) => ({ ...tx, time: new Date(Number(b.timestamp) * 1000) })))
}

/** Anchor transactions: to the burn address, carrying a 32-byte root. */
export const anchorTransactions = async (baseUrl: string) =>
  (await allTransactions(baseUrl)).filter((tx) => tx.to?.toLowerCase() === BURN_ADDRESS && /^0x[0-9a-f]{64}$/i.test(tx.input))

/** What cert-verifier-js's explorer must answer for an anchor, read from the chain. */
export const cvjsTransaction = async (baseUrl: string, hash: string): Promise<CvjsTransaction> => {
  const tx = await rpc<RpcTransaction | null>(baseUrl, "eth_getTransactionByHash", [hash])
  if (tx === null || tx.blockNumber === null) throw new Error(`${hash} is not mined on the devnet`)
  const mined = await block(baseUrl, Number(tx.blockNumber))
  return {
    remoteHash: tx.input.replace(/^0x/, ""),
    issuingAddress: tx.from,
    time: new Date(Number(mined.timestamp) * 1000).toISOString()
  }
}
