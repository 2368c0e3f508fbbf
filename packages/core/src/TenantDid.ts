/**
 * A tenant's public identity (decisions §3): one DID per tenant,
 * `did:web:{did_host}:tenants:<suffix>`, whose DID document lists the tenant's keys, and the
 * Blockcerts issuer profile its `IssuerProfile` service points to.
 *
 * Why per tenant: `@digitalbazaar/vc` and the Learner Credential Wallet's verifier reject a
 * credential whose issuer does not control the signing key, and cert-verifier-js reads only the
 * first `IssuerProfile` service of a DID document.
 *
 * @since 0.1.0
 */
import * as Contexts from "./Contexts.js"
import type { JsonObject } from "./Document.js"
import * as Ids from "./Ids.js"
import * as Keys from "./Keys.js"
import type { TenantKey } from "./Keys.js"

/**
 * Where a tenant's identity documents live under Sigil's public base URL.
 *
 * @since 0.1.0
 * @category models
 */
export interface Urls {
  readonly did: string
  readonly didDocument: string
  readonly profile: string
  /** `did#key-1`-style ids are built from this. */
  readonly base: string
}

/**
 * The tenant's DID and document URLs. `did:web` percent-encodes the port's colon, so
 * `http://localhost:8080` gives `did:web:localhost%3A8080:tenants:<suffix>`; the documents are
 * served under the base URL's own scheme (https in production, http in local runs).
 *
 * @since 0.1.0
 * @category constructors
 */
export const urls = (publicBaseUrl: string, tenantId: string): Urls => {
  const base = new URL(publicBaseUrl)
  const suffix = Ids.suffix(tenantId)
  const path = base.pathname.replace(/\/+$/, "")
  const hostSegments = [encodeURIComponent(base.host), ...path.split("/").filter((s) => s.length > 0)]
  const root = `${base.origin}${path}/tenants/${suffix}`
  return {
    did: `did:web:${[...hostSegments, "tenants", suffix].join(":")}`,
    didDocument: `${root}/did.json`,
    profile: `${root}/profile.json`,
    base: root
  }
}

/**
 * Where a `did:web` DID's document is fetched from (W3C did:web method §3.2), with the given
 * scheme.
 *
 * @since 0.1.0
 * @category constructors
 */
export const didWebDocumentUrl = (did: string, scheme: "https" | "http" = "https"): string | undefined => {
  const match = /^did:web:([^#?]+)$/.exec(did.split("#")[0]!)
  if (match === null) return undefined
  const [host, ...path] = match[1]!.split(":").map(decodeURIComponent)
  return path.length === 0 ? `${scheme}://${host}/.well-known/did.json` : `${scheme}://${host}/${path.join("/")}/did.json`
}

const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, "Z")

const methodOf = (did: string, key: TenantKey): JsonObject => {
  const publicKey = { kind: key.kind, publicKey: key.publicKey } as const
  const common = {
    id: `${did}#${key.fragment}`,
    controller: did,
    ...(key.revokedAt === undefined ? {} : { revoked: iso(key.revokedAt) })
  }
  return key.kind === "secp256k1"
    ? { ...common, type: "EcdsaSecp256k1VerificationKey2019", publicKeyJwk: Keys.toJwk(publicKey) as unknown as JsonObject }
    : {
      ...common,
      type: "Multikey",
      publicKeyMultibase: Keys.toMultibase(publicKey),
      // cert-verifier-js's eddsa suite reads only publicKeyJwk (research/ob3-vc2.md §6).
      publicKeyJwk: Keys.toJwk(publicKey) as unknown as JsonObject
    }
}

/**
 * The tenant's DID document: every key it has had (rotated and revoked keys stay listed so
 * older credentials keep verifying), each usable for assertions, and the `IssuerProfile`
 * service.
 *
 * @since 0.1.0
 * @category constructors
 */
export const didDocument = (args: {
  readonly urls: Urls
  readonly keys: ReadonlyArray<TenantKey>
}): JsonObject => {
  const { did } = args.urls
  const methods = args.keys.map((key) => methodOf(did, key))
  return {
    "@context": [
      Contexts.DID_V1,
      Contexts.MULTIKEY_V1,
      Contexts.SECP256K1_2019,
      // Multikey's own context has no publicKeyJwk; define it so the document is clean JSON-LD.
      { publicKeyJwk: { "@id": "https://w3id.org/security#publicKeyJwk", "@type": "@json" } }
    ],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id as string),
    service: [{ id: `${did}#issuer-profile`, type: "IssuerProfile", serviceEndpoint: args.urls.profile }]
  }
}

/**
 * The Blockcerts issuer profile: the awarding body and the Ethereum addresses of the tenant's
 * secp256k1 keys with their creation dates — cert-verifier-js checks that the anchoring
 * transaction's sender is one of them and that it was created before the block.
 *
 * @since 0.1.0
 * @category constructors
 */
export const issuerProfile = (args: {
  readonly urls: Urls
  readonly name: string
  readonly url?: string | undefined
  readonly image?: string | undefined
  readonly email?: string | undefined
  readonly keys: ReadonlyArray<TenantKey>
}): JsonObject => ({
  "@context": [Contexts.OPEN_BADGES_V2, Contexts.BLOCKCERTS_V3],
  type: "Profile",
  id: args.urls.profile,
  name: args.name,
  ...(args.url === undefined ? {} : { url: args.url }),
  ...(args.image === undefined ? {} : { image: args.image }),
  ...(args.email === undefined ? {} : { email: args.email }),
  publicKey: args.keys.filter((k) => k.kind === "secp256k1").map((k) => ({
    id: `ecdsa-koblitz-pubkey:${Keys.ethereumAddress(k.publicKey)}`,
    created: iso(k.createdAt),
    ...(k.revokedAt === undefined ? {} : { revoked: iso(k.revokedAt) })
  }))
})
