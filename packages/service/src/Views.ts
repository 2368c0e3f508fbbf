/**
 * The API's resources as plain JSON (issuer-api.md "Resources and their fields"), built from
 * store records. Responses and event payloads share them, so a webhook's `batch.anchored`
 * carries exactly what `GET /batches/{id}` shows.
 *
 * Optional fields are always present, `null` until they have a value, so clients can rely on
 * one shape.
 *
 * @since 0.1.0
 */
import type { AnchorRecord } from "@sigil/core/BatchState"
import type { BatchRecord, CredentialRecord } from "./Batches/BatchStore.js"
import type { DeliveryRecord } from "./Email/EmailDeliveryStore.js"
import * as Chains from "@sigil/core/Chains"
import type { JsonObject } from "@sigil/core/Document"
import * as Plans from "./Tenants/Plans.js"
import * as Settings from "./Settings.js"
import type { Tenant } from "./Tenants/TenantStore.js"
import * as TenantDid from "@sigil/core/TenantDid"
import type { WebhookEndpoint } from "./Webhooks/WebhookEndpointStore.js"

const iso = (date: Date): string => date.toISOString()

/**
 * @since 0.1.0
 * @category models
 */
export interface AnchorTransaction {
  readonly chain: string
  readonly hash: string
  readonly block_number: number
  readonly explorer_url: string | null
}

/**
 * @since 0.1.0
 * @category views
 */
export const anchorTransaction = (anchor: AnchorRecord): AnchorTransaction => ({
  chain: anchor.chain,
  hash: anchor.txHash,
  block_number: anchor.blockNumber,
  explorer_url: Chains.explorerTxUrl(anchor.chainId, anchor.txHash) ?? null
})

/**
 * @since 0.1.0
 * @category models
 */
export interface CredentialSummary {
  readonly id: string
  readonly recipient_id: string
  readonly verify_url: string
}

/**
 * @since 0.1.0
 * @category views
 */
export const credentialSummary = (
  publicBaseUrl: string,
  credential: Pick<CredentialRecord, "id" | "recipientId">
): CredentialSummary => ({
  id: credential.id,
  recipient_id: credential.recipientId,
  verify_url: Settings.verifyUrl(publicBaseUrl, credential.id)
})

/**
 * @since 0.1.0
 * @category models
 */
export interface Batch {
  readonly id: string
  readonly status: BatchRecord["status"]
  readonly credentials_count: number
  readonly created_at: string
  readonly environment: BatchRecord["environment"]
  readonly anchored_at: string | null
  readonly merkle_root: string | null
  readonly anchor_transaction: AnchorTransaction | null
  readonly credentials: ReadonlyArray<CredentialSummary> | null
  readonly error: string | null
}

/**
 * A batch; `credentials` is filled only once it is anchored (pass them then).
 *
 * @since 0.1.0
 * @category views
 */
export const batch = (
  publicBaseUrl: string,
  record: BatchRecord,
  credentials: ReadonlyArray<Pick<CredentialRecord, "id" | "recipientId">> | undefined
): Batch => ({
  id: record.id,
  status: record.status,
  credentials_count: record.credentialsCount,
  created_at: iso(record.createdAt),
  environment: record.environment,
  anchored_at: record.anchoredAt === undefined ? null : iso(record.anchoredAt),
  merkle_root: record.merkleRoot ?? null,
  anchor_transaction: record.anchor === undefined ? null : anchorTransaction(record.anchor),
  credentials: record.status === "anchored" && credentials !== undefined
    ? credentials.map((c) => credentialSummary(publicBaseUrl, c))
    : null,
  error: record.error?.message ?? null
})

/**
 * @since 0.1.0
 * @category models
 */
export interface Credential {
  readonly id: string
  readonly verify_url: string
  readonly status: CredentialRecord["status"]
  readonly revoked: boolean
  readonly erased: boolean
  /** `null` while the batch is pending: there is no signed document yet. */
  readonly signed_credential: JsonObject | null
  /** The magic-link e-mail to the recipient, `null` when none was queued. */
  readonly email_delivery: EmailDelivery | null
}

/**
 * A credential's magic-link e-mail (issue #10): never the address.
 *
 * @since 0.1.0
 * @category models
 */
export interface EmailDelivery {
  readonly status: DeliveryRecord["status"]
  readonly attempts: number
  readonly last_error: string | null
  readonly last_attempt_at: string | null
  readonly sent_at: string | null
  readonly claimed_at: string | null
}

/**
 * @since 0.1.0
 * @category views
 */
export const emailDelivery = (record: DeliveryRecord): EmailDelivery => ({
  status: record.status,
  attempts: record.attempts,
  last_error: record.lastError ?? null,
  last_attempt_at: record.lastAttemptAt === undefined ? null : iso(record.lastAttemptAt),
  sent_at: record.sentAt === undefined ? null : iso(record.sentAt),
  claimed_at: record.claimedAt === undefined ? null : iso(record.claimedAt)
})

/**
 * @since 0.1.0
 * @category views
 */
export const credential = (publicBaseUrl: string, record: CredentialRecord, delivery?: DeliveryRecord | undefined): Credential => ({
  id: record.id,
  verify_url: Settings.verifyUrl(publicBaseUrl, record.id),
  status: record.status,
  revoked: record.revoked,
  erased: record.erased,
  signed_credential: record.document ?? null,
  email_delivery: delivery === undefined ? null : emailDelivery(delivery)
})

/**
 * A tenant's magic-link e-mail setting (issue #10), as the tenant and the admin channel see it.
 *
 * @since 0.1.0
 * @category models
 */
export interface EmailDeliverySetting {
  readonly enabled: boolean
  readonly sender_name: string | null
  readonly reply_to: string | null
}

/**
 * @since 0.1.0
 * @category views
 */
export const emailDeliverySetting = (setting: Tenant["emailDelivery"]): EmailDeliverySetting => ({
  enabled: setting.enabled,
  sender_name: setting.senderName ?? null,
  reply_to: setting.replyTo ?? null
})

/**
 * @since 0.1.0
 * @category models
 */
export interface TenantView {
  readonly id: string
  readonly name: string
  readonly display_name: string | null
  readonly did: string
  readonly plan: Tenant["plan"]
  readonly environment: "test" | "live"
  readonly awarding_body: { readonly name: string; readonly url: string | null; readonly logo_url: string | null } | null
  readonly verify_page_branding: { readonly accent_color: string | null; readonly logo_url: string | null } | null
  readonly email_delivery: EmailDeliverySetting
  readonly credentials_issued_this_month: number
  readonly credentials_limit_this_month: number
}

/**
 * @since 0.1.0
 * @category views
 */
export const tenant = (
  publicBaseUrl: string,
  record: Tenant,
  environment: "test" | "live",
  issuedThisMonth: number
): TenantView => ({
  id: record.id,
  name: record.name,
  display_name: record.displayName ?? null,
  did: TenantDid.urls(publicBaseUrl, record.id).did,
  plan: record.plan,
  environment,
  awarding_body: record.awardingBody === undefined
    ? null
    : { name: record.awardingBody.name, url: record.awardingBody.url ?? null, logo_url: record.awardingBody.logoUrl ?? null },
  verify_page_branding: record.branding === undefined
    ? null
    : { accent_color: record.branding.accentColor ?? null, logo_url: record.branding.logoUrl ?? null },
  email_delivery: emailDeliverySetting(record.emailDelivery),
  credentials_issued_this_month: issuedThisMonth,
  credentials_limit_this_month: Plans.limits[record.plan].credentialsPerMonth
})

/**
 * @since 0.1.0
 * @category models
 */
export interface Webhook {
  readonly id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly description: string | null
  readonly active: boolean
  readonly created_at: string
}

/**
 * @since 0.1.0
 * @category views
 */
export const webhook = (endpoint: WebhookEndpoint): Webhook => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description ?? null,
  active: endpoint.active,
  created_at: iso(endpoint.createdAt)
})
