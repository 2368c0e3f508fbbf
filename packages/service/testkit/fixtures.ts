/**
 * What the storage contract suites share: fresh tenants and ids, and fixed instants. Each test
 * makes its own tenants and keys, so the tests of one suite never see each other's rows (the
 * Postgres runs share one database per suite).
 */
import { Effect, Redacted } from "effect"
import * as BatchState from "@sigil/core/BatchState"
import type * as BatchStore from "../src/Batches/BatchStore.js"
import * as CredentialState from "@sigil/core/CredentialState"
import * as Ids from "@sigil/core/Ids"
import type { WebhookEventType } from "../src/Inputs/WebhookInputs.js"
import type { Environment, Plan } from "../src/Tenants/Plans.js"
import * as TenantStore from "../src/Tenants/TenantStore.js"
import type * as WebhookEndpointStore from "../src/Webhooks/WebhookEndpointStore.js"

/** An instant in ISO form, as a Date. */
export const at = (iso: string): Date => new Date(iso)

/** `base` moved by `ms`. */
export const plus = (base: Date, ms: number): Date => new Date(base.getTime() + ms)

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export const tenantOf = (overrides: Partial<TenantStore.Tenant> = {}): TenantStore.Tenant => ({
  id: Ids.unsafeMake("tnt"),
  name: "Université de Test",
  displayName: undefined,
  plan: "starter",
  awardingBody: undefined,
  branding: undefined,
  recipientNameMode: "hashed",
  ipAllowlist: [],
  emailDelivery: TenantStore.emailDeliveryOff,
  createdAt: at("2025-03-01T10:00:00.123Z"),
  ...overrides
})

/** Creates a tenant (with the given plan) and returns it. */
export const newTenant = (overrides: Partial<TenantStore.Tenant> & { readonly plan?: Plan } = {}) =>
  Effect.flatMap(TenantStore.TenantStore, (store) => {
    const tenant = tenantOf(overrides)
    return Effect.as(store.create(tenant), tenant)
  })

/** A random lowercase hex string of `bytes` bytes. */
export const randomHex = (bytes: number): string =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("")

/** A name no other test uses (job kinds, rate-limit keys…). */
export const unique = (prefix: string): string => `${prefix}-${randomHex(6)}`


/** A credential's content and a ~`size`-byte signed document, as the issuing code stores them. */
export const contentOf = (i: number) => ({
  recipient: { id: `urn:uuid:${crypto.randomUUID()}` },
  achievement: {
    name: `Certificat n°${i} — “Données” 🎓`,
    description: "Delivered to those who complete the course.",
    alignment: [{ targetFramework: "ESCO", targetCode: "S1.2", targetName: "Analyse", targetUrl: null }]
  },
  issuanceDate: "2025-03-01T00:00:00Z",
  evidence: [],
  score: 17.25,
  flags: [true, false, null]
})

export const documentOf = (i: number, size = 2048) => ({
  "@context": ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"],
  id: `urn:uuid:${crypto.randomUUID()}`,
  type: ["VerifiableCredential", "OpenBadgeCredential"],
  credentialSubject: { achievement: { name: `n°${i}`, description: "x".repeat(Math.max(0, size - 600)) } },
  proof: [{ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022", proofValue: `z${randomHex(64)}` }]
})

/** A batch of `n` credentials (with recipients) of a tenant, pending, created at `createdAt`. */
export const batchOf = (
  tenantId: TenantStore.Tenant["id"],
  options: { readonly n?: number; readonly createdAt?: Date; readonly environment?: Environment; readonly documentSize?: number } = {}
) => {
  const n = options.n ?? 3
  const createdAt = options.createdAt ?? at("2025-03-01T12:00:00.000Z")
  const environment = options.environment ?? "test"
  const batch: BatchStore.BatchRecord = {
    id: Ids.unsafeMake("bat"),
    tenantId,
    environment,
    credentialsCount: n,
    createdAt,
    ...BatchState.initial
  }
  const credentials: Array<BatchStore.CredentialRecord> = Array.from({ length: n }, (_, i) => {
    const content = contentOf(i)
    return {
      id: Ids.unsafeMake("crd"),
      batchId: batch.id,
      tenantId,
      environment,
      position: i,
      recipientId: content.recipient.id,
      content,
      document: options.documentSize === undefined ? undefined : documentOf(i, options.documentSize),
      statusList: undefined,
      createdAt,
      ...CredentialState.initial
    }
  })
  const recipients: Array<BatchStore.RecipientData> = credentials.map((c, i) => ({
    credentialId: c.id,
    name: `Recipient ${i} Ñandú`,
    email: i % 2 === 0 ? `r${i}@example.org` : undefined
  }))
  return { batch, credentials, recipients }
}

/** A webhook endpoint of the tenant (a fresh id and URL each time). */
export const endpointOf = (
  tenantId: TenantStore.Tenant["id"],
  options: {
    readonly events?: ReadonlyArray<WebhookEventType>
    readonly createdAt?: Date
    readonly environment?: Environment
    readonly active?: boolean
  } = {}
): WebhookEndpointStore.WebhookEndpoint => ({
  id: Ids.unsafeMake("whk"),
  tenantId,
  environment: options.environment ?? "test",
  url: `https://hooks.example/${randomHex(4)}`,
  events: options.events ?? ["batch.created", "batch.anchored"],
  description: "CRM sync",
  active: options.active ?? true,
  createdAt: options.createdAt ?? at("2025-03-01T12:00:00.000Z"),
  failingSince: undefined,
  disabledAt: undefined,
  disabledReason: undefined
})

/** A webhook signing secret as the API makes them. */
export const secretOf = () => Redacted.make(`whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`)
