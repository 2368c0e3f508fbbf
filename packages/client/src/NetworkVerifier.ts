/**
 * Verifying a credential on this machine with core's verifier (`Verifier.verifyCredential`):
 * nothing is asked of Sigil's API. The verifier's ports read public documents over `fetch` —
 * the issuer's `did:web` document and Blockcerts profile, the status list — and the anchor
 * transaction from the chain's JSON-RPC; the verifier checks what they say.
 *
 * Chains by EVM chain id: Base (8453) and Base Sepolia (84532) through their public RPC
 * endpoints by default, Sigil's devnet (31337) through `<SIGIL_BASE_URL>/devnet/rpc`; any of
 * them can be replaced (`rpc`). `did:web` documents are fetched over https, except for
 * loopback hosts and the `localOrigins` (local runs of Sigil serve http).
 *
 * @since 0.1.0
 */
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as ChainReader from "@sigil/core/ChainReader"
import * as Chains from "@sigil/core/Chains"
import * as DidResolver from "@sigil/core/DidResolver"
import type { JsonObject } from "@sigil/core/Document"
import * as StatusListReader from "@sigil/core/StatusListReader"
import * as TenantDid from "@sigil/core/TenantDid"
import * as Verifier from "@sigil/core/Verifier"
import { Context, Duration, Effect, Layer, Option } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** JSON-RPC endpoint per EVM chain id. */
  readonly rpc: { readonly [chainId: string]: string }
  /** Origins whose `did:web` DIDs are fetched with their own scheme (http in local runs). */
  readonly localOrigins?: ReadonlyArray<string> | undefined
  /** Per request. Default 20 s. */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * The default JSON-RPC endpoints: Base's public ones, and the devnet of the Sigil at `baseUrl`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultRpc = (baseUrl: string | undefined): { readonly [chainId: string]: string } => ({
  "8453": "https://mainnet.base.org",
  "84532": "https://sepolia.base.org",
  ...(baseUrl === undefined ? {} : { [String(Chains.DEVNET_CHAIN_ID)]: `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/devnet/rpc` })
})

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

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

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])

const didDocumentUrl = (options: Options, did: string): string | undefined => {
  const https = TenantDid.didWebDocumentUrl(did, "https")
  if (https === undefined) return undefined
  const url = new URL(https)
  const local = (options.localOrigins ?? []).map((o) => new URL(o)).find((o) => o.host === url.host)
  const http = local?.protocol === "http:" || LOOPBACK.has(url.hostname)
  return http ? TenantDid.didWebDocumentUrl(did, "http") : https
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
      catch: (error) => new ChainReader.ChainUnavailable({ chain, message: `${method} at ${url}: ${errorText(error)}` })
    }).pipe(Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => new ChainReader.ChainUnavailable({ chain, message: `${method} at ${url}: timed out` })
    }))

  return {
    getTransaction: (chain, hash) =>
      Effect.gen(function*() {
        const key = ChainReader.chainKey(chain)
        if (chain.family !== "eth") {
          return yield* new ChainReader.ChainUnavailable({ chain: key, message: "only EVM chains are read" })
        }
        const url = options.rpc[String(chain.chainId)]
        if (url === undefined) {
          return yield* new ChainReader.ChainUnavailable({
            chain: key,
            message: `no JSON-RPC endpoint for chain ${chain.chainId} (pass --rpc ${chain.chainId}=<url>)`
          })
        }
        if (!HASH.test(hash)) return Option.none()
        const normalized = `0x${hash.replace(/^0x/, "").toLowerCase()}`
        const tx = yield* call<
          { hash: string; input: string; from: string; blockNumber: string | null; blockHash: string | null } | null
        >(key, url, "eth_getTransactionByHash", [normalized])
        if (tx === null || tx === undefined) return Option.none()
        const base = { hash: tx.hash, input: tx.input, from: tx.from }
        const pending = { ...base, blockNumber: undefined, blockTimestamp: undefined, confirmations: 0 }
        if (tx.blockNumber === null) return Option.some(pending)
        const [block, head] = yield* Effect.all([
          call<{ hash: string; timestamp: string } | null>(key, url, "eth_getBlockByNumber", [tx.blockNumber, false]),
          call<string>(key, url, "eth_blockNumber", [])
        ], { concurrency: 2 })
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
 *
 * @since 0.1.0
 * @category layers
 */
export const ports = (
  options: Options
): Layer.Layer<DidResolver.DidResolver | StatusListReader.StatusListReader | ChainReader.ChainReader> => {
  const timeout = options.timeout ?? Duration.seconds(20)
  const resolver: DidResolver.Service = {
    resolveDid: (did) => {
      const url = didDocumentUrl(options, did)
      if (url === undefined) return Effect.succeed(Option.none())
      return getJson(url, timeout).pipe(
        Effect.mapError((message) => new DidResolver.ResolutionUnavailable({ id: did, message: `${url}: ${message}` }))
      )
    },
    resolveProfile: (url) =>
      getJson(url, timeout).pipe(
        Effect.mapError((message) => new DidResolver.ResolutionUnavailable({ id: url, message: `${url}: ${message}` }))
      )
  }
  const statusReader: StatusListReader.Service = {
    read: (url) =>
      getJson(url, timeout).pipe(
        Effect.mapError((message) => new StatusListReader.StatusListUnavailable({ url, message: `${url}: ${message}` }))
      )
  }
  return Layer.succeedContext(
    Context.make(DidResolver.DidResolver, resolver).pipe(
      Context.add(StatusListReader.StatusListReader, statusReader),
      Context.add(ChainReader.ChainReader, chainReader(options, timeout))
    )
  )
}

/**
 * The signed document of what a file holds: a signed credential, or an API `Credential`
 * (`{…, signed_credential}`).
 *
 * @since 0.1.0
 * @category verification
 */
export const documentOf = (json: unknown): unknown =>
  isObject(json) && isObject(json.signed_credential) && json.proof === undefined ? json.signed_credential : json

/**
 * Verifies a credential with the network ports and the jsonld.js canonicalizer.
 *
 * @since 0.1.0
 * @category verification
 */
export const verify = (
  document: unknown,
  options: Options & Verifier.Options
): Promise<Verifier.Result> =>
  Verifier.verifyCredential(documentOf(document), { now: options.now, onStep: options.onStep }).pipe(
    Effect.provide(Layer.merge(ports(options), Canonicalizer.layerJsonld)),
    Effect.runPromise
  )
