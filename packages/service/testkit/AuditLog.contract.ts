/**
 * The behaviour every `AuditLog` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import * as AuditLog from "../src/Access/AuditLog.js"
import * as Ids from "@sigil/core/Ids"
import * as Plans from "../src/Tenants/Plans.js"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, DAY, newTenant, plus } from "./fixtures.js"

const entryOf = (tenantId: TenantStore.Tenant["id"], when: Date, status = 200): AuditLog.Entry => ({
  requestId: Ids.unsafeMake("req"),
  tenantId,
  apiKeyId: Ids.unsafeMake("ak"),
  method: "GET",
  route: "/v1/batches/:id",
  status,
  at: when
})

const retention = {
  developer: Plans.limits.developer.auditRetentionDays,
  starter: Plans.limits.starter.auditRetentionDays,
  institution: Plans.limits.institution.auditRetentionDays,
  industry: Plans.limits.industry.auditRetentionDays
}

export const auditLogContract = <E>(
  name: string,
  stores: Layer.Layer<AuditLog.AuditLog | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`AuditLog contract: ${name}`, (it) => {
    const log = AuditLog.AuditLog

    it.effect("lists a tenant's entries oldest first, from `since`, up to `limit`", () =>
      Effect.gen(function*() {
        const l = yield* log
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const t0 = at("2025-03-01T12:00:00.000Z")
        // Recorded out of order; two share an instant (recording order breaks the tie).
        const entries = [
          entryOf(tenant.id, plus(t0, 3000)),
          entryOf(tenant.id, t0, 401),
          entryOf(tenant.id, plus(t0, 1000)),
          entryOf(tenant.id, plus(t0, 1000), 429)
        ]
        for (const e of entries) yield* l.record(e)
        yield* l.record(entryOf(other.id, t0))
        const ordered = [entries[1]!, entries[2]!, entries[3]!, entries[0]!]
        assert.deepStrictEqual(yield* l.list(tenant.id, { limit: 100 }), ordered)
        assert.deepStrictEqual(yield* l.list(tenant.id, { limit: 2 }), ordered.slice(0, 2))
        assert.deepStrictEqual(yield* l.list(tenant.id, { since: plus(t0, 1000), limit: 100 }), ordered.slice(1))
        assert.deepStrictEqual(yield* l.list(tenant.id, { since: plus(t0, 3001), limit: 100 }), [])
      }))

    it.effect("recordAll writes entries of several tenants in one go, in their order (ties on time too)", () =>
      Effect.gen(function*() {
        const l = yield* log
        const [a, b] = [yield* newTenant(), yield* newTenant()]
        const t0 = at("2025-04-01T12:00:00.000Z")
        const entries = [entryOf(a.id, t0), entryOf(b.id, t0), entryOf(a.id, t0, 404), entryOf(a.id, plus(t0, 5))]
        yield* l.recordAll(entries)
        yield* l.recordAll([])
        assert.deepStrictEqual(yield* l.list(a.id, { limit: 100 }), [entries[0]!, entries[2]!, entries[3]!])
        assert.deepStrictEqual(yield* l.list(b.id, { limit: 100 }), [entries[1]!])
      }))

    it.effect("purges what each tenant's plan no longer keeps: 90 or 365 days", () =>
      Effect.gen(function*() {
        const l = yield* log
        const developer = yield* newTenant({ plan: "developer" })
        const starter = yield* newTenant({ plan: "starter" })
        const institution = yield* newTenant({ plan: "institution" })
        const industry = yield* newTenant({ plan: "industry" })
        // An era of its own: other tests' entries are all later than `now`.
        const now = at("2001-06-01T00:00:00.000Z")
        const ages = [10, 89, 90, 91, 364, 365, 366, 1000]
        for (const t of [developer, starter, institution, industry]) {
          for (const days of ages) yield* l.record(entryOf(t.id, plus(now, -days * DAY)))
        }
        // Older than 90 days: 91, 364, 365, 366, 1000 (×2 plans); older than 365: 366, 1000 (×2).
        assert.strictEqual(yield* l.purgeExpired(now, retention), 14)
        const daysOf = (entries: ReadonlyArray<AuditLog.Entry>) =>
          entries.map((e) => Math.round((now.getTime() - e.at.getTime()) / DAY)).sort((a, b) => b - a)
        assert.deepStrictEqual(daysOf(yield* l.list(developer.id, { limit: 100 })), [90, 89, 10])
        assert.deepStrictEqual(daysOf(yield* l.list(starter.id, { limit: 100 })), [90, 89, 10])
        assert.deepStrictEqual(daysOf(yield* l.list(institution.id, { limit: 100 })), [365, 364, 91, 90, 89, 10])
        assert.deepStrictEqual(daysOf(yield* l.list(industry.id, { limit: 100 })), [365, 364, 91, 90, 89, 10])
        assert.strictEqual(yield* l.purgeExpired(now, retention), 0)
      }))
  })
}
