/**
 * Publishing a tenant's revocation status lists (decisions §1): the `StatusList2021Credential`
 * at `/tenants/<suffix>/status/<listId>`, signed eddsa-rdfc-2022 by the tenant's Ed25519 key.
 *
 * The credential is signed from the list's bits and the time they last changed: Ed25519 and
 * canonicalization are deterministic, so the same bits give the same document (every process
 * serves the same bytes, hence the same ETag), and a revocation is public the moment its bit is
 * stored. Each read still reads the bits, but signs only when they (or the signing key) changed
 * since the last read: the signed document is remembered per list and version.
 *
 * @since 0.1.0
 */
import { Effect, Option } from "effect"
import * as BoundedMap from "@sigil/core/BoundedMap"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import type { JsonObject } from "@sigil/core/Document"
import * as Eddsa from "@sigil/core/EddsaRdfc2022"
import * as Primitives from "@sigil/core/Primitives"
import { bytesToHex } from "@noble/hashes/utils.js"
import type { TenantId } from "@sigil/core/Ids"
import * as Issuers from "../Tenants/Issuers.js"
import { KeyVault, type SigningKeyUnavailable } from "../Tenants/KeyVault.js"
import { Settings } from "../Settings.js"
import * as StatusList from "@sigil/core/StatusList"
import { StatusSlotStore } from "./StatusSlotStore.js"
import * as TenantDid from "@sigil/core/TenantDid"

/**
 * Where a list is published.
 *
 * @since 0.1.0
 * @category urls
 */
export const url = (publicBaseUrl: string, tenantId: TenantId, listId: number): string =>
  `${TenantDid.urls(publicBaseUrl, tenantId).base}/status/${listId}`

const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, "Z")

/**
 * The signed list credential, or `None` when the tenant has no such list.
 *
 * @since 0.1.0
 * @category documents
 */
export const credential = (
  tenantId: TenantId,
  listId: number
): Effect.Effect<
  Option.Option<JsonObject>,
  SigningKeyUnavailable | Issuers.NoActiveKey | Canonicalizer.CanonicalizationError,
  StatusSlotStore | KeyVault | Settings | Canonicalizer.Canonicalizer
> =>
  Effect.gen(function*() {
    const list = yield* Effect.flatMap(StatusSlotStore, (s) => s.bits(tenantId, listId))
    if (Option.isNone(list)) return Option.none()
    const settings = yield* Settings
    const vault = yield* KeyVault
    const urls = TenantDid.urls(settings.publicBaseUrl, tenantId)
    const keys = yield* vault.keys(tenantId)
    const signingKey = keys.filter((k) => k.kind === "ed25519" && k.revokedAt === undefined).at(-1)
    if (signingKey === undefined) return yield* new Issuers.NoActiveKey({ tenantId, kind: "ed25519" })
    const key = `${settings.publicBaseUrl}|${tenantId}|${listId}`
    // The bits themselves are part of the version: two changes may share a millisecond.
    const version = `${list.value.updatedAt.getTime()}|${signingKey.keyId}|${bytesToHex(Primitives.sha256(list.value.bits))}`
    const remembered = signed.get(key)
    if (remembered !== undefined && remembered.version === version) return Option.some(remembered.document)
    const issued = iso(list.value.updatedAt)
    const unsigned = StatusList.credential({
      id: url(settings.publicBaseUrl, tenantId, listId),
      issuer: urls.did,
      issuanceDate: issued,
      bits: list.value.bits
    })
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsigned))
    const options = { verificationMethod: `${urls.did}#${signingKey.fragment}`, created: issued }
    const proof = yield* Eddsa.sign({
      context: unsigned["@context"],
      documentHash,
      options,
      optionsHash: yield* Eddsa.optionsHash(unsigned["@context"], options),
      sign: (message) => vault.signEd25519(signingKey.keyId, message).pipe(Effect.catchTag("KeyNotFound", Effect.die))
    })
    const document: JsonObject = { ...unsigned, proof }
    signed.set(key, { version, document })
    return Option.some(document)
  })

// The last signed document of each list, by version (its bits, their change time, the signing key),
// oldest out first: a list no longer remembered is signed again when it is read. 4,096 lists: a
// signed list is a few KB (its 16 KB of bits gzip to little while few are set, plus the proof), so
// tens of MB at most, and a list covers 131,072 credentials, so this holds every list of all but
// the largest deployments.
const MAX_REMEMBERED_LISTS = 4_096
const signed = BoundedMap.make<string, { readonly version: string; readonly document: JsonObject }>(MAX_REMEMBERED_LISTS)
