/**
 * The tenants service: `GET` and `PATCH /tenants/me`, and the administrative channel's
 * operations (decisions §7): create a tenant (with its signing and anchoring keys), change its
 * plan, name mode or allowlist, issue and revoke API keys, read its audit log.
 *
 * @since 0.1.0
 */
import * as ChangeFeed from "./ChangeFeed.js"
import { Effect, Option, Schema } from "effect"
import * as ApiKeys from "./Access/ApiKeys.js"
import type { Principal } from "./Access/Auth.js"
import { TierRequired } from "./Access/Auth.js"
import { AuditLog } from "./Access/AuditLog.js"
import * as Cidr from "./Access/Cidr.js"
import type { ApiKeyId, TenantId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { TenantUpdate } from "./Inputs/TenantInputs.js"
import { InvalidInput } from "./Inputs/InputErrors.js"
import { KeyVault, type SigningKeyUnavailable, wholeSeconds } from "./Tenants/KeyVault.js"
import type { Environment, Plan } from "./Tenants/Plans.js"
import * as Plans from "./Tenants/Plans.js"
import { Settings } from "./Settings.js"
import * as TenantDid from "@sigil/core/TenantDid"
import type { Tenant, TenantPatch } from "./Tenants/TenantStore.js"
import { emailDeliveryOff, TenantStore } from "./Tenants/TenantStore.js"
import { Transactor } from "./Transactor.js"
import * as Views from "./Views.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class TenantNotFound extends Schema.TaggedError<TenantNotFound>()("TenantNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No tenant ${this.id}.`
  }
}

/**
 * @since 0.1.0
 * @category errors
 */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No API key ${this.id}.`
  }
}

/**
 * The tenant of the calling key, as `GET /tenants/me` shows it.
 *
 * @since 0.1.0
 * @category operations
 */
export const current = (principal: Principal, now: Date): Effect.Effect<Views.TenantView, never, TenantStore | Settings> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const issued = yield* Effect.flatMap(TenantStore, (s) => s.credentialsIssued(principal.tenant.id, Plans.monthOf(now)))
    return Views.tenant(settings.publicBaseUrl, principal.tenant, principal.environment, issued)
  })

/**
 * `PATCH /tenants/me`: only the members present change. Verification-page branding needs a
 * plan that includes it (403 `tier_required` on `developer`).
 *
 * @since 0.1.0
 * @category operations
 */
export const update = (
  principal: Principal,
  request: TenantUpdate,
  now: Date
): Effect.Effect<Views.TenantView, TierRequired | TenantNotFound, TenantStore | Settings | ChangeFeed.ChangeFeed> =>
  Effect.gen(function*() {
    const { tenant } = principal
    if (request.verify_page_branding !== undefined && !Plans.limits[tenant.plan].verifyPageBranding) {
      return yield* new TierRequired({ message: `Verification-page branding is not part of the ${tenant.plan} plan.` })
    }
    const patch: TenantPatch = {
      ...(request.display_name === undefined ? {} : { displayName: request.display_name }),
      ...(request.awarding_body === undefined ? {} : {
        awardingBody: {
          name: request.awarding_body.name,
          url: request.awarding_body.url,
          logoUrl: request.awarding_body.logo_url
        }
      }),
      ...(request.verify_page_branding === undefined ? {} : {
        branding: {
          accentColor: request.verify_page_branding.accent_color,
          logoUrl: request.verify_page_branding.logo_url
        }
      })
    }
    const updated = yield* Effect.flatMap(TenantStore, (s) => s.update(tenant.id, patch))
    if (Option.isNone(updated)) return yield* new TenantNotFound({ id: tenant.id })
    // Names, the awarding body and branding show on the tenant's pages and profile.
    yield* ChangeFeed.announce(tenant.id)
    return yield* current({ ...principal, tenant: updated.value }, now)
  })

// ---------------------------------------------------------------------------------------------
// the administrative channel
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export interface AdminTenant {
  readonly id: string
  readonly name: string
  readonly plan: Plan
  readonly did: string
  readonly recipient_name_mode: Tenant["recipientNameMode"]
  readonly ip_allowlist: ReadonlyArray<string>
  readonly email_delivery: Views.EmailDeliverySetting
  readonly created_at: string
}

const adminView = (publicBaseUrl: string, tenant: Tenant): AdminTenant => ({
  id: tenant.id,
  name: tenant.name,
  plan: tenant.plan,
  did: TenantDid.urls(publicBaseUrl, tenant.id).did,
  recipient_name_mode: tenant.recipientNameMode,
  ip_allowlist: tenant.ipAllowlist,
  email_delivery: Views.emailDeliverySetting(tenant.emailDelivery),
  created_at: tenant.createdAt.toISOString()
})

/**
 * The administrative channel's `email_delivery` member: it replaces the tenant's whole setting
 * (an absent `sender_name` or `reply_to` is cleared).
 *
 * @since 0.1.0
 * @category models
 */
export interface EmailDeliveryUpdate {
  readonly enabled: boolean
  readonly sender_name?: string | undefined
  readonly reply_to?: string | undefined
}

/**
 * Creates a tenant with its Ed25519 signing key and secp256k1 anchoring key (decisions §3).
 *
 * @since 0.1.0
 * @category admin
 */
export const create = (
  request: { readonly name: string; readonly plan: Plan },
  now: Date
): Effect.Effect<AdminTenant, SigningKeyUnavailable, Transactor | TenantStore | KeyVault | Settings | ChangeFeed.ChangeFeed> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const vault = yield* KeyVault
    const tenant: Tenant = {
      id: yield* Ids.make("tnt"),
      name: request.name,
      displayName: undefined,
      plan: request.plan,
      awardingBody: undefined,
      branding: undefined,
      recipientNameMode: "hashed",
      ipAllowlist: [],
      emailDelivery: emailDeliveryOff,
      createdAt: now
    }
    yield* Effect.flatMap(Transactor, (t) =>
      t.withTransaction(Effect.gen(function*() {
        yield* Effect.flatMap(TenantStore, (s) => s.create(tenant))
        // Whole seconds: Blockcerts requires the key to predate the anchoring block.
        yield* vault.generate(tenant.id, "ed25519", wholeSeconds(now))
        yield* vault.generate(tenant.id, "secp256k1", wholeSeconds(now))
        // Its DID document and profile exist from now on (a cache may remember them as unknown).
        yield* ChangeFeed.announce(tenant.id)
      })))
    return adminView(settings.publicBaseUrl, tenant)
  })

/**
 * The administrative tenant patch: plan, recipient name mode, IP allowlist, e-mail delivery.
 *
 * @since 0.1.0
 * @category admin
 */
export const adminUpdate = (
  id: TenantId,
  request: {
    readonly plan?: Plan | undefined
    readonly recipient_name_mode?: Tenant["recipientNameMode"] | undefined
    readonly ip_allowlist?: ReadonlyArray<string> | undefined
    readonly email_delivery?: EmailDeliveryUpdate | undefined
  }
): Effect.Effect<AdminTenant, TenantNotFound | TierRequired | InvalidInput, TenantStore | Settings | ChangeFeed.ChangeFeed> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const store = yield* TenantStore
    const existing = yield* store.get(id)
    if (Option.isNone(existing)) return yield* new TenantNotFound({ id })
    const plan = request.plan ?? existing.value.plan
    const allowlist = request.ip_allowlist ?? existing.value.ipAllowlist
    const bad = allowlist.findIndex((cidr) => Cidr.parse(cidr) === undefined)
    if (bad >= 0) {
      return yield* new InvalidInput({
        code: "invalid_field_format",
        field: `ip_allowlist[${bad}]`,
        message: `ip_allowlist[${bad}] must be a CIDR block such as 203.0.113.0/24 or 2001:db8::/32`
      })
    }
    if (allowlist.length > 0 && !Plans.limits[plan].ipAllowlist) {
      return yield* new TierRequired({ message: `IP allowlists need the institution plan or above (this tenant is on ${plan}).` })
    }
    const updated = yield* store.update(id, {
      ...(request.plan === undefined ? {} : { plan: request.plan }),
      ...(request.recipient_name_mode === undefined ? {} : { recipientNameMode: request.recipient_name_mode }),
      ...(request.ip_allowlist === undefined ? {} : { ipAllowlist: request.ip_allowlist }),
      ...(request.email_delivery === undefined ? {} : {
        emailDelivery: {
          enabled: request.email_delivery.enabled,
          senderName: request.email_delivery.sender_name,
          replyTo: request.email_delivery.reply_to
        }
      })
    })
    if (Option.isNone(updated)) return yield* new TenantNotFound({ id })
    // The plan (branding, limits) and the allowlist: what its pages show and who authenticates.
    yield* ChangeFeed.announce(id)
    return adminView(settings.publicBaseUrl, updated.value)
  })

/**
 * @since 0.1.0
 * @category admin
 */
export const get = (id: TenantId): Effect.Effect<AdminTenant, TenantNotFound, TenantStore | Settings> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const tenant = yield* Effect.flatMap(TenantStore, (s) => s.get(id))
    if (Option.isNone(tenant)) return yield* new TenantNotFound({ id })
    return adminView(settings.publicBaseUrl, tenant.value)
  })

/**
 * @since 0.1.0
 * @category models
 */
export interface IssuedKey {
  readonly id: ApiKeyId
  /** The raw key: shown this once, never stored. */
  readonly key: string
  readonly environment: Environment
  readonly created_at: string
}

/**
 * Issues an API key; the raw key is returned only here (decisions §3, §7). A live key on a plan
 * without a live environment is refused.
 *
 * @since 0.1.0
 * @category admin
 */
export const createKey = (
  tenantId: TenantId,
  environment: Environment,
  now: Date
): Effect.Effect<IssuedKey, TenantNotFound | TierRequired, TenantStore> =>
  Effect.gen(function*() {
    const store = yield* TenantStore
    const tenant = yield* store.get(tenantId)
    if (Option.isNone(tenant)) return yield* new TenantNotFound({ id: tenantId })
    if (environment === "live" && !Plans.limits[tenant.value.plan].liveEnvironment) {
      return yield* new TierRequired({ message: `The ${tenant.value.plan} plan has no live environment.` })
    }
    const key = ApiKeys.generate(environment)
    const id = yield* Ids.make("ak")
    yield* store.addApiKey({ id, tenantId, environment, createdAt: now, revokedAt: undefined }, ApiKeys.hash(key))
    return { id, key, environment, created_at: now.toISOString() }
  })

/**
 * Revokes an API key at once.
 *
 * @since 0.1.0
 * @category admin
 */
export const revokeKey = (
  id: ApiKeyId,
  now: Date
): Effect.Effect<{ readonly id: string; readonly revoked_at: string }, ApiKeyNotFound, TenantStore | ChangeFeed.ChangeFeed> =>
  Effect.gen(function*() {
    const revoked = yield* Effect.flatMap(TenantStore, (s) => s.revokeApiKey(id, now))
    if (Option.isNone(revoked)) return yield* new ApiKeyNotFound({ id })
    // Every process's authentication cache forgets the key at once.
    yield* ChangeFeed.announce(revoked.value.tenantId)
    return { id, revoked_at: (revoked.value.revokedAt ?? now).toISOString() }
  })

/**
 * The tenant's audit log, oldest first.
 *
 * @since 0.1.0
 * @category admin
 */
export const audit = (
  tenantId: TenantId,
  query: { readonly since?: Date | undefined; readonly limit: number }
): Effect.Effect<ReadonlyArray<Record<string, string | number>>, TenantNotFound, TenantStore | AuditLog> =>
  Effect.gen(function*() {
    const tenant = yield* Effect.flatMap(TenantStore, (s) => s.get(tenantId))
    if (Option.isNone(tenant)) return yield* new TenantNotFound({ id: tenantId })
    const rows = yield* Effect.flatMap(AuditLog, (log) => log.list(tenantId, query))
    return rows.map((r) => ({
      request_id: r.requestId,
      tenant_id: r.tenantId,
      key_id: r.apiKeyId,
      method: r.method,
      route: r.route,
      status: r.status,
      timestamp: r.at.toISOString()
    }))
  })
