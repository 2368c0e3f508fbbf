/**
 * The verifier's ports in a browser, over `fetch`: `did:web` documents and issuer profiles,
 * status lists, and anchor transactions read from the chain's JSON-RPC. Nothing here trusts
 * Sigil's server beyond fetching public documents: the verifier checks what they say.
 *
 * Part of the browser bundle: imports only browser-safe core modules.
 */
import * as ChainReader from "@sigil/core/ChainReader"
import * as DidResolver from "@sigil/core/DidResolver"
import type { JsonObject } from "@sigil/core/Document"
import * as StatusListReader from "@sigil/core/StatusListReader"
import * as TenantDid from "@sigil/core/TenantDid"
import { Context, Duration, Effect, Layer, Option } from "effect"

export interface Options {
  /** JSON-RPC endpoint per EVM chain id. */
  readonly rpc: { readonly [chainId: string]: string }
  /**
   * Origins whose `did:web` DIDs are fetched with their own scheme rather than https: the
   * page's and Sigil's public base URL (http in local runs).
   */
  readonly localOrigins: ReadonlyArray<string>
  readonly timeout?: Duration.DurationInput
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

/** A JSON document by URL: `None` on 404/410, a failure (with the reason) otherwise. */
const getJson = (url: string, timeout: Duration.DurationInput): Effect.Effect<Option.Option<JsonObject>, string> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, { signal, headers: { accept: "application/json, application/ld+json" } })
      if (response.status === 404 || response.status === 410) return Option.none<JsonObject>()
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      const body: unknown = await response.json()
      if (!isObject(body)) throw new Error("not a JSON object")
      return Option.some(body)
    },
    catch: errorText
  }).pipe(Effect.timeoutFail({ duration: timeout, onTimeout: () => "timed out" }))

/** The `did:web` document URL: https, unless the DID's host is one of the local origins' (then their scheme). */
const didDocumentUrl = (options: Options, did: string): string | undefined => {
  const https = TenantDid.didWebDocumentUrl(did, "https")
  if (https === undefined) return undefined
  const host = new URL(https).host
  const local = options.localOrigins.map((o) => new URL(o)).find((o) => o.host === host)
  return local?.protocol === "http:" ? TenantDid.didWebDocumentUrl(did, "http") : https
}

const didResolver = (options: Options, timeout: Duration.DurationInput): DidResolver.Service => ({
  resolveDid: (did) => {
    const url = didDocumentUrl(options, did)
    // did:key is resolved by the verifier itself; other methods need a resolver we do not have.
    if (url === undefined) return Effect.succeed(Option.none())
    return getJson(url, timeout).pipe(Effect.mapError((message) => new DidResolver.ResolutionUnavailable({ id: did, message: `${url}: ${message}` })))
  },
  resolveProfile: (url) =>
    getJson(url, timeout).pipe(Effect.mapError((message) => new DidResolver.ResolutionUnavailable({ id: url, message: `${url}: ${message}` })))
})

const statusReader = (timeout: Duration.DurationInput): StatusListReader.Service => ({
  read: (url) =>
    getJson(url, timeout).pipe(Effect.mapError((message) => new StatusListReader.StatusListUnavailable({ url, message: `${url}: ${message}` })))
})

interface RpcTransaction {
  readonly hash: string
  readonly input: string
  readonly from: string
  readonly blockNumber: string | null
  readonly blockHash: string | null
}

interface RpcBlock {
  readonly hash: string
  readonly timestamp: string
}

const HASH = /^(0x)?[0-9a-fA-F]{64}$/

const chainReader = (options: Options, timeout: Duration.DurationInput): ChainReader.Service => {
  let nextId = 1
  const call = <A>(chain: string, url: string, method: string, params: ReadonlyArray<unknown>) =>
    Effect.tryPromise({
      try: async (signal) => {
        const response = await fetch(url, {
          method: "POST",
          signal,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params })
        })
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        const body = await response.json() as { result?: A; error?: { message?: string } }
        if (body.error !== undefined) throw new Error(body.error.message ?? "JSON-RPC error")
        return body.result as A
      },
      catch: (error) => new ChainReader.ChainUnavailable({ chain, message: `${method}: ${errorText(error)}` })
    }).pipe(Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => new ChainReader.ChainUnavailable({ chain, message: `${method}: timed out` })
    }))

  return {
    getTransaction: (chain, hash) =>
      Effect.gen(function*() {
        const key = ChainReader.chainKey(chain)
        if (chain.family !== "eth") {
          return yield* new ChainReader.ChainUnavailable({ chain: key, message: "this page reads EVM chains only" })
        }
        const url = options.rpc[String(chain.chainId)]
        if (url === undefined) {
          return yield* new ChainReader.ChainUnavailable({ chain: key, message: `no JSON-RPC endpoint is configured for chain ${chain.chainId}` })
        }
        if (!HASH.test(hash)) return Option.none()
        const normalized = `0x${hash.replace(/^0x/, "").toLowerCase()}`
        const tx = yield* call<RpcTransaction | null>(key, url, "eth_getTransactionByHash", [normalized])
        if (tx === null || tx === undefined) return Option.none()
        const base = { hash: tx.hash, input: tx.input, from: tx.from }
        const pending = { ...base, blockNumber: undefined, blockTimestamp: undefined, confirmations: 0 }
        if (tx.blockNumber === null) return Option.some(pending)
        const [block, head] = yield* Effect.all([
          call<RpcBlock | null>(key, url, "eth_getBlockByNumber", [tx.blockNumber, false]),
          call<string>(key, url, "eth_blockNumber", [])
        ], { concurrency: 2 })
        // Reorged between the reads: report it as pending, as the server's reader does.
        if (block === null || block === undefined || (tx.blockHash !== null && block.hash !== tx.blockHash)) {
          return Option.some(pending)
        }
        const blockNumber = Number(BigInt(tx.blockNumber))
        return Option.some({
          ...base,
          blockNumber,
          blockTimestamp: new Date(Number(BigInt(block.timestamp)) * 1000),
          confirmations: Math.max(1, Number(BigInt(head)) - blockNumber + 1)
        })
      })
  }
}

/**
 * `DidResolver`, `StatusListReader` and `ChainReader` over `fetch`.
 */
export const layer = (
  options: Options
): Layer.Layer<DidResolver.DidResolver | StatusListReader.StatusListReader | ChainReader.ChainReader> => {
  const timeout = options.timeout ?? Duration.seconds(20)
  return Layer.succeedContext(
    Context.make(DidResolver.DidResolver, didResolver(options, timeout)).pipe(
      Context.add(StatusListReader.StatusListReader, statusReader(timeout)),
      Context.add(ChainReader.ChainReader, chainReader(options, timeout))
    )
  )
}
