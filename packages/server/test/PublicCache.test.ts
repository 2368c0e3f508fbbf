/**
 * `PublicCache`, the memory of the public surface: it answers only what the change feed lets it
 * vouch for (a tenant's answers go when the tenant changes, 404s of unknown ids on any change,
 * everything on a Reset, nothing at all while the feed is not live), an answer computed across
 * a change is not kept, it keeps nothing past its TTL or the moment the answer changes by
 * itself, and it stays within its bytes, least recently used out first.
 */
import type { TenantId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import * as ChangeFeed from "@sigil/service/ChangeFeed"
import { Effect, Layer } from "effect"
import { assert, describe, it } from "@effect/vitest"
import * as PublicCache from "../src/PublicCache.js"

const answer = (tenantId: TenantId | undefined, body = "{}", changesAt?: number): PublicCache.Answer => ({
  status: tenantId === undefined ? 404 : 200,
  body,
  contentType: "application/json",
  headers: {},
  tenantId,
  changesAt
})

const world = (options: Partial<PublicCache.Options> = {}) => {
  let live = true
  let clock = 1_000
  const cache = PublicCache.make({ ...PublicCache.DEFAULT_OPTIONS, ...options }, () => live, () => clock)
  const put = (key: string, a: PublicCache.Answer) => cache.service.set(key, a, cache.service.generation())
  return { cache, put, setLive: (l: boolean) => (live = l), advance: (ms: number) => (clock += ms) }
}

describe("PublicCache", () => {
  it("a tenant's change drops its answers and every unknown id's 404, not other tenants' answers", () => {
    const w = world()
    const [a, b] = [Ids.unsafeMake("tnt"), Ids.unsafeMake("tnt")]
    w.put("/a", answer(a))
    w.put("/b", answer(b))
    w.put("/unknown", answer(undefined))
    w.cache.forgetTenant(a)
    assert.isUndefined(w.cache.service.get("/a"))
    assert.isUndefined(w.cache.service.get("/unknown"))
    assert.isDefined(w.cache.service.get("/b"))
    w.cache.clear()
    assert.isUndefined(w.cache.service.get("/b"))
  })

  it("an answer computed across a change is not kept", () => {
    const w = world()
    const tenant = Ids.unsafeMake("tnt")
    const since = w.cache.service.generation()
    // …the answer is being computed from the old row when the change is heard:
    w.cache.forgetTenant(tenant)
    w.cache.service.set("/a", answer(tenant), since)
    assert.isUndefined(w.cache.service.get("/a"))
  })

  it("nothing is kept or answered while the feed is not live", () => {
    const w = world()
    const tenant = Ids.unsafeMake("tnt")
    w.put("/a", answer(tenant))
    w.setLive(false)
    assert.isUndefined(w.cache.service.get("/a"))
    w.put("/b", answer(tenant))
    w.setLive(true)
    assert.isUndefined(w.cache.service.get("/b"))
  })

  it("an answer is kept at most its TTL, and never past the moment it changes by itself", () => {
    const w = world({ ttlMs: 60_000 })
    const tenant = Ids.unsafeMake("tnt")
    w.put("/ttl", answer(tenant))
    w.put("/expires", answer(tenant, "{}", 1_000 + 10_000))
    w.advance(9_999)
    assert.isDefined(w.cache.service.get("/expires"))
    w.advance(1)
    assert.isUndefined(w.cache.service.get("/expires"), "expired with its credential")
    assert.isDefined(w.cache.service.get("/ttl"))
    w.advance(50_000)
    assert.isUndefined(w.cache.service.get("/ttl"), "past the TTL")
  })

  it("bounded by bytes, least recently used out first", () => {
    const w = world({ maxBytes: 64 * 1024 })
    const tenant = Ids.unsafeMake("tnt")
    const body = "x".repeat(2_000)
    for (let i = 0; i < 100; i++) {
      w.put(`/${i}`, answer(tenant, body))
      // The first one stays in use, so it stays.
      assert.isDefined(w.cache.service.get("/0"))
    }
    assert.isAtMost(w.cache.service.size().bytes, 64 * 1024)
    assert.isDefined(w.cache.service.get("/99"))
    assert.isUndefined(w.cache.service.get("/1"))
    // One answer bigger than an eighth of the bound is not kept at all.
    w.put("/big", answer(tenant, "y".repeat(8 * 1024)))
    assert.isUndefined(w.cache.service.get("/big"))
  })

  it.scoped("the layer listens to the change feed", () =>
    Effect.gen(function*() {
      const tenant = Ids.unsafeMake("tnt")
      const cache = yield* PublicCache.PublicCache
      cache.set("/a", answer(tenant), cache.generation())
      assert.isDefined(cache.get("/a"))
      yield* ChangeFeed.announce(tenant)
      assert.isUndefined(cache.get("/a"))
    }).pipe(Effect.provide(PublicCache.layer().pipe(Layer.provideMerge(ChangeFeed.layerLocal)))))
})
