/**
 * The behaviour every `ChainReader` must show, run against each implementation (the in-memory
 * fake here, the EVM JSON-RPC reader on the devnet in `@sigil/anchor-base`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Either, type Layer, Option } from "effect"
import * as ChainReader from "../src/ChainReader.js"
import * as Hex from "../src/Hex.js"

/** A mined transaction as the chain holds it. */
export interface Expected {
  readonly hash: string
  readonly input: string
  readonly from: string
  readonly blockNumber: number
  readonly blockTimestamp: Date
}

export interface Harness<R, E> {
  /** The reader under test, plus whatever `put` needs; built once for the suite. */
  readonly layer: Layer.Layer<ChainReader.ChainReader | R, E>
  readonly chain: ChainReader.ChainRef
  /** Puts a transaction with this input on the chain and waits until it is mined. */
  readonly put: (input: string) => Effect.Effect<Expected, unknown, ChainReader.ChainReader | R>
  /** Adds one block on top (to watch confirmations grow); omit when the chain cannot. */
  readonly advance?: Effect.Effect<void, unknown, ChainReader.ChainReader | R>
  /** A reader for the same chain that cannot reach it (closed port, failing transport…). */
  readonly unreachable: Layer.Layer<ChainReader.ChainReader, unknown>
}

const randomInput = () => Hex.fromBytes(crypto.getRandomValues(new Uint8Array(32)))

/** Flips the case of every hex letter after `0x`. */
const flipCase = (hash: string) =>
  `0x${[...hash.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("")}`

export const chainReaderContract = <R, E>(name: string, harness: Harness<R, E>): void => {
  layer(harness.layer, { excludeTestServices: true })(`ChainReader contract: ${name}`, (it) => {
    const get = (hash: string) =>
      Effect.flatMap(ChainReader.ChainReader, (reader) => reader.getTransaction(harness.chain, hash))

    it.effect("returns a mined transaction with its exact input, sender, block and time", () =>
      Effect.gen(function*() {
        const expected = yield* harness.put(randomInput())
        const tx = Option.getOrThrow(yield* get(expected.hash))
        assert.strictEqual(tx.hash.toLowerCase(), expected.hash.toLowerCase())
        assert.strictEqual(tx.input, expected.input)
        assert.strictEqual(tx.from.toLowerCase(), expected.from.toLowerCase())
        assert.strictEqual(tx.blockNumber, expected.blockNumber)
        assert.strictEqual(tx.blockTimestamp?.getTime(), expected.blockTimestamp.getTime())
        assert.isAtLeast(tx.confirmations, 1)
      }))

    it.effect("answers None for a hash the chain does not know", () =>
      Effect.gen(function*() {
        assert.isTrue(Option.isNone(yield* get(randomInput())))
        assert.isTrue(Option.isNone(yield* get("0xnot-a-hash")))
      }))

    it.effect("looks hashes up case-insensitively", () =>
      Effect.gen(function*() {
        const expected = yield* harness.put(randomInput())
        const upper = Option.getOrThrow(yield* get(flipCase(expected.hash.toLowerCase())))
        assert.strictEqual(upper.input, expected.input)
        assert.strictEqual(upper.blockNumber, expected.blockNumber)
      }))

    it.effect("keeps every transaction apart", () =>
      Effect.gen(function*() {
        const inputs = [randomInput(), randomInput(), randomInput()]
        const put = yield* Effect.forEach(inputs, harness.put)
        for (const [i, expected] of put.entries()) {
          assert.strictEqual(Option.getOrThrow(yield* get(expected.hash)).input, inputs[i])
        }
      }))

    if (harness.advance !== undefined) {
      const advance = harness.advance
      it.effect("counts confirmations from the head", () =>
        Effect.gen(function*() {
          const expected = yield* harness.put(randomInput())
          const before = Option.getOrThrow(yield* get(expected.hash)).confirmations
          yield* advance
          const after = Option.getOrThrow(yield* get(expected.hash)).confirmations
          assert.strictEqual(after, before + 1)
        }))
    }
  })

  layer(harness.unreachable, { excludeTestServices: true })(`ChainReader contract: ${name}, unreachable`, (it) => {
    it.effect("fails with ChainUnavailable when the chain cannot be reached", () =>
      Effect.gen(function*() {
        const reader = yield* ChainReader.ChainReader
        const result = yield* Effect.either(reader.getTransaction(harness.chain, randomInput()))
        assert.isTrue(Either.isLeft(result))
        if (Either.isLeft(result)) assert.strictEqual(result.left._tag, "ChainUnavailable")
      }))
  })
}
