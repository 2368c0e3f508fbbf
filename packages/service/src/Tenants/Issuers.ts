/**
 * A tenant as an issuer: its DID, the name credentials show, the keys that sign, and its public
 * identity documents (the DID document and the Blockcerts profile the server publishes).
 *
 * @since 0.1.0
 */
import { Effect, Option, Schema } from "effect"
import type * as Issuance from "@sigil/core/Issuance"
import type { TenantId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { JsonObject } from "@sigil/core/Document"
import type { SigningKeyUnavailable, TenantKey } from "./KeyVault.js"
import { activeKey, KeyVault } from "./KeyVault.js"
import * as Keys from "@sigil/core/Keys"
import type { Tenant } from "./TenantStore.js"
import { TenantStore } from "./TenantStore.js"
import * as TenantDid from "@sigil/core/TenantDid"

/**
 * The tenant has no usable key of a kind (every one revoked): it cannot sign until a new key is
 * generated.
 *
 * @since 0.1.0
 * @category errors
 */
export class NoActiveKey extends Schema.TaggedError<NoActiveKey>()("NoActiveKey", {
  tenantId: Schema.String,
  kind: Schema.String
}) {}

/**
 * The name credentials show as issuer: the awarding body's, else the display name, else the
 * tenant's name (decisions §1).
 *
 * @since 0.1.0
 * @category models
 */
export const issuerName = (tenant: Tenant): string => tenant.awardingBody?.name ?? tenant.displayName ?? tenant.name

/**
 * How the tenant issues right now: its DID, its awarding body, its active keys.
 *
 * @since 0.1.0
 * @category constructors
 */
export const settings = (
  publicBaseUrl: string,
  tenant: Tenant,
  keys: ReadonlyArray<TenantKey>
): Effect.Effect<{ readonly settings: Issuance.IssuerSettings; readonly signingKey: TenantKey; readonly anchorKey: TenantKey }, NoActiveKey> => {
  const urls = TenantDid.urls(publicBaseUrl, tenant.id)
  const signingKey = activeKey(keys, "ed25519")
  const anchorKey = activeKey(keys, "secp256k1")
  if (signingKey === undefined) return Effect.fail(new NoActiveKey({ tenantId: tenant.id, kind: "ed25519" }))
  if (anchorKey === undefined) return Effect.fail(new NoActiveKey({ tenantId: tenant.id, kind: "secp256k1" }))
  return Effect.succeed({
    signingKey,
    anchorKey,
    settings: {
      tenantId: tenant.id,
      issuer: {
        did: urls.did,
        name: issuerName(tenant),
        url: tenant.awardingBody?.url,
        image: tenant.awardingBody?.logoUrl
      },
      recipientNameMode: tenant.recipientNameMode,
      eddsaMethod: `${urls.did}#${signingKey.fragment}`,
      merkleMethod: `${urls.did}#${anchorKey.fragment}`
    }
  })
}

/**
 * The secp256k1 key of the tenant whose Ethereum address is `address` (the sender of an
 * anchoring transaction), whatever its state now.
 *
 * @since 0.1.0
 * @category lookups
 */
export const keyOfAddress = (keys: ReadonlyArray<TenantKey>, address: string): TenantKey | undefined =>
  keys.find((k) => k.kind === "secp256k1" && Keys.ethereumAddress(k.publicKey) === address.toLowerCase())

/**
 * The tenant's public identity documents, by the tenant-id suffix of their URL
 * (`/tenants/<suffix>/did.json`, `/tenants/<suffix>/profile.json`).
 *
 * @since 0.1.0
 * @category documents
 */
export const documents = (
  publicBaseUrl: string,
  suffix: string
): Effect.Effect<
  Option.Option<{ readonly didDocument: JsonObject; readonly profile: JsonObject; readonly tenant: Tenant }>,
  SigningKeyUnavailable,
  TenantStore | KeyVault
> =>
  Effect.gen(function*() {
    if (!/^[0-9a-z]{26}$/.test(suffix)) return Option.none()
    const tenantId = `tnt_${suffix.toUpperCase()}` as TenantId
    if (!Schema.is(Ids.TenantId)(tenantId)) return Option.none()
    const tenant = yield* Effect.flatMap(TenantStore, (s) => s.get(tenantId))
    if (Option.isNone(tenant)) return Option.none()
    const keys = yield* Effect.flatMap(KeyVault, (v) => v.keys(tenantId))
    const urls = TenantDid.urls(publicBaseUrl, tenantId)
    return Option.some({
      tenant: tenant.value,
      didDocument: TenantDid.didDocument({ urls, keys }),
      profile: TenantDid.issuerProfile({
        urls,
        name: issuerName(tenant.value),
        url: tenant.value.awardingBody?.url,
        image: tenant.value.awardingBody?.logoUrl,
        keys
      })
    })
  })
