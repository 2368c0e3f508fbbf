/**
 * A JSON-RPC endpoint that plays Base Sepolia (chain id 84532) and rejects every transaction,
 * as a node does with a transaction it will never accept. Pointed to by `BASE_SEPOLIA_RPC_URL`,
 * it makes the server's anchoring meet a real chain rejection (decisions §4: the one way a
 * batch fails for good), with nothing in the server changed.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export const REJECTION = "transaction type not supported"

export interface RejectingChain {
  readonly url: string
  /** Every method called, in order. */
  readonly calls: () => ReadonlyArray<string>
  readonly close: () => Promise<void>
}

const hex = (n: number | bigint) => `0x${n.toString(16)}`

export const startRejectingChain = (): Promise<RejectingChain> =>
  new Promise((resolve, reject) => {
    const calls: Array<string> = []
    const answer = (method: string, params: ReadonlyArray<unknown>): { result: unknown } | { error: { code: number; message: string } } => {
      switch (method) {
        case "eth_chainId":
          return { result: hex(84532) }
        case "eth_blockNumber":
          return { result: hex(1) }
        case "eth_getBlockByNumber":
          return {
            result: {
              number: hex(1),
              hash: `0x${"11".repeat(32)}`,
              parentHash: `0x${"00".repeat(32)}`,
              timestamp: hex(Math.floor(Date.now() / 1000)),
              baseFeePerGas: hex(1_000_000),
              transactions: []
            }
          }
        case "eth_maxPriorityFeePerGas":
          return { result: hex(1_000) }
        case "eth_gasPrice":
          return { result: hex(1_001_000) }
        case "eth_getTransactionCount":
          return { result: hex(0) }
        case "eth_getBalance":
          // Plenty: no top-up from the treasury is needed.
          return { result: hex(10n ** 20n) }
        case "eth_getTransactionReceipt":
        case "eth_getTransactionByHash":
          return { result: null }
        case "eth_sendRawTransaction":
          return { error: { code: -32000, message: REJECTION } }
        default:
          return { error: { code: -32601, message: `the method ${method} does not exist (${JSON.stringify(params)})` } }
      }
    }
    const server: Server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        const handle = (call: { id: unknown; method: string; params?: ReadonlyArray<unknown> }) => {
          calls.push(call.method)
          return { jsonrpc: "2.0", id: call.id, ...answer(call.method, call.params ?? []) }
        }
        const parsed = JSON.parse(body)
        res.writeHead(200, { "content-type": "application/json" })
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(handle) : handle(parsed)))
      })
    })
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        calls: () => [...calls],
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      }))
  })
