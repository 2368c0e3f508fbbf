/**
 * Port: resolves an issuer's identity for the verifier — DID documents by DID, and the
 * Blockcerts issuer profile (a hosted JSON document) by URL.
 *
 * Sigil's server resolves its own tenants' `did:web` DIDs from its store; outside it, a
 * verifier resolves `did:web` over HTTPS. `layerMemory` serves given documents (tests, offline
 * replays).
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import type { JsonObject } from "./Document.js"

/**
 * The resolver could not answer (network, server error). Distinct from "no such DID", which
 * is `None`.
 *
 * @since 0.1.0
 * @category errors
 */
export class ResolutionUnavailable extends Schema.TaggedError<ResolutionUnavailable>()("ResolutionUnavailable", {
  id: Schema.String,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The DID document of a DID (without fragment). */
  readonly resolveDid: (did: string) => Effect.Effect<Option.Option<JsonObject>, ResolutionUnavailable>
  /** A hosted issuer profile (or other issuer document) by URL. */
  readonly resolveProfile: (url: string) => Effect.Effect<Option.Option<JsonObject>, ResolutionUnavailable>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class DidResolver extends Context.Tag("@sigil/core/DidResolver")<DidResolver, Service>() {}

/**
 * The DID part of a DID URL (`did:web:x:tenants:y#key-1` → `did:web:x:tenants:y`).
 *
 * @since 0.1.0
 * @category combinators
 */
export const didOf = (didUrl: string): string => didUrl.split("#")[0]!.split("?")[0]!

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (documents: {
  readonly dids?: Iterable<readonly [string, JsonObject]>
  readonly profiles?: Iterable<readonly [string, JsonObject]>
} = {}) => {
  const dids = new Map(documents.dids ?? [])
  const profiles = new Map(documents.profiles ?? [])
  const service: Service = {
    resolveDid: (did) => Effect.sync(() => Option.fromNullable(dids.get(didOf(did)))),
    resolveProfile: (url) => Effect.sync(() => Option.fromNullable(profiles.get(url.split("#")[0]!)))
  }
  return {
    service,
    putDid: (did: string, document: JsonObject) => void dids.set(did, document),
    putProfile: (url: string, document: JsonObject) => void profiles.set(url, document)
  }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (documents: Parameters<typeof makeMemory>[0] = {}): Layer.Layer<DidResolver> =>
  Layer.succeed(DidResolver, makeMemory(documents).service)
