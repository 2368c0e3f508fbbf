/**
 * `TenantStore` in memory.
 *
 * @internal
 */
import { Effect, Option } from "effect"
import type { ApiKeyId, TenantId } from "@sigil/core/Ids"
import type { ApiKey, EmailDeliverySettings, Service, Tenant } from "../../Tenants/TenantStore.js"
import { MemoryStore } from "../../Transactor.js"
import { ascending, copy, duplicate, locked, requireTenant, tables } from "./store.js"

// Only the columns Postgres keeps.
const emailDeliveryRow = (e: EmailDeliverySettings): EmailDeliverySettings => ({
  enabled: e.enabled,
  senderName: e.senderName,
  replyTo: e.replyTo
})

interface KeyRow {
  readonly key: ApiKey
  readonly secretHash: string
}

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const tenants = store.table(tables.tenants, () => new Map<TenantId, Tenant>())
  const keys = store.table(tables.apiKeys, () => new Map<ApiKeyId, KeyRow>())
  const usage = store.table(tables.usage, () => new Map<string, number>())
  const usageKey = (tenantId: TenantId, month: string) => `${tenantId}|${month}`
  const byAge = ascending<{ createdAt: Date; id: string }>((t) => t.createdAt, (t) => t.id)

  return {
    create: (tenant) =>
      locked(store, () => {
        if (tenants.has(tenant.id)) duplicate(tables.tenants, tenant.id)
        tenants.set(tenant.id, copy({ ...tenant, emailDelivery: emailDeliveryRow(tenant.emailDelivery) }))
      }),
    get: (id) => locked(store, () => Option.map(Option.fromNullable(tenants.get(id)), copy)),
    list: () => locked(store, () => [...tenants.values()].sort(byAge).map(copy)),
    update: (id, patch) =>
      locked(store, () => {
        const current = tenants.get(id)
        if (current === undefined) return Option.none()
        const next: Tenant = {
          ...current,
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.displayName !== undefined ? { displayName: patch.displayName ?? undefined } : {}),
          ...(patch.plan !== undefined ? { plan: patch.plan } : {}),
          ...(patch.awardingBody !== undefined ? { awardingBody: patch.awardingBody ?? undefined } : {}),
          ...(patch.branding !== undefined ? { branding: patch.branding ?? undefined } : {}),
          ...(patch.recipientNameMode !== undefined ? { recipientNameMode: patch.recipientNameMode } : {}),
          ...(patch.ipAllowlist !== undefined ? { ipAllowlist: patch.ipAllowlist } : {}),
          ...(patch.emailDelivery !== undefined ? { emailDelivery: emailDeliveryRow(patch.emailDelivery) } : {})
        }
        tenants.set(id, copy(next))
        return Option.some(copy(next))
      }),

    addApiKey: (key, secretHash) =>
      locked(store, () => {
        requireTenant(store, key.tenantId)
        if (keys.has(key.id)) duplicate(tables.apiKeys, key.id)
        for (const row of keys.values()) if (row.secretHash === secretHash) duplicate(tables.apiKeys, "secret_hash")
        keys.set(key.id, { key: copy(key), secretHash })
      }),
    findApiKey: (secretHash) =>
      locked(store, () => {
        for (const row of keys.values()) {
          if (row.secretHash !== secretHash) continue
          const tenant = tenants.get(row.key.tenantId)
          return tenant === undefined ? Option.none() : Option.some({ apiKey: copy(row.key), tenant: copy(tenant) })
        }
        return Option.none()
      }),
    apiKeys: (tenantId) =>
      locked(store, () =>
        [...keys.values()].map((r) => r.key).filter((k) => k.tenantId === tenantId).sort(byAge).map(copy)),
    revokeApiKey: (id, at) =>
      locked(store, () => {
        const row = keys.get(id)
        if (row === undefined) return Option.none()
        const key: ApiKey = { ...row.key, revokedAt: row.key.revokedAt ?? at }
        keys.set(id, { ...row, key: copy(key) })
        return Option.some(copy(key))
      }),

    reserveCredentials: (tenantId, month, count, limit) =>
      locked(store, () => {
        requireTenant(store, tenantId)
        const current = usage.get(usageKey(tenantId, month))
        const next = (current ?? 0) + count
        if (next > limit) return false
        usage.set(usageKey(tenantId, month), next)
        return true
      }),
    credentialsIssued: (tenantId, month) => locked(store, () => usage.get(usageKey(tenantId, month)) ?? 0)
  }
})
