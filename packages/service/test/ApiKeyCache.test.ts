/**
 * The authentication lookup remembered in the process: one store read per key per TTL; a change
 * made through this process is seen by the next request; a change made elsewhere (here: straight
 * on the store below, as another process would) within the TTL; unknown keys never remembered.
 */
import { assert, describe, it } from "@effect/vitest"
import type { TenantId } from "@sigil/core/Ids"
import { Effect, Either, Layer, Option, Redacted } from "effect"
import * as ApiKeyCache from "../src/Access/ApiKeyCache.js"
import * as ApiKeys from "../src/Access/ApiKeys.js"
import * as Auth from "../src/Access/Auth.js"
import * as MemoryStores from "../src/MemoryStores.js"
import * as Settings from "../src/Settings.js"
import * as Tenants from "../src/Tenants.js"
import { TenantStore } from "../src/Tenants/TenantStore.js"
import * as Transactor from "../src/Transactor.js"

const TTL = 5_000

const stores = Layer.merge(
  MemoryStores.layer,
  Settings.layer({
    publicBaseUrl: "https://sigil.example",
    chainFor: () => "devnet",
    cursorKey: Redacted.make(new Uint8Array(32).fill(7)),
    allowPrivateWebhookUrls: true
  })
)

/** The memory store, counting its `findApiKey` reads, under the cache with a clock of our own. */
const world = Effect.gen(function*() {
  const below = yield* TenantStore
  const reads = { n: 0 }
  const clock = { now: 1_000_000 }
  const counted = { ...below, findApiKey: (hash: string) => Effect.suspend(() => (reads.n++, below.findApiKey(hash))) }
  const store = ApiKeyCache.cached(counted, { ttlMs: TTL, maxEntries: 100 }, () => clock.now)
  const tenant = yield* Tenants.create({ name: "Cached University", plan: "institution" }, new Date())
  const issued = yield* Tenants.createKey(tenant.id as TenantId, "test", new Date())
  const authenticate = (address = "203.0.113.9", key = issued.key) =>
    Auth.authenticate({ authorization: `Bearer ${key}`, address }).pipe(
      Effect.provideService(TenantStore, store),
      Effect.either
    )
  return { below, store, reads, clock, tenantId: tenant.id as TenantId, issued, authenticate }
})

describe("ApiKeyCache", () => {
  it.effect("reads the store once per key per TTL", () =>
    Effect.gen(function*() {
      const w = yield* world
      for (let i = 0; i < 5; i++) assert.isTrue(Either.isRight(yield* w.authenticate()))
      assert.strictEqual(w.reads.n, 1)
      w.clock.now += TTL + 1
      assert.isTrue(Either.isRight(yield* w.authenticate()))
      assert.strictEqual(w.reads.n, 2)
    }).pipe(Effect.provide(stores)))

  it.effect("a key revoked through this process is refused by the next request", () =>
    Effect.gen(function*() {
      const w = yield* world
      assert.isTrue(Either.isRight(yield* w.authenticate()))
      yield* Transactor.transactionally(w.store.revokeApiKey(w.issued.id, new Date()))
      const after = yield* w.authenticate()
      assert.isTrue(Either.isLeft(after) && after.left._tag === "ApiKeyRevoked")
    }).pipe(Effect.provide(stores)))

  it.effect("an allowlist or plan changed through this process applies to the next request", () =>
    Effect.gen(function*() {
      const w = yield* world
      assert.isTrue(Either.isRight(yield* w.authenticate("203.0.113.9")))
      yield* w.store.update(w.tenantId, { ipAllowlist: ["198.51.100.0/24"] })
      const refused = yield* w.authenticate("203.0.113.9")
      assert.isTrue(Either.isLeft(refused) && refused.left._tag === "IpNotAllowed")
      assert.isTrue(Either.isRight(yield* w.authenticate("198.51.100.7")))
      yield* w.store.update(w.tenantId, { plan: "starter" })
      const principal = yield* w.authenticate("198.51.100.7")
      assert.strictEqual(Either.getOrThrow(principal).tenant.plan, "starter")
    }).pipe(Effect.provide(stores)))

  it.effect("a revocation made by another process is seen within the TTL, not later", () =>
    Effect.gen(function*() {
      const w = yield* world
      assert.isTrue(Either.isRight(yield* w.authenticate()))
      yield* w.below.revokeApiKey(w.issued.id, new Date()) // not through this process's store
      w.clock.now += TTL - 1
      assert.isTrue(Either.isRight(yield* w.authenticate()), "still remembered inside the TTL (the documented bound)")
      w.clock.now += 2
      const after = yield* w.authenticate()
      assert.isTrue(Either.isLeft(after) && after.left._tag === "ApiKeyRevoked")
    }).pipe(Effect.provide(stores)))

  it.effect("unknown keys are not remembered", () =>
    Effect.gen(function*() {
      const w = yield* world
      const unknown = ApiKeys.generate("test")
      for (let i = 0; i < 3; i++) assert.isTrue(Either.isLeft(yield* w.authenticate("203.0.113.9", unknown)))
      assert.strictEqual(w.reads.n, 3)
    }).pipe(Effect.provide(stores)))

  it.effect("the layer decorates the store below: one read of it for repeated lookups, a revocation through it seen at once", () => {
    // The store below the layer counts its reads: were the layer not in front of it (or another
    // store served the requests), the count would not be one.
    const reads = { n: 0 }
    const countedBelow = Layer.effect(
      TenantStore,
      Effect.map(TenantStore, (below) => ({
        ...below,
        findApiKey: (hash: string) => Effect.suspend(() => (reads.n++, below.findApiKey(hash)))
      }))
    )
    return Effect.gen(function*() {
      const tenant = yield* Tenants.create({ name: "Layered", plan: "starter" }, new Date())
      const issued = yield* Tenants.createKey(tenant.id as TenantId, "test", new Date())
      const store = yield* TenantStore
      for (let i = 0; i < 3; i++) assert.isTrue(Option.isSome(yield* store.findApiKey(ApiKeys.hash(issued.key))))
      assert.strictEqual(reads.n, 1)
      yield* store.revokeApiKey(issued.id, new Date())
      const after = yield* Auth.authenticate({ authorization: `Bearer ${issued.key}`, address: undefined }).pipe(Effect.either)
      assert.isTrue(Either.isLeft(after) && after.left._tag === "ApiKeyRevoked")
      assert.strictEqual(reads.n, 2, "the revocation dropped the remembered answer")
    }).pipe(Effect.provide(ApiKeyCache.layer().pipe(Layer.provide(countedBelow), Layer.provideMerge(stores))))
  })
})
