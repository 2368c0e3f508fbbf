/**
 * Sigil's verifier pointed at a running server, the way an outside verifier uses it: DID
 * documents, issuer profiles and status lists fetched over HTTP from `/tenants/...`, anchors
 * read over `/devnet/rpc`. Nothing is read from the server's store.
 */
import * as ChainConfig from "@sigil/anchor-base/ChainConfig"
import * as EvmChainReader from "@sigil/anchor-base/EvmChainReader"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as Chains from "@sigil/core/Chains"
import * as DidResolver from "@sigil/core/DidResolver"
import type { JsonObject } from "@sigil/core/Document"
import * as StatusListReader from "@sigil/core/StatusListReader"
import * as TenantDid from "@sigil/core/TenantDid"
import * as Verifier from "@sigil/core/Verifier"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"

const getJson = (url: string) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(url)
      if (response.status === 404) return Option.none<JsonObject>()
      if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`)
      return Option.some((await response.json()) as JsonObject)
    },
    catch: (e) => (e instanceof Error ? e.message : String(e))
  })

/** The scheme a `did:web` of this server resolves with: the public base URL's (http locally). */
const schemeOf = (baseUrl: string) => (new URL(baseUrl).protocol === "http:" ? "http" : "https")

export interface LiveVerifier {
  readonly layer: Layer.Layer<Verifier.Requirements>
  /** Verifies one credential now (status lists are read fresh on every call). */
  readonly verify: (credential: unknown) => Promise<Verifier.Result>
  /** Every URL fetched so far. */
  readonly fetched: () => ReadonlyArray<string>
  readonly dispose: () => Promise<void>
}

export const liveVerifier = (baseUrl: string): LiveVerifier => {
  const fetched: Array<string> = []
  // DID documents and profiles do not change during a test; status lists do (revocation).
  const cache = new Map<string, Option.Option<JsonObject>>()
  const cached = (url: string) =>
    Effect.suspend(() => {
      const hit = cache.get(url)
      if (hit !== undefined) return Effect.succeed(hit)
      fetched.push(url)
      return Effect.tap(getJson(url), (doc) => Effect.sync(() => cache.set(url, doc)))
    })
  const resolver: DidResolver.Service = {
    resolveDid: (did) => {
      const url = TenantDid.didWebDocumentUrl(DidResolver.didOf(did), schemeOf(baseUrl))
      if (url === undefined) return Effect.succeed(Option.none())
      return cached(url).pipe(Effect.mapError((message) => new DidResolver.ResolutionUnavailable({ id: did, message })))
    },
    resolveProfile: (url) =>
      cached(url.split("#")[0]!).pipe(Effect.mapError((message) => new DidResolver.ResolutionUnavailable({ id: url, message })))
  }
  const statusReader: StatusListReader.Service = {
    read: (url) =>
      Effect.suspend(() => {
        fetched.push(url)
        return getJson(url)
      }).pipe(Effect.mapError((message) => new StatusListReader.StatusListUnavailable({ url, message })))
  }
  const layer = Layer.mergeAll(
    Canonicalizer.layerJsonld,
    EvmChainReader.layer({
      chains: [{ chainId: Chains.DEVNET_CHAIN_ID, rpc: ChainConfig.rpcUrl(Redacted.make(`${baseUrl}/devnet/rpc`)) }]
    }),
    Layer.succeed(DidResolver.DidResolver, resolver),
    Layer.succeed(StatusListReader.StatusListReader, statusReader)
  )
  const runtime = ManagedRuntime.make(layer)
  return {
    layer,
    verify: (credential) => runtime.runPromise(Verifier.verifyCredential(credential)),
    fetched: () => [...fetched],
    dispose: () => runtime.dispose()
  }
}
