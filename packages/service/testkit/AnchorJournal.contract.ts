/**
 * The behaviour every `AnchorJournal` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import * as AnchorJournal from "../src/Batches/AnchorJournal.js"
import type { Hash32, Hex } from "@sigil/core/Hex"
import * as Ids from "@sigil/core/Ids"
import { at, plus, randomHex } from "./fixtures.js"

const senderOf = () => `0x${randomHex(20)}`

const attemptOf = (
  chainId: number,
  sender: string,
  nonce: number,
  batchId: AnchorJournal.Attempt["batchId"],
  createdAt: Date
): AnchorJournal.Attempt => ({
  chainId,
  batchId,
  sender,
  nonce,
  txHash: `0x${randomHex(32)}` as Hash32,
  rawTransaction: `0x02f8${randomHex(120)}` as Hex,
  // Above 2^64: the journal keeps wei amounts exactly.
  maxFeePerGas: 123_456_789_012_345_678_901_234n,
  maxPriorityFeePerGas: 1_000_000n,
  createdAt
})

export const anchorJournalContract = <E>(name: string, stores: Layer.Layer<AnchorJournal.AnchorJournal, E>): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`AnchorJournal contract: ${name}`, (it) => {
    const journal = AnchorJournal.AnchorJournal
    const t0 = at("2025-03-01T12:00:00.000Z")

    it.effect("records a batch's signed transactions and returns them oldest first", () =>
      Effect.gen(function*() {
        const j = yield* journal
        const sender = senderOf()
        const batchId = Ids.unsafeMake("bat")
        const first = attemptOf(84532, sender, 7, batchId, t0)
        // A replacement at the same nonce with a higher fee.
        const replacement = { ...attemptOf(84532, sender, 7, batchId, plus(t0, 30_000)), maxFeePerGas: 2n * first.maxFeePerGas }
        yield* j.record(first)
        yield* j.record(attemptOf(84532, sender, 8, Ids.unsafeMake("bat"), plus(t0, 1)))
        yield* j.record(attemptOf(8453, sender, 7, batchId, plus(t0, 2)))
        yield* j.record(replacement)
        assert.deepStrictEqual(yield* j.attempts(84532, batchId), [first, replacement])
        assert.deepStrictEqual(yield* j.attempts(84532, Ids.unsafeMake("bat")), [])
        assert.strictEqual((yield* j.attempts(8453, batchId)).length, 1)
      }))

    it.effect("recording the same transaction twice keeps one", () =>
      Effect.gen(function*() {
        const j = yield* journal
        const attempt = attemptOf(84532, senderOf(), 0, Ids.unsafeMake("bat"), t0)
        yield* j.record(attempt)
        yield* j.record(attempt)
        assert.deepStrictEqual(yield* j.attempts(84532, attempt.batchId!), [attempt])
      }))

    it.effect("knows a sender's highest nonce per chain, whatever the address case", () =>
      Effect.gen(function*() {
        const j = yield* journal
        const sender = senderOf()
        assert.strictEqual(yield* j.lastNonce(84532, sender), undefined)
        yield* j.record(attemptOf(84532, sender, 3, Ids.unsafeMake("bat"), t0))
        // Gas top-ups from the treasury have no batch; they count too.
        yield* j.record(attemptOf(84532, sender.toUpperCase().replace("0X", "0x"), 5, undefined, plus(t0, 1)))
        yield* j.record(attemptOf(84532, sender, 4, Ids.unsafeMake("bat"), plus(t0, 2)))
        yield* j.record(attemptOf(8453, sender, 40, Ids.unsafeMake("bat"), plus(t0, 3)))
        assert.strictEqual(yield* j.lastNonce(84532, sender.toUpperCase().replace("0X", "0x")), 5)
        assert.strictEqual(yield* j.lastNonce(8453, sender), 40)
        assert.strictEqual(yield* j.lastNonce(31337, sender), undefined)
        assert.strictEqual(yield* j.lastNonce(84532, senderOf()), undefined)
      }))
  })
}
