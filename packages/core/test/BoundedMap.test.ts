/**
 * The caches forget their oldest entry past their limit, and only then.
 */
import { assert, describe, it } from "@effect/vitest"
import * as BoundedMap from "../src/BoundedMap.js"

describe("BoundedMap", () => {
  it("drops the oldest entry when a new key would pass the limit; updating a key drops nothing", () => {
    const map = BoundedMap.make<string, number>(2)
    map.set("a", 1).set("b", 2)
    map.set("a", 10)
    assert.deepStrictEqual([...map], [["a", 10], ["b", 2]])
    map.set("c", 3)
    assert.deepStrictEqual([...map], [["b", 2], ["c", 3]])
    assert.strictEqual(map.size, 2)
  })

  it("never holds more than its limit, whatever is written", () => {
    const map = BoundedMap.make<number, number>(3)
    for (let i = 0; i < 1_000; i++) map.set(i % 7 === 0 ? 0 : i, i)
    assert.strictEqual(map.size, 3)
    assert.deepStrictEqual([...map.keys()], [997, 998, 999])
  })

  it("refuses a limit that is not a positive integer", () => {
    assert.throws(() => BoundedMap.make(0), RangeError)
    assert.throws(() => BoundedMap.make(1.5), RangeError)
  })
})
