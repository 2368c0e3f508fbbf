import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { decodeTime } from "ulid"
import * as Ids from "../src/Ids.js"

describe("Ids", () => {
  it.effect("a fresh id is its prefix and a ULID of the current time, valid for its schema", () =>
    Effect.gen(function*() {
      const before = Date.now()
      const id = yield* Ids.make("bat")
      assert.isTrue(Schema.is(Ids.BatchId)(id))
      const time = decodeTime(id.slice(4))
      assert.isTrue(time >= before && time <= Date.now())
    }))

  it("ids are distinct, and their random part uses every Crockford character (the pooled randomness is not stuck)", () => {
    const ids = Array.from({ length: 20_000 }, () => Ids.unsafeMake("req"))
    assert.strictEqual(new Set(ids).size, ids.length)
    const counts = new Map<string, number>()
    for (const id of ids) for (const c of id.slice(14)) counts.set(c, (counts.get(c) ?? 0) + 1)
    assert.strictEqual(counts.size, 32)
    // 320,000 characters over 32 symbols: 10,000 expected each; a bias of a fifth would show.
    for (const [, n] of counts) assert.isTrue(n > 8_000 && n < 12_000, `count ${n}`)
  })

  it("ids made in a later millisecond sort after (keyset pagination relies on it)", () => {
    const first = Ids.unsafeMake("crd")
    const start = Date.now()
    while (Date.now() === start) { /* the next millisecond */ }
    const second = Ids.unsafeMake("crd")
    assert.isTrue(second > first)
  })
})
