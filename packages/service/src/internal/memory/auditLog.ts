/**
 * `AuditLog` in memory: an append-only array (insertion order breaks ties on time, as the
 * sequence column does on Postgres). Purging reads each tenant's plan from the tenants table.
 *
 * @internal
 */
import { Effect } from "effect"
import type { Entry, Service } from "../../Access/AuditLog.js"
import type { TenantId } from "@sigil/core/Ids"
import type { Tenant } from "../../Tenants/TenantStore.js"
import { MemoryStore } from "../../Transactor.js"
import { copy, locked, requireTenant, tables } from "./store.js"

const DAY_MS = 86_400_000

const entryRow = (e: Entry): Entry => ({
  requestId: e.requestId,
  tenantId: e.tenantId,
  apiKeyId: e.apiKeyId,
  method: e.method,
  route: e.route,
  status: e.status,
  at: e.at
})

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const rows = store.table(tables.audit, () => new Array<Entry>())
  const tenants = store.table(tables.tenants, () => new Map<TenantId, Tenant>())

  return {
    record: (entry) =>
      locked(store, () => {
        requireTenant(store, entry.tenantId)
        rows.push(copy(entryRow(entry)))
      }),
    recordAll: (entries) =>
      locked(store, () => {
        for (const entry of entries) requireTenant(store, entry.tenantId)
        for (const entry of entries) rows.push(copy(entryRow(entry)))
      }),
    list: (tenantId, query) =>
      locked(store, () =>
        rows
          .filter((e) => e.tenantId === tenantId && (query.since === undefined || e.at.getTime() >= query.since.getTime()))
          .sort((a, b) => a.at.getTime() - b.at.getTime()) // stable: ties keep insertion order
          .slice(0, Math.max(0, query.limit))
          .map(copy)),
    purgeExpired: (now, retentionDays) =>
      locked(store, () => {
        const kept = rows.filter((e) => {
          const plan = tenants.get(e.tenantId)?.plan
          return plan === undefined || e.at.getTime() >= now.getTime() - retentionDays[plan] * DAY_MS
        })
        const purged = rows.length - kept.length
        rows.splice(0, rows.length, ...kept)
        return purged
      })
  }
})
