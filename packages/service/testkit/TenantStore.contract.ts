/**
 * The behaviour every `TenantStore` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import * as Ids from "@sigil/core/Ids"
import * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, newTenant, plus, randomHex, SECOND, tenantOf } from "./fixtures.js"

export const tenantStoreContract = <E>(name: string, stores: Layer.Layer<TenantStore.TenantStore, E>): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`TenantStore contract: ${name}`, (it) => {
    const store = TenantStore.TenantStore

    const apiKey = (tenantId: TenantStore.Tenant["id"], createdAt: Date, environment: "test" | "live" = "test") => ({
      id: Ids.unsafeMake("ak"),
      tenantId,
      environment,
      createdAt,
      revokedAt: undefined
    })

    it.effect("stores a tenant with every field and finds it by id", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = tenantOf({
          displayName: "UdT",
          plan: "institution",
          awardingBody: { name: "Faculté des Sciences", url: "https://sciences.example", logoUrl: undefined },
          branding: { accentColor: "#123abc", logoUrl: "https://cdn.example/logo.png" },
          recipientNameMode: "plain",
          ipAllowlist: ["10.0.0.0/8", "2001:db8::/32"],
          emailDelivery: { enabled: true, senderName: "Faculté — Diplômes", replyTo: "registrar@sciences.example" }
        })
        yield* s.create(tenant)
        assert.deepStrictEqual(yield* s.get(tenant.id), Option.some(tenant))
        assert.isTrue(Option.isNone(yield* s.get(Ids.unsafeMake("tnt"))))
      }))

    it.effect("lists tenants oldest first, ties broken by id", () =>
      Effect.gen(function*() {
        const s = yield* store
        const t0 = at("2020-01-01T00:00:00.000Z")
        const made = [
          tenantOf({ createdAt: plus(t0, 2 * SECOND) }),
          tenantOf({ createdAt: t0 }),
          tenantOf({ createdAt: plus(t0, 2 * SECOND) }),
          tenantOf({ createdAt: plus(t0, 1) })
        ]
        for (const t of made) yield* s.create(t)
        const ours = new Set(made.map((t) => t.id))
        const listed = (yield* s.list()).filter((t) => ours.has(t.id)).map((t) => t.id)
        const expected = [...made]
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          .map((t) => t.id)
        assert.deepStrictEqual(listed, expected)
      }))

    it.effect("updates only the fields given; null clears an optional field", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant({
          displayName: "Old",
          awardingBody: { name: "Body", url: undefined, logoUrl: undefined },
          branding: { accentColor: "#000000", logoUrl: undefined }
        })
        const updated = yield* s.update(tenant.id, { plan: "industry", displayName: null, ipAllowlist: ["192.0.2.0/24"] })
        const expected: TenantStore.Tenant = {
          ...tenant,
          plan: "industry",
          displayName: undefined,
          ipAllowlist: ["192.0.2.0/24"]
        }
        assert.deepStrictEqual(updated, Option.some(expected))
        assert.deepStrictEqual(yield* s.get(tenant.id), Option.some(expected))

        const cleared = yield* s.update(tenant.id, {
          awardingBody: null,
          branding: { accentColor: undefined, logoUrl: "https://cdn.example/l.svg" },
          recipientNameMode: "plain",
          name: "Renamed"
        })
        assert.deepStrictEqual(
          cleared,
          Option.some({
            ...expected,
            awardingBody: undefined,
            branding: { accentColor: undefined, logoUrl: "https://cdn.example/l.svg" },
            recipientNameMode: "plain" as const,
            name: "Renamed"
          })
        )
        assert.deepStrictEqual(yield* s.update(tenant.id, {}), yield* s.get(tenant.id))
        assert.isTrue(Option.isNone(yield* s.update(Ids.unsafeMake("tnt"), { name: "x" })))
      }))

    it.effect("replaces the e-mail delivery setting as a whole; a new tenant has it off", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        assert.deepStrictEqual(
          Option.getOrThrow(yield* s.get(tenant.id)).emailDelivery,
          { enabled: false, senderName: undefined, replyTo: undefined }
        )
        const on = { enabled: true, senderName: "Registrar", replyTo: "registrar@univ.example" }
        assert.deepStrictEqual(yield* s.update(tenant.id, { emailDelivery: on }), Option.some({ ...tenant, emailDelivery: on }))
        const bare = { enabled: true, senderName: undefined, replyTo: undefined }
        yield* s.update(tenant.id, { emailDelivery: bare, plan: "institution" })
        assert.deepStrictEqual(yield* s.get(tenant.id), Option.some({ ...tenant, plan: "institution" as const, emailDelivery: bare }))
        // Other updates leave it alone.
        yield* s.update(tenant.id, { displayName: "X" })
        assert.deepStrictEqual(Option.getOrThrow(yield* s.get(tenant.id)).emailDelivery, bare)
      }))

    it.effect("finds an API key by the hash of its secret, with its tenant", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const key = apiKey(tenant.id, at("2025-03-02T00:00:00.000Z"), "live")
        const hash = randomHex(32)
        yield* s.addApiKey(key, hash)
        assert.deepStrictEqual(yield* s.findApiKey(hash), Option.some({ apiKey: key, tenant }))
        assert.isTrue(Option.isNone(yield* s.findApiKey(randomHex(32))))
      }))

    it.effect("lists a tenant's keys oldest first, and only that tenant's", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const t0 = at("2025-03-02T00:00:00.000Z")
        const keys = [apiKey(tenant.id, plus(t0, 5)), apiKey(tenant.id, t0), apiKey(tenant.id, plus(t0, 5))]
        for (const k of keys) yield* s.addApiKey(k, randomHex(32))
        yield* s.addApiKey(apiKey(other.id, t0), randomHex(32))
        const expected = [...keys].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        assert.deepStrictEqual(yield* s.apiKeys(tenant.id), expected)
        assert.deepStrictEqual(yield* s.apiKeys(Ids.unsafeMake("tnt")), [])
      }))

    it.effect("revokes a key at once and keeps the first revocation time", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const key = apiKey(tenant.id, at("2025-03-02T00:00:00.000Z"))
        const hash = randomHex(32)
        yield* s.addApiKey(key, hash)
        const first = at("2025-04-01T12:00:00.000Z")
        assert.deepStrictEqual(yield* s.revokeApiKey(key.id, first), Option.some({ ...key, revokedAt: first }))
        assert.deepStrictEqual(
          yield* s.revokeApiKey(key.id, at("2025-05-01T00:00:00.000Z")),
          Option.some({ ...key, revokedAt: first })
        )
        // A revoked key is still found, so the API can answer api_key_revoked rather than invalid.
        const found = Option.getOrThrow(yield* s.findApiKey(hash))
        assert.deepStrictEqual(found.apiKey.revokedAt, first)
        assert.isTrue(Option.isNone(yield* s.revokeApiKey(Ids.unsafeMake("ak"), first)))
      }))

    it.effect("reserves credentials within the monthly limit only", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        assert.strictEqual(yield* s.credentialsIssued(tenant.id, "2025-03"), 0)
        assert.isTrue(yield* s.reserveCredentials(tenant.id, "2025-03", 600, 1000))
        assert.isFalse(yield* s.reserveCredentials(tenant.id, "2025-03", 401, 1000))
        assert.strictEqual(yield* s.credentialsIssued(tenant.id, "2025-03"), 600)
        assert.isTrue(yield* s.reserveCredentials(tenant.id, "2025-03", 400, 1000))
        assert.strictEqual(yield* s.credentialsIssued(tenant.id, "2025-03"), 1000)
        assert.isFalse(yield* s.reserveCredentials(tenant.id, "2025-03", 1, 1000))
        // Months and tenants count apart; a first reservation above the limit stores nothing.
        assert.isFalse(yield* s.reserveCredentials(tenant.id, "2025-04", 1001, 1000))
        assert.strictEqual(yield* s.credentialsIssued(tenant.id, "2025-04"), 0)
        assert.isTrue(yield* s.reserveCredentials(tenant.id, "2025-04", 1000, 1000))
        assert.strictEqual(yield* s.credentialsIssued(other.id, "2025-03"), 0)
      }))

    it.effect("never reserves beyond the limit under concurrency", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        // 20 requests of 7 against 100: exactly 14 fit (98), whatever the interleaving.
        const results = yield* Effect.all(
          Array.from({ length: 20 }, () => s.reserveCredentials(tenant.id, "2025-06", 7, 100)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r).length, 14)
        assert.strictEqual(yield* s.credentialsIssued(tenant.id, "2025-06"), 98)
      }))
  })
}
