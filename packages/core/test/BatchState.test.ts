import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import * as BatchState from "../src/BatchState.js"
import * as Hex from "../src/Hex.js"

const ci = process.env["CI"] === "true"
const runs = (n: number) => (ci ? n * 5 : n)

const { Anchor, Fail, Sign } = BatchState.BatchEvent

const root = Hex.hash32(`0x${"ab".repeat(32)}`)
const tx = Hex.hash32(`0x${"cd".repeat(32)}`)
const t = (s: number) => new Date(Date.UTC(2025, 5, 30, 12, 0, s))

const sign = Sign({ merkleRoot: root, signedAt: t(1) })
const anchor = Anchor({
  anchor: { chain: "base-sepolia", chainId: 84532, txHash: tx, blockNumber: 1234 },
  anchoredAt: t(2)
})
const fail = Fail({ error: { code: "anchoring_chain_unavailable", message: "rejected for 24 h" }, failedAt: t(3) })
const events: ReadonlyArray<BatchState.BatchEvent> = [sign, anchor, fail]

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) assert.fail(`unexpected ${String(e.left)}`)
  return e.right
}

/** A state of each status, reached through legal moves (failed: from pending and from signed). */
const states: ReadonlyArray<readonly [string, BatchState.BatchState]> = [
  ["pending", BatchState.initial],
  ["signed", right(BatchState.replay([sign]))],
  ["anchored", right(BatchState.replay([sign, anchor]))],
  ["failed (from pending)", right(BatchState.replay([fail]))],
  ["failed (from signed)", right(BatchState.replay([sign, fail]))]
]

/** The contract plus decisions §4, written out independently of the module's own table. */
const expected: Record<BatchState.BatchStatus, Record<BatchState.BatchEventTag, BatchState.BatchStatus | "illegal">> = {
  pending: { Sign: "signed", Anchor: "illegal", Fail: "failed" },
  signed: { Sign: "illegal", Anchor: "anchored", Fail: "failed" },
  anchored: { Sign: "illegal", Anchor: "illegal", Fail: "illegal" },
  failed: { Sign: "illegal", Anchor: "illegal", Fail: "illegal" }
}

describe("BatchState", () => {
  describe("the full transition table", () => {
    for (const [label, state] of states) {
      for (const event of events) {
        const to = expected[state.status][event._tag]
        it(`${label} × ${event._tag} → ${to}`, () => {
          const result = BatchState.transition(state, event)
          assert.strictEqual(BatchState.canApply(state.status, event._tag), to !== "illegal")
          if (to === "illegal") {
            assert.isTrue(Either.isLeft(result))
            if (Either.isLeft(result)) {
              assert.instanceOf(result.left, BatchState.IllegalBatchTransition)
              assert.strictEqual(result.left._tag, "IllegalBatchTransition")
              assert.strictEqual(result.left.from, state.status)
              assert.strictEqual(result.left.event, event._tag)
            }
            return
          }
          const next = right(result)
          assert.strictEqual(next.status, to)
          // The move adds its own fields and keeps everything it had.
          switch (event._tag) {
            case "Sign":
              assert.deepStrictEqual(next, { ...state, status: "signed", merkleRoot: root, signedAt: t(1) })
              break
            case "Anchor":
              assert.deepStrictEqual(next, { ...state, status: "anchored", anchor: event.anchor, anchoredAt: t(2) })
              break
            case "Fail":
              assert.deepStrictEqual(next, { ...state, status: "failed", error: event.error, failedAt: t(3) })
              break
          }
        })
      }
    }

    it("the module's table is the expected one", () => {
      for (const status of BatchState.BatchStatus.literals) {
        for (const event of BatchState.BatchEventTag.literals) {
          const to = BatchState.transitions[status][event]
          assert.strictEqual(to ?? "illegal", expected[status][event], `${status} × ${event}`)
        }
      }
    })
  })

  describe("accumulated record", () => {
    it("the happy path fills root, times and anchor; a failure after signing keeps the root", () => {
      const anchored = right(BatchState.replay([sign, anchor]))
      assert.deepStrictEqual(anchored, {
        status: "anchored",
        merkleRoot: root,
        signedAt: t(1),
        anchoredAt: t(2),
        anchor: { chain: "base-sepolia", chainId: 84532, txHash: tx, blockNumber: 1234 },
        error: undefined,
        failedAt: undefined
      })
      const failed = right(BatchState.replay([sign, fail]))
      assert.strictEqual(failed.merkleRoot, root)
      assert.deepStrictEqual(failed.error, { code: "anchoring_chain_unavailable", message: "rejected for 24 h" })
      assert.isUndefined(failed.anchor)
    })

    it("replay stops at the first illegal move", () => {
      const result = BatchState.replay([sign, sign, anchor])
      assert.isTrue(Either.isLeft(result))
      if (Either.isLeft(result)) assert.deepStrictEqual([result.left.from, result.left.event], ["signed", "Sign"])
    })

    it.prop(
      "any event sequence: the outcome matches the table and the record matches the status",
      { sequence: fc.array(fc.constantFrom(...events), { maxLength: 6 }) },
      ({ sequence }) => {
        // A reference model: walk the expected table by hand.
        let status: BatchState.BatchStatus = "pending"
        let illegal: readonly [BatchState.BatchStatus, BatchState.BatchEventTag] | undefined
        for (const event of sequence) {
          const to: BatchState.BatchStatus | "illegal" = expected[status][event._tag]
          if (to === "illegal") {
            illegal = [status, event._tag]
            break
          }
          status = to
        }
        const result = BatchState.replay(sequence)
        if (illegal !== undefined) {
          assert.isTrue(Either.isLeft(result))
          if (Either.isLeft(result)) assert.deepStrictEqual([result.left.from, result.left.event], illegal)
          return
        }
        const state = right(result)
        assert.strictEqual(state.status, status)
        const signed = state.merkleRoot !== undefined
        assert.strictEqual(signed, state.signedAt !== undefined)
        assert.strictEqual(state.anchor !== undefined, state.status === "anchored")
        assert.strictEqual(state.anchoredAt !== undefined, state.status === "anchored")
        assert.strictEqual(state.error !== undefined, state.status === "failed")
        assert.strictEqual(state.failedAt !== undefined, state.status === "failed")
        if (state.status === "pending") assert.isFalse(signed)
        if (state.status === "signed" || state.status === "anchored") assert.isTrue(signed)
      },
      { fastCheck: { numRuns: runs(200) } }
    )
  })

  describe("the service", () => {
    it.effect("transitions through the layer, failing with the typed error", () =>
      Effect.gen(function*() {
        const machine = yield* BatchState.BatchMachine
        const signed = yield* machine.transition(BatchState.initial, sign)
        const anchored = yield* machine.transition(signed, anchor)
        assert.strictEqual(anchored.status, "anchored")
        const error = yield* Effect.flip(machine.transition(anchored, fail))
        assert.instanceOf(error, BatchState.IllegalBatchTransition)
        assert.deepStrictEqual([error.from, error.event], ["anchored", "Fail"])
      }).pipe(Effect.provide(BatchState.layer)))
  })
})
