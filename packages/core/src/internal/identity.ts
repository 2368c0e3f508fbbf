/**
 * Resolving who issued a credential: DID documents (did:web through the `DidResolver`,
 * did:key locally), Blockcerts issuer profiles, and verification methods by id.
 *
 * @internal
 */
import { Effect, Either, Option } from "effect"
import * as DidResolver from "../DidResolver.js"
import type { JsonObject } from "../Document.js"
import * as Keys from "../Keys.js"

/** @internal */
export type Failure = { readonly _tag: "Failure"; readonly message: string }

/** @internal */
export const failure = (message: string): Failure => ({ _tag: "Failure", message })

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

const asList = (u: unknown): ReadonlyArray<unknown> => (Array.isArray(u) ? u : u === undefined ? [] : [u])

const hasType = (node: JsonObject, type: string): boolean =>
  asList(node.type).some((t) => typeof t === "string" && t.toLowerCase() === type.toLowerCase())

/**
 * A did:key DID document, built locally (no resolution needed).
 *
 * @internal
 */
export const didKeyDocument = (did: string): JsonObject | undefined => {
  const multibase = did.slice("did:key:".length)
  const key = Keys.fromMultibase(multibase)
  if (Either.isLeft(key)) return undefined
  const id = `${did}#${multibase}`
  return {
    id: did,
    verificationMethod: [{ id, type: "Multikey", controller: did, publicKeyMultibase: multibase }],
    assertionMethod: [id]
  }
}

/**
 * Resolves documents once per verification: the same DID or profile is asked for by several
 * steps.
 *
 * @internal
 */
export const makeCache = (resolver: DidResolver.Service) => {
  const dids = new Map<string, Either.Either<JsonObject, Failure>>()
  const profiles = new Map<string, Either.Either<JsonObject, Failure>>()
  const memo = (map: Map<string, Either.Either<JsonObject, Failure>>, key: string, load: Effect.Effect<Either.Either<JsonObject, Failure>>) =>
    Effect.suspend(() => {
      const hit = map.get(key)
      return hit !== undefined ? Effect.succeed(hit) : Effect.tap(load, (r) => Effect.sync(() => map.set(key, r)))
    }).pipe(Effect.flatMap((r) => Either.isRight(r) ? Effect.succeed(r.right) : Effect.fail(r.left)))

  const didDocument = (didUrl: string): Effect.Effect<JsonObject, Failure> => {
    const did = DidResolver.didOf(didUrl)
    if (did.startsWith("did:key:")) {
      const document = didKeyDocument(did)
      return document === undefined ? Effect.fail(failure(`cannot read the key of ${did}`)) : Effect.succeed(document)
    }
    return memo(
      dids,
      did,
      resolver.resolveDid(did).pipe(
        Effect.map(Option.match({
          onNone: () => Either.left(failure(`the DID ${did} cannot be resolved`)),
          onSome: (d) => isObject(d) ? Either.right(d) : Either.left(failure(`the DID document of ${did} is not an object`))
        })),
        Effect.catchAll((e) => Effect.succeed(Either.left(failure(`the DID ${did} could not be resolved: ${e.message}`))))
      )
    )
  }

  const profile = (url: string): Effect.Effect<JsonObject, Failure> =>
    memo(
      profiles,
      url,
      resolver.resolveProfile(url).pipe(
        Effect.map(Option.match({
          onNone: () => Either.left(failure(`the issuer profile ${url} cannot be found`)),
          onSome: (d) => isObject(d) ? Either.right(d) : Either.left(failure(`the issuer profile ${url} is not an object`))
        })),
        Effect.catchAll((e) => Effect.succeed(Either.left(failure(`the issuer profile ${url} could not be read: ${e.message}`))))
      )
    )

  return { didDocument, profile }
}

/** @internal */
export type Cache = ReturnType<typeof makeCache>

/**
 * The issuer's id: a string issuer, or the `id` of an issuer object.
 *
 * @internal
 */
export const issuerId = (document: JsonObject): string | undefined => {
  const issuer = document.issuer
  if (typeof issuer === "string") return issuer
  return isObject(issuer) && typeof issuer.id === "string" ? issuer.id : undefined
}

/**
 * A verification method of a DID document or profile, by full id or by `#fragment` (did:ion
 * documents use relative ids).
 *
 * @internal
 */
export const findMethod = (container: JsonObject, methodId: string): JsonObject | undefined => {
  const fragment = methodId.includes("#") ? `#${methodId.split("#")[1]}` : undefined
  const base = typeof container.id === "string" ? container.id : ""
  return asList(container.verificationMethod).filter(isObject).find((vm) => {
    const id = vm.id
    return typeof id === "string" && (id === methodId || (fragment !== undefined && (id === fragment || `${base}${id}` === methodId)))
  })
}

/**
 * Is the method listed under `assertionMethod` (by reference or embedded)? Documents without
 * an `assertionMethod` list are not held to it (hosted Blockcerts profiles often have none).
 *
 * @internal
 */
export const isAssertionMethod = (container: JsonObject, method: JsonObject): boolean => {
  if (container.assertionMethod === undefined) return true
  const id = method.id as string
  const fragment = id.includes("#") ? `#${id.split("#")[1]}` : id
  return asList(container.assertionMethod).some((entry) => {
    const ref = typeof entry === "string" ? entry : isObject(entry) ? entry.id : undefined
    return ref === id || ref === fragment
  })
}

/**
 * The Blockcerts issuer profile of a DID issuer: the first `IssuerProfile` service, as
 * cert-verifier-js reads it.
 *
 * @internal
 */
export const profileServiceUrl = (didDocument: JsonObject): string | undefined => {
  for (const service of asList(didDocument.service).filter(isObject)) {
    if (!hasType(service, "IssuerProfile")) continue
    const endpoint = service.serviceEndpoint
    if (typeof endpoint === "string") return endpoint
    if (isObject(endpoint) && typeof endpoint.id === "string") return endpoint.id
  }
  return undefined
}

/**
 * Where the issuer's identity lives: for a DID issuer its DID document and the profile its
 * `IssuerProfile` service points to; for a URL issuer, the hosted profile.
 *
 * @internal
 */
export const issuerDocuments = (
  cache: Cache,
  issuer: string
): Effect.Effect<{ readonly didDocument: JsonObject | undefined; readonly profile: JsonObject }, Failure> =>
  Effect.gen(function*() {
    if (issuer.startsWith("did:")) {
      const didDocument = yield* cache.didDocument(issuer)
      const url = profileServiceUrl(didDocument)
      if (url === undefined) return yield* Effect.fail(failure(`the DID document of ${issuer} has no IssuerProfile service`))
      return { didDocument, profile: yield* cache.profile(url) }
    }
    return { didDocument: undefined, profile: yield* cache.profile(issuer) }
  }).pipe(
    Effect.filterOrFail(
      ({ profile }) => ["Profile", "Issuer", "BlockcertsIssuerProfile"].some((t) => hasType(profile, t)),
      () => failure("the issuer profile's type is not Profile, Issuer or BlockcertsIssuerProfile")
    )
  )

/**
 * The document that holds a verification method: the DID document of a DID URL, or the
 * profile at the URL before `#`.
 *
 * @internal
 */
export const methodOwner = (cache: Cache, methodId: string): Effect.Effect<JsonObject, Failure> =>
  methodId.startsWith("did:") ? cache.didDocument(methodId) : cache.profile(methodId.split("#")[0]!)

/**
 * The `publicKey` entries of a Blockcerts profile (`ecdsa-koblitz-pubkey:<address>`).
 *
 * @internal
 */
export const profileKeys = (profile: JsonObject): ReadonlyArray<{
  readonly address: string
  readonly created: Date | undefined
  readonly revoked: Date | undefined
  readonly expires: Date | undefined
}> =>
  asList(profile.publicKey).filter(isObject).flatMap((entry) => {
    const id = entry.id
    if (typeof id !== "string") return []
    const date = (u: unknown) => (typeof u === "string" && !Number.isNaN(Date.parse(u)) ? new Date(u) : undefined)
    return [{
      address: id.replace(/^ecdsa-koblitz-pubkey:/, ""),
      created: date(entry.created),
      revoked: date(entry.revoked),
      expires: date(entry.expires)
    }]
  })
