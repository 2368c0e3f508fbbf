import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { main } from "../issue-offline.js"

describe("examples/issue-offline", () => {
  it.live("issues, anchors on a fake chain, and every credential verifies", () =>
    Effect.gen(function*() {
      const outcome = yield* main
      assert.strictEqual(outcome.results.length, 3)
      for (const result of outcome.results) {
        assert.strictEqual(result.outcome, "verified", JSON.stringify(result.steps, null, 1))
        assert.strictEqual(result.anchor?.txHash, outcome.transaction)
      }
    }))
})
