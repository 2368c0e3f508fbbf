/**
 * `LocalRateLimiter`: a process decides from its own bucket and writes its spending to the
 * shared one once per reconciliation, not once per request; processes sharing a bucket see each
 * other's spending at the next reconciliation, and a tenant that went over (the bound:
 * docs/decisions/serving.md) is refused until its debt is paid back.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as LocalRateLimiter from "../src/Access/LocalRateLimiter.js"
import { RateLimiter, type Service } from "../src/Access/RateLimiter.js"
import * as MemoryStores from "../src/MemoryStores.js"

const policy = { limit: 10, windowSeconds: 60 }
const t0 = new Date("2026-11-25T12:00:00.000Z")
const at = (ms: number) => new Date(t0.getTime() + ms)

/** The shared bucket, counting the calls that reach it. */
const counted = (shared: Service) => {
  const calls = { take: 0, spend: 0 }
  const service: Service = {
    take: (...args) => Effect.zipRight(Effect.sync(() => calls.take++), shared.take(...args)),
    spend: (...args) => Effect.zipRight(Effect.sync(() => calls.spend++), shared.spend(...args))
  }
  return { service, calls }
}

describe("LocalRateLimiter", () => {
  it.effect("one write per reconciliation, not per request; the limit holds in one process", () =>
    Effect.gen(function*() {
      const shared = counted(yield* RateLimiter)
      const local = LocalRateLimiter.make(shared.service)
      const decisions = []
      for (let i = 0; i < 12; i++) decisions.push(yield* local.limiter.take("tnt_a", policy, at(i)))
      assert.deepStrictEqual(decisions.map((d) => d.allowed), [...Array(10).fill(true), false, false])
      assert.deepStrictEqual(shared.calls, { take: 1, spend: 0 }, "only the first request reached the store")
      yield* local.reconcile(at(20))
      assert.deepStrictEqual(shared.calls, { take: 1, spend: 1 })
      // The shared bucket holds what was spent: 10 tokens, nearly nothing refilled.
      assert.isFalse((yield* shared.service.take("tnt_a", policy, at(20))).allowed)
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("two processes: each sees the other's spending at the next reconciliation; a debt is paid back before the next request", () =>
    Effect.gen(function*() {
      const shared = yield* RateLimiter
      const [a, b] = [LocalRateLimiter.make(shared), LocalRateLimiter.make(shared)]
      let allowed = 0
      for (let i = 0; i < 15; i++) {
        if ((yield* a.limiter.take("tnt_x", policy, at(0))).allowed) allowed++
        if ((yield* b.limiter.take("tnt_x", policy, at(0))).allowed) allowed++
      }
      // Over the limit by what the other process allowed from the balance it saw (the bound).
      assert.strictEqual(allowed, 19)
      yield* a.reconcile(at(0))
      yield* b.reconcile(at(0))
      // 9 tokens of debt: both refuse until the refill (one token per 6 s) has paid it and one more.
      for (const p of [a, b]) assert.isFalse((yield* p.limiter.take("tnt_x", policy, at(1_000))).allowed)
      yield* a.reconcile(at(1_000))
      yield* b.reconcile(at(1_000))
      assert.isFalse((yield* a.limiter.take("tnt_x", policy, at(59_000))).allowed)
      // (A balance taken from the shared bucket is its whole tokens: a fraction is not lent.)
      assert.isTrue((yield* a.limiter.take("tnt_x", policy, at(66_000))).allowed)
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("a balance no reconciliation refreshed for two intervals is taken again from the shared bucket", () =>
    Effect.gen(function*() {
      const shared = counted(yield* RateLimiter)
      const local = LocalRateLimiter.make(shared.service, { ...LocalRateLimiter.DEFAULT_OPTIONS, syncMs: 1_000 })
      yield* local.limiter.take("tnt_s", policy, at(0))
      yield* local.limiter.take("tnt_s", policy, at(1_500))
      assert.strictEqual(shared.calls.take, 1)
      yield* local.limiter.take("tnt_s", policy, at(2_500))
      assert.strictEqual(shared.calls.take, 2)
    }).pipe(Effect.provide(MemoryStores.layer)))

  it.effect("a tenant idle past idleMs starts again from the shared bucket", () =>
    Effect.gen(function*() {
      const shared = counted(yield* RateLimiter)
      const local = LocalRateLimiter.make(shared.service, { ...LocalRateLimiter.DEFAULT_OPTIONS, idleMs: 5_000, syncMs: 60_000 })
      yield* local.limiter.take("tnt_i", policy, at(0))
      yield* local.limiter.take("tnt_i", policy, at(4_000))
      assert.strictEqual(shared.calls.take, 1)
      yield* local.limiter.take("tnt_i", policy, at(10_000))
      assert.strictEqual(shared.calls.take, 2)
    }).pipe(Effect.provide(MemoryStores.layer)))
})
