/**
 * JSON-RPC 2.0 over a provider, for the server's public `POST /devnet/rpc` (decisions §7):
 * single and batch requests, standard `eth_` / `net_` / `web3_` methods only. Calls that sign
 * with the node's own accounts (the treasury) or control the node (evm_, hardhat_) are refused:
 * anyone who can reach the server can reach this endpoint.
 */
import type { Eip1193Provider } from "../ChainConfig.js"

const PUBLIC = /^(eth|net|web3)_/
const REFUSED = new Set([
  "eth_sendTransaction",
  "eth_sign",
  "eth_signTransaction",
  "eth_signTypedData",
  "eth_signTypedData_v3",
  "eth_signTypedData_v4",
  "eth_subscribe",
  "eth_unsubscribe"
])

type Id = string | number | null

export interface Response {
  readonly jsonrpc: "2.0"
  readonly id: Id
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

const failure = (id: Id, code: number, message: string, data?: unknown): Response =>
  data === undefined
    ? { jsonrpc: "2.0", id, error: { code, message } }
    : { jsonrpc: "2.0", id, error: { code, message, data } }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Answers one request; `undefined` for a notification (no `id`), which gets no answer. */
const one = async (provider: Eip1193Provider, request: unknown): Promise<Response | undefined> => {
  if (!isObject(request)) return failure(null, -32600, "Invalid Request")
  const id: Id = typeof request.id === "string" || typeof request.id === "number" ? request.id : null
  const notification = !("id" in request)
  const { method, params } = request
  if (request.jsonrpc !== "2.0" || typeof method !== "string" || (params !== undefined && typeof params !== "object")) {
    return failure(id, -32600, "Invalid Request")
  }
  let response: Response
  if (!PUBLIC.test(method) || REFUSED.has(method)) {
    response = failure(id, -32601, `Method ${method} is not available on this endpoint`)
  } else {
    try {
      const result = await provider.request({ method, params: (params ?? []) as ReadonlyArray<unknown> })
      response = { jsonrpc: "2.0", id, result: result === undefined ? null : result }
    } catch (e) {
      const code = isObject(e) && typeof e.code === "number" ? e.code : -32603
      const message = e instanceof Error ? e.message : String(e)
      const data = isObject(e) ? e.data : undefined
      response = failure(id, code, message, data)
    }
  }
  return notification ? undefined : response
}

/**
 * Answers a parsed JSON-RPC body: a response object, an array for a batch, or `undefined` when
 * there is nothing to answer (only notifications; the server then replies 204).
 */
export const handle = async (provider: Eip1193Provider, body: unknown): Promise<unknown> => {
  if (!Array.isArray(body)) return one(provider, body)
  if (body.length === 0) return failure(null, -32600, "Invalid Request")
  const responses = (await Promise.all(body.map((r) => one(provider, r)))).filter((r) => r !== undefined)
  return responses.length === 0 ? undefined : responses
}
