/**
 * The faster encodings behind the proofs give the bytes of the slower ones (issue #8,
 * performance only): base58btc as `bs58` 6 writes and reads it, and the batch encoder of
 * MerkleProof2019 proofValues as `MerkleProof2019.encode`.
 */
import { assert, describe, it } from "@effect/vitest"
import bs58 from "bs58"
import { Either, FastCheck as fc } from "effect"
import { readFileSync } from "node:fs"
import * as Base58 from "../src/internal/base58.js"
import { BASE64 } from "../src/internal/base58.wat.js"
import * as Base58Wasm from "../src/internal/base58Wasm.js"
import * as Merkle from "../src/Merkle.js"
import * as MerkleProof2019 from "../src/MerkleProof2019.js"

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

// Byte strings of every length up to well past a proof payload, often with leading zero bytes
// (written as leading "1"s) and runs of 0xff.
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 80 }),
  fc.uint8Array({ minLength: 300, maxLength: 1600 }),
  fc.tuple(fc.integer({ min: 0, max: 5 }), fc.uint8Array({ maxLength: 120 })).map(([zeros, rest]) =>
    Uint8Array.from([...new Array<number>(zeros).fill(0), ...rest])
  ),
  fc.integer({ min: 0, max: 900 }).map((n) => new Uint8Array(n).fill(0xff)),
  fc.integer({ min: 0, max: 40 }).map((n) => new Uint8Array(n))
)

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
// Texts that are base58, and texts that are not (0, O, I, l, non-ASCII).
const texts = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ALPHABET.split("")), maxLength: 1200 }),
  // Around the WebAssembly module's room (4,096 characters) and past it.
  fc.string({ unit: fc.constantFrom(...ALPHABET.split("")), minLength: 4000, maxLength: 4200 }),
  fc.string({ unit: fc.constantFrom(...`${ALPHABET}0OIl€ z`.split("")), maxLength: 60 }),
  // A stray character deep inside a long text, or a multibyte one near the end of the room.
  fc.tuple(
    fc.string({ unit: fc.constantFrom(...ALPHABET.split("")), minLength: 40, maxLength: 4100 }),
    fc.constantFrom("0", "l", "€", "😀", " "),
    fc.nat()
  ).map(([text, bad, at]) => text.slice(0, at % text.length) + bad + text.slice(at % text.length))
)

describe("base58", () => {
  it("encodes as bs58 does, and decodes back", () => {
    fc.assert(
      fc.property(bytes, (input) => {
        const text = Base58.encode(input)
        assert.strictEqual(text, bs58.encode(input))
        assert.strictEqual(hex(Base58.decode(text)), hex(input))
      }),
      { numRuns: 3000 }
    )
  })

  it("decodes any text as bs58.decodeUnsafe does, refusals included, with and without WebAssembly", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const expected = bs58.decodeUnsafe(text)
        for (const actual of [Base58.decodeUnsafe(text), Base58.decodeUnsafeJs(text)]) {
          assert.strictEqual(actual === undefined, expected === undefined, text)
          if (actual !== undefined && expected !== undefined) assert.strictEqual(hex(actual), hex(expected))
        }
      }),
      { numRuns: 1500 }
    )
    assert.throws(() => Base58.decode("abc0"))
  })

  it("decodes in WebAssembly here, and the module is what base58.wat assembles to", async () => {
    const text = Base58.encode(new Uint8Array(500).fill(7))
    const decoded = Base58Wasm.decode(text, 0)
    assert.notStrictEqual(decoded, Base58Wasm.unavailable)
    assert.strictEqual(hex(decoded as Uint8Array), hex(new Uint8Array(500).fill(7)))
    const wabt = await (await import("wabt")).default()
    const wat = readFileSync(new URL("../src/internal/base58.wat", import.meta.url), "utf8")
    const module = wabt.parseWat("base58.wat", wat)
    module.validate()
    assert.strictEqual(Buffer.from(module.toBinary({}).buffer).toString("base64"), BASE64)
  })
})

describe("MerkleProof2019.batchEncoder", () => {
  it("writes the proofValues MerkleProof2019.encode writes, and they decode and verify", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: 1, maxLength: 70 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.boolean(),
        (leaves, chainId, tx, mocknet) => {
          const tree = Merkle.build(leaves as [Uint8Array, ...Array<Uint8Array>])
          const merkleRoot = Merkle.rootHex(tree)
          const anchors: ReadonlyArray<MerkleProof2019.Anchor> = mocknet
            ? [{ chain: "mocknet", network: undefined, tx: "This has not been issued on a blockchain" }]
            : [MerkleProof2019.ethereumAnchor(chainId, `0x${hex(tx)}`)]
          const encode = MerkleProof2019.batchEncoder({ merkleRoot: merkleRoot.toUpperCase(), anchors })
          Merkle.paths(tree).forEach((path, i) => {
            const targetHash = hex(leaves[i]!)
            const proofValue = encode({ path, targetHash })
            assert.strictEqual(proofValue, MerkleProof2019.encode({ path, merkleRoot: merkleRoot.toUpperCase(), targetHash, anchors }))
            const decoded = MerkleProof2019.decode(proofValue)
            assert.isTrue(Either.isRight(decoded))
            assert.isTrue(MerkleProof2019.verifyPath(Either.getOrThrow(decoded)))
          })
        }
      ),
      { numRuns: 200 }
    )
  })
})
