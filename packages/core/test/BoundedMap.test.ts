/**
 * The verifier's caches forget their oldest entry past their limit, and only then.
 */
import { assert, describe, it } from "@effect/vitest"
import { BoundedMap } from "../src/internal/boundedMap.js"

describe("BoundedMap", () => {
  it("drops the oldest entry when a new key would pass the limit; updating a key drops nothing", () => {
    const map = new BoundedMap<string, number>(2)
    map.set("a", 1).set("b", 2)
    map.set("a", 10)
    assert.deepStrictEqual([...map], [["a", 10], ["b", 2]])
    map.set("c", 3)
    assert.deepStrictEqual([...map], [["b", 2], ["c", 3]])
    assert.strictEqual(map.size, 2)
  })
})
