/**
 * The three ways a credential can publish its revocation status (decisions §1 "Status lists"),
 * each issued offline with core's building blocks — `Document`, `Issuance`, `EddsaRdfc2022`,
 * `StatusList`, `Merkle`, `TenantDid` — by a tenant of its own, anchored on a fake chain:
 *
 * - `statusList2021`: Sigil's form. `StatusList2021Entry` (+ the status-list 2021 context) →
 *   a VC 1.1 `StatusList2021Credential`, `encodedList` = base64url(gzip(bits)) without prefix.
 * - `bitstring`: the W3C recommendation. `BitstringStatusListEntry` (defined by the VC 2.0
 *   context) → a VC 2.0 `BitstringStatusListCredential` whose `encodedList` carries the
 *   multibase `u` prefix the spec requires.
 * - `profileRevocationList`: no `credentialStatus`; the tenant's Blockcerts issuer profile
 *   names a `revocationList` (Open Badges 2.0 `RevocationList` with `revokedAssertions`).
 *
 * Each form issues two credentials: index 0 stays valid, index 1 is revoked.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as Contexts from "@sigil/core/Contexts"
import * as Document from "@sigil/core/Document"
import type { JsonObject } from "@sigil/core/Document"
import * as Eddsa from "@sigil/core/EddsaRdfc2022"
import type { Hash32 } from "@sigil/core/Hex"
import * as Issuance from "@sigil/core/Issuance"
import * as Merkle from "@sigil/core/Merkle"
import * as StatusList from "@sigil/core/StatusList"
import * as TenantDid from "@sigil/core/TenantDid"
import type { Array as Arr } from "effect"
import { Effect, Layer } from "effect"
import { makeTenant, makeWorld, sampleContent, type Tenant } from "@sigil/core/testkit/offlineTenant"

export type FormName = "statusList2021" | "bitstring" | "profileRevocationList" | "bitstringSpecContext" | "bitstringUnprefixed"

/** The three forms of decisions §1. */
export const FORMS: ReadonlyArray<FormName> = ["statusList2021", "bitstring", "profileRevocationList"]

/**
 * Diagnostic variants of the Bitstring form, to tell which property each verifier trips on:
 * the list with only the VC 2.0 context (the spec's own example), and the list without the
 * `u` prefix (what cert-verifier-js decodes; not W3C-conformant).
 */
export const BITSTRING_VARIANTS: ReadonlyArray<FormName> = ["bitstringSpecContext", "bitstringUnprefixed"]

const isBitstring = (form: FormName) => form === "bitstring" || form === "bitstringSpecContext" || form === "bitstringUnprefixed"

export interface IssuedForm {
  readonly form: FormName
  readonly tenant: Tenant
  readonly world: ReturnType<typeof makeWorld>
  /** [valid, revoked] */
  readonly credentials: readonly [JsonObject, JsonObject]
  readonly didDocument: JsonObject
  /** The Blockcerts profile as served (with `revocationList` for that form). */
  readonly profile: JsonObject
  /** URL → document: the status list or revocation list, as served. */
  readonly lists: Readonly<Record<string, JsonObject>>
  readonly txHash: string
  readonly merkleRoot: string
  /** The anchor's block time. */
  readonly anchoredAt: Date
}

const DATA_INTEGRITY_V2 = "https://w3id.org/security/data-integrity/v2"

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z")

const REVOKED_INDEX = 4242
const VALID_INDEX = 77

/** Signs with the tenant's Ed25519 key: an eddsa-rdfc-2022 proof over `unsigned`. */
const eddsaProof = (tenant: Tenant, unsigned: JsonObject, created: Date) =>
  Effect.gen(function*() {
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsigned))
    const options = { verificationMethod: tenant.settings.eddsaMethod, created: iso(created) }
    return yield* Eddsa.sign({
      context: unsigned["@context"],
      documentHash,
      options,
      optionsHash: yield* Eddsa.optionsHash(unsigned["@context"], options),
      sign: (m) => Effect.succeed(ed25519.sign(m, tenant.ed25519Secret))
    })
  })

/** Signs prepared documents as `Issuance.signBatch` does (one canonicalization serves both proofs). */
const signDocuments = (tenant: Tenant, documents: ReadonlyArray<JsonObject>, signedAt: Date) =>
  Effect.gen(function*() {
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const signed = yield* Effect.forEach(documents, (unsigned) =>
      Effect.gen(function*() {
        const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsigned))
        return { document: { ...unsigned, proof: [yield* eddsaProof(tenant, unsigned, signedAt)] }, documentHash }
      }))
    const tree = Merkle.build(signed.map((s) => s.documentHash) as Arr.NonEmptyArray<Uint8Array>)
    return {
      documents: signed.map((s) => s.document),
      targetHashes: signed.map((s) => bytesToHex(s.documentHash)),
      merkleRoot: `0x${Merkle.rootHex(tree)}` as Hash32,
      signedAt
    } satisfies Issuance.SignedBatch
  })

/** Issues the two credentials of one form and publishes its status document. */
export const issueForm = (form: FormName, options: { readonly chainId: number; readonly now: Date }) => {
  const keysCreatedAt = new Date(options.now.getTime() - 3_600_000)
  const signedAt = new Date(options.now.getTime() - 120_000)
  const anchoredAt = new Date(options.now.getTime() - 60_000)
  const tenant = makeTenant({ keysCreatedAt, name: `Status form ${form}` })
  const world = makeWorld([tenant])
  const didDocument = TenantDid.didDocument({ urls: tenant.urls, keys: tenant.keys })
  const baseProfile = TenantDid.issuerProfile({ urls: tenant.urls, name: tenant.settings.issuer.name, keys: tenant.keys })
  const listUrl = form === "profileRevocationList" ? `${tenant.urls.base}/revocations.json` : `${tenant.urls.base}/status/1`
  const contents = [sampleContent(0), sampleContent(1)]
  const indexes = [VALID_INDEX, REVOKED_INDEX]

  return Effect.gen(function*() {
    const unsigned = contents.map((content, i) => {
      const built = Document.build(content, tenant.settings.issuer, {
        tenantId: tenant.tenantId,
        recipientNameMode: "hashed",
        status: form === "statusList2021" ? { statusListCredential: listUrl, statusListIndex: indexes[i]! } : undefined
      })
      if (!isBitstring(form)) return built
      return {
        ...built,
        credentialStatus: {
          id: `${listUrl}#${indexes[i]}`,
          type: "BitstringStatusListEntry",
          statusPurpose: "revocation",
          statusListIndex: String(indexes[i]),
          statusListCredential: listUrl
        }
      } satisfies JsonObject
    })
    const batch = yield* signDocuments(tenant, unsigned, signedAt)
    const anchor = world.anchor(batch.merkleRoot, tenant.address, anchoredAt, options.chainId)
    const [valid, revoked] = Issuance.complete(batch, tenant.settings, anchor) as [JsonObject, JsonObject]

    let profile = baseProfile
    let list: JsonObject
    if (form === "statusList2021") {
      list = yield* world.publishStatusList(tenant, listUrl, [REVOKED_INDEX], anchoredAt)
    } else if (isBitstring(form)) {
      const encoded = StatusList.encode(StatusList.set(StatusList.empty(), REVOKED_INDEX))
      const unsignedList: JsonObject = {
        // cert-verifier-js refuses a credential with two types and one context ("More specific
        // type … but no additional context"), so the list names the Data Integrity context too
        // (harmless: VC 2.0 defines the same terms) — except in the spec-example variant.
        "@context": form === "bitstringSpecContext" ? [Contexts.VC_V2] : [Contexts.VC_V2, DATA_INTEGRITY_V2],
        id: listUrl,
        type: ["VerifiableCredential", "BitstringStatusListCredential"],
        issuer: tenant.urls.did,
        validFrom: iso(anchoredAt),
        credentialSubject: {
          id: `${listUrl}#list`,
          type: "BitstringStatusList",
          statusPurpose: "revocation",
          encodedList: form === "bitstringUnprefixed" ? encoded : `u${encoded}`
        }
      }
      list = { ...unsignedList, proof: yield* eddsaProof(tenant, unsignedList, anchoredAt) }
      world.statusLists.put(listUrl, list)
    } else {
      profile = { ...baseProfile, revocationList: listUrl }
      world.resolver.putProfile(tenant.urls.profile, profile)
      list = {
        "@context": Contexts.OPEN_BADGES_V2,
        id: listUrl,
        type: "RevocationList",
        issuer: tenant.urls.profile,
        revokedAssertions: [{ id: revoked.id as string, revocationReason: "Issued in error" }]
      }
      world.statusLists.put(listUrl, list)
    }
    return {
      form,
      tenant,
      world,
      credentials: [valid, revoked],
      didDocument,
      profile,
      lists: { [listUrl]: list },
      txHash: anchor.txHash,
      merkleRoot: batch.merkleRoot,
      anchoredAt
    } satisfies IssuedForm
    // Signed over the reference RDFC-1.0 implementation (jsonld.js), whatever core's offline
    // world uses, so the matrix measures the forms and nothing else.
  }).pipe(Effect.provide(Layer.merge(world.layer, Canonicalizer.layerJsonld)))
}
