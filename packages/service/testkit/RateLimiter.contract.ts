/**
 * The behaviour every `RateLimiter` must show (memory, PGlite, Postgres): the decisions of
 * `RateLimiter.decide`, per key, whatever the store.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import * as RateLimiter from "../src/Access/RateLimiter.js"
import { at, plus, SECOND, unique } from "./fixtures.js"

/** What `decide` answers for a sequence of takes on one fresh bucket. */
const reference = (policy: RateLimiter.Policy, times: ReadonlyArray<Date>) => {
  let bucket: { tokens: number; updatedAt: Date } | undefined = undefined
  return times.map((now) => {
    const next = RateLimiter.decide(bucket, policy, now)
    bucket = { tokens: next.tokens, updatedAt: next.updatedAt }
    return next.decision
  })
}

export const rateLimiterContract = <E>(name: string, stores: Layer.Layer<RateLimiter.RateLimiter, E>): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`RateLimiter contract: ${name}`, (it) => {
    const limiter = RateLimiter.RateLimiter
    const t0 = at("2025-03-01T12:00:00.000Z")

    it.effect("spend takes what was spent elsewhere, below zero if need be, as RateLimiter.spent does; a take then waits for the debt", () =>
      Effect.gen(function*() {
        const l = yield* limiter
        const policy = { limit: 10, windowSeconds: 60 }
        const key = unique("tenant")
        let reference: { tokens: number; updatedAt: Date } | undefined = undefined
        for (const [ms, count] of [[0, 4], [6_000, 3], [6_000, 12], [60_000, 1]] as const) {
          const now = plus(t0, ms)
          reference = RateLimiter.spent(reference, policy, count, now)
          assert.strictEqual(yield* l.spend(key, policy, count, now), reference.tokens)
        }
        const inDebt = unique("tenant")
        assert.strictEqual(yield* l.spend(inDebt, policy, 15, t0), -5)
        assert.isFalse((yield* l.take(inDebt, policy, plus(t0, 30_000))).allowed, "5 tokens of debt, 5 back after 30 s: still under one")
        assert.isTrue((yield* l.take(inDebt, policy, plus(t0, 36_000))).allowed)
      }))

    it.effect("decides as RateLimiter.decide does, take after take", () =>
      Effect.gen(function*() {
        const l = yield* limiter
        const policy = { limit: 5, windowSeconds: 60 }
        // A burst that empties the bucket, refusals, partial refills, a full refill, a clock step back.
        const offsets = [0, 0, 1, 2, 3, 4, 5, 100, 11_999, 12_000, 12_001, 30_000, 200_000, 199_000, 199_500, 260_000]
        const times = offsets.map((ms) => plus(t0, ms))
        const key = unique("tenant")
        const got: Array<RateLimiter.Decision> = []
        for (const now of times) got.push(yield* l.take(key, policy, now))
        assert.deepStrictEqual(got, reference(policy, times))
        assert.isTrue(got.some((d) => !d.allowed))
        assert.isTrue(got.slice(0, 5).every((d) => d.allowed))
      }))

    it.effect("matches decide on random take sequences", () =>
      Effect.gen(function*() {
        const l = yield* limiter
        for (let run = 0; run < 5; run++) {
          const policy = { limit: 1 + Math.floor(Math.random() * 20), windowSeconds: [1, 10, 60][run % 3]! }
          let ms = 0
          const times = Array.from({ length: 40 }, () => plus(t0, (ms += Math.floor(Math.random() * 700))))
          const key = unique("tenant")
          const got: Array<RateLimiter.Decision> = []
          for (const now of times) got.push(yield* l.take(key, policy, now))
          assert.deepStrictEqual(got, reference(policy, times))
        }
      }))

    it.effect("refuses with a Retry-After until a token is back", () =>
      Effect.gen(function*() {
        const l = yield* limiter
        const key = unique("tenant")
        const policy = { limit: 3, windowSeconds: 60 }
        for (let i = 0; i < 3; i++) assert.isTrue((yield* l.take(key, policy, t0)).allowed)
        const refused = yield* l.take(key, policy, t0)
        assert.isFalse(refused.allowed)
        assert.strictEqual(refused.remaining, 0)
        assert.strictEqual(refused.retryAfterSeconds, 20)
        assert.isFalse((yield* l.take(key, policy, plus(t0, 19 * SECOND))).allowed)
        assert.isTrue((yield* l.take(key, policy, plus(t0, 21 * SECOND))).allowed)
      }))

    it.effect("keeps one bucket per key", () =>
      Effect.gen(function*() {
        const l = yield* limiter
        const a = unique("tenant")
        const b = unique("tenant")
        const policy = { limit: 1, windowSeconds: 60 }
        assert.isTrue((yield* l.take(a, policy, t0)).allowed)
        assert.isFalse((yield* l.take(a, policy, t0)).allowed)
        assert.isTrue((yield* l.take(b, policy, t0)).allowed)
      }))

    it.effect("allows exactly the bucket's tokens under concurrency", () =>
      Effect.gen(function*() {
        const l = yield* limiter
        const key = unique("tenant")
        const policy = { limit: 5, windowSeconds: 3600 }
        const decisions = yield* Effect.all(
          Array.from({ length: 12 }, () => l.take(key, policy, t0)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(decisions.filter((d) => d.allowed).length, 5)
        assert.deepStrictEqual(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort(), [0, 1, 2, 3, 4])
      }))
  })
}
