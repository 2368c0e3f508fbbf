/**
 * Port: tenants, their API keys (only the SHA-256 of a key is stored) and their monthly usage.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer, type Option } from "effect"
import type { RecipientNameMode } from "@sigil/core/Document"
import type { ApiKeyId, TenantId } from "@sigil/core/Ids"
import type { Environment, Plan } from "./Plans.js"
import * as internal from "../internal/memory/tenantStore.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface AwardingBody {
  readonly name: string
  readonly url: string | undefined
  readonly logoUrl: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Branding {
  /** `#RRGGBB`. */
  readonly accentColor: string | undefined
  readonly logoUrl: string | undefined
}

/**
 * Magic-link e-mail delivery (issue #10): off by default. The From address is the server's
 * (`SIGIL_MAIL_FROM`); the tenant chooses the sender name shown with it and the reply-to.
 *
 * @since 0.1.0
 * @category models
 */
export interface EmailDeliverySettings {
  readonly enabled: boolean
  readonly senderName: string | undefined
  readonly replyTo: string | undefined
}

/**
 * Delivery off, no sender name, no reply-to: every new tenant's setting.
 *
 * @since 0.1.0
 * @category constants
 */
export const emailDeliveryOff: EmailDeliverySettings = { enabled: false, senderName: undefined, replyTo: undefined }

/**
 * @since 0.1.0
 * @category models
 */
export interface Tenant {
  readonly id: TenantId
  readonly name: string
  readonly displayName: string | undefined
  readonly plan: Plan
  readonly awardingBody: AwardingBody | undefined
  readonly branding: Branding | undefined
  readonly recipientNameMode: RecipientNameMode
  /** CIDR blocks; empty = any address. */
  readonly ipAllowlist: ReadonlyArray<string>
  readonly emailDelivery: EmailDeliverySettings
  readonly createdAt: Date
}

/**
 * The fields an update may change; absent fields stay as they are, `null` clears an optional one.
 *
 * @since 0.1.0
 * @category models
 */
export interface TenantPatch {
  readonly name?: string
  readonly displayName?: string | null
  readonly plan?: Plan
  readonly awardingBody?: AwardingBody | null
  readonly branding?: Branding | null
  readonly recipientNameMode?: RecipientNameMode
  readonly ipAllowlist?: ReadonlyArray<string>
  /** Replaces the whole setting. */
  readonly emailDelivery?: EmailDeliverySettings
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ApiKey {
  readonly id: ApiKeyId
  readonly tenantId: TenantId
  readonly environment: Environment
  readonly createdAt: Date
  readonly revokedAt: Date | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly create: (tenant: Tenant) => Effect.Effect<void>
  readonly get: (id: TenantId) => Effect.Effect<Option.Option<Tenant>>
  /** Every tenant, oldest first. */
  readonly list: () => Effect.Effect<ReadonlyArray<Tenant>>
  readonly update: (id: TenantId, patch: TenantPatch) => Effect.Effect<Option.Option<Tenant>>

  /** Stores a key by the hex SHA-256 of its secret; the secret itself is never stored. */
  readonly addApiKey: (key: ApiKey, secretHash: string) => Effect.Effect<void>
  /** The key (revoked or not) whose secret hashes to `secretHash`, with its tenant. */
  readonly findApiKey: (secretHash: string) => Effect.Effect<Option.Option<{ readonly apiKey: ApiKey; readonly tenant: Tenant }>>
  readonly apiKeys: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<ApiKey>>
  /** Revokes at once; revoking a revoked key keeps its first revocation time. */
  readonly revokeApiKey: (id: ApiKeyId, at: Date) => Effect.Effect<Option.Option<ApiKey>>

  /**
   * Reserves `count` credentials of the tenant's quota for `month` (`YYYY-MM`), atomically:
   * succeeds with `true` and counts them only if the total stays within `limit`.
   */
  readonly reserveCredentials: (
    tenantId: TenantId,
    month: string,
    count: number,
    limit: number
  ) => Effect.Effect<boolean>
  readonly credentialsIssued: (tenantId: TenantId, month: string) => Effect.Effect<number>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class TenantStore extends Context.Tag("@sigil/service/Tenants/TenantStore")<TenantStore, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<TenantStore, never, MemoryStore> = Layer.effect(TenantStore, internal.make)
