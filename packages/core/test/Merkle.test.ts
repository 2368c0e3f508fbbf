import { assert, describe, it } from "@effect/vitest"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import { FastCheck as fc } from "effect"
import { readFileSync } from "node:fs"
import * as Merkle from "../src/Merkle.js"

const ci = process.env["CI"] === "true"
const runs = (n: number) => (ci ? n * 5 : n)

interface TreeVector {
  readonly name: string
  readonly leafPreimages?: ReadonlyArray<string>
  readonly leaves: ReadonlyArray<string>
  readonly level1?: ReadonlyArray<string>
  readonly merkleRoot: string
  readonly paths: ReadonlyArray<ReadonlyArray<Merkle.PathStep>>
}

const vectors: ReadonlyArray<TreeVector> = JSON.parse(
  readFileSync(new URL("./fixtures/vectors/blockcerts/codec/merkle-tree-vectors.json", import.meta.url), "utf8")
).vectors

// Deterministic leaves: generating 1,000 random byte arrays per run would cost more than the
// tree itself and make shrinking useless.
const leavesFor = (seed: number, n: number): [Uint8Array, ...Array<Uint8Array>] => {
  const out: Array<Uint8Array> = []
  for (let i = 0; i < n; i++) {
    const input = new Uint8Array(8)
    new DataView(input.buffer).setUint32(0, seed >>> 0)
    new DataView(input.buffer).setUint32(4, i)
    out.push(sha256(input))
  }
  return out as [Uint8Array, ...Array<Uint8Array>]
}

const flipBit = (hex: string, bit: number): string => {
  const bytes = hexToBytes(hex)
  const b = bit % (bytes.length * 8)
  bytes[b >> 3]! ^= 1 << (b & 7)
  return bytesToHex(bytes)
}

const flipStep = (step: Merkle.PathStep, bit: number): Merkle.PathStep =>
  "left" in step ? { left: flipBit(step.left, bit) } : { right: flipBit(step.right, bit) }

describe("Merkle", () => {
  describe("cert-issuer vectors", () => {
    for (const v of vectors) {
      it(v.name, () => {
        if (v.leafPreimages !== undefined) {
          assert.deepStrictEqual(v.leafPreimages.map((p) => bytesToHex(sha256(utf8ToBytes(p)))), v.leaves)
        }
        const tree = Merkle.build(v.leaves.map(hexToBytes) as [Uint8Array, ...Array<Uint8Array>])
        assert.strictEqual(Merkle.rootHex(tree), v.merkleRoot)
        assert.strictEqual(Merkle.size(tree), v.leaves.length)
        if (v.level1 !== undefined) assert.deepStrictEqual(tree.levels[1]!.map(bytesToHex), v.level1)
        assert.deepStrictEqual(Merkle.paths(tree), v.paths)
        v.leaves.forEach((leaf, i) => {
          assert.deepStrictEqual(Merkle.path(tree, i), v.paths[i])
          assert.isTrue(Merkle.verify(leaf, v.paths[i]!, v.merkleRoot))
        })
      })
    }
  })

  it("a single leaf is its own root, with an empty path", () => {
    const leaf = sha256(utf8ToBytes("only"))
    const tree = Merkle.build([leaf])
    assert.deepStrictEqual(tree.root, leaf)
    assert.deepStrictEqual(Merkle.paths(tree), [[]])
    assert.isTrue(Merkle.verify(bytesToHex(leaf), [], bytesToHex(leaf)))
  })

  it("promotes the odd node of every level unchanged", () => {
    const tree = Merkle.build(leavesFor(7, 5))
    assert.deepStrictEqual(tree.levels.map((l) => l.length), [5, 3, 2, 1])
    assert.deepStrictEqual(tree.levels[1]![2], tree.levels[0]![4])
    assert.deepStrictEqual(tree.levels[2]![1], tree.levels[0]![4])
    // Leaf 4 is promoted twice and meets the rest of the tree only at the top.
    assert.strictEqual(Merkle.path(tree, 4).length, 1)
  })

  it("rejects leaves that are not 32-byte hashes and indexes outside the tree", () => {
    assert.throws(() => Merkle.build([new Uint8Array(31)]), RangeError)
    const tree = Merkle.build(leavesFor(1, 3))
    assert.throws(() => Merkle.path(tree, 3), RangeError)
    assert.throws(() => Merkle.path(tree, -1), RangeError)
    assert.throws(() => Merkle.path(tree, 0.5), RangeError)
  })

  it.prop(
    "every path of a 1–1,000 leaf batch verifies, and one flipped bit anywhere breaks it",
    {
      n: fc.integer({ min: 1, max: 1000 }),
      seed: fc.integer(),
      pick: fc.nat(),
      bit: fc.nat({ max: 255 })
    },
    ({ bit, n, pick, seed }) => {
      const tree = Merkle.build(leavesFor(seed, n))
      const root = Merkle.rootHex(tree)
      const leaves = tree.levels[0]!.map(bytesToHex)
      const all = Merkle.paths(tree)
      assert.strictEqual(all.length, n)
      all.forEach((p, i) => assert.isTrue(Merkle.verify(leaves[i]!, p, root)))

      const i = pick % n
      const leaf = leaves[i]!
      const p = all[i]!
      assert.deepStrictEqual(Merkle.path(tree, i), p)
      assert.isFalse(Merkle.verify(flipBit(leaf, bit), p, root))
      assert.isFalse(Merkle.verify(leaf, p, flipBit(root, bit)))
      p.forEach((_, j) => {
        const tampered = p.map((step, k) => (k === j ? flipStep(step, bit + j) : step))
        assert.isFalse(Merkle.verify(leaf, tampered, root))
      })
      if (n > 1) {
        // Another leaf's path does not prove this leaf.
        assert.isFalse(Merkle.verify(leaf, all[(i + 1) % n]!, root))
      }
    },
    // Each run builds up to 1,000 leaves and checks every path: CI gets 3x, not 5x.
    { fastCheck: { numRuns: ci ? 300 : 100 } }
  )

  it("accepts hex in either case", () => {
    const tree = Merkle.build(leavesFor(3, 6))
    const up = (s: string) => s.toUpperCase()
    const p = Merkle.path(tree, 3).map((s) => ("left" in s ? { left: up(s.left) } : { right: up(s.right) }))
    assert.isTrue(Merkle.verify(up(bytesToHex(tree.levels[0]![3]!)), p, up(Merkle.rootHex(tree))))
  })

  it("answers false to malformed input", () => {
    const tree = Merkle.build(leavesFor(5, 4))
    const root = Merkle.rootHex(tree)
    const leaf = bytesToHex(tree.levels[0]![0]!)
    const [a, b] = Merkle.path(tree, 0) as [{ right: string }, { right: string }]
    const bad: ReadonlyArray<[unknown, unknown, unknown]> = [
      [leaf, [a, b], `0x${root}`],
      [`0x${leaf}`, [a, b], root],
      [leaf.slice(2), [a, b], root],
      [`${leaf}00`, [a, b], root],
      [leaf.replace(/^./, "g"), [a, b], root],
      [leaf, [a, { right: `0x${b.right}` }], root],
      [leaf, [a, { right: b.right, left: b.right }], root],
      [leaf, [a, {}], root],
      [leaf, [a, null], root],
      [leaf, [a, b.right], root],
      [leaf, [a, { right: 42 }], root],
      [leaf, [a, { up: b.right }], root],
      [leaf, [{ left: a.right }, b], root],
      [leaf, "not a path", root],
      [leaf, null, root],
      [leaf, [a, b], null],
      [undefined, [a, b], root],
      [42, [a, b], root]
    ]
    for (const [t, p, r] of bad) {
      assert.isFalse(Merkle.verify(t as string, p as ReadonlyArray<Merkle.PathStep>, r as string))
    }
    assert.isTrue(Merkle.verify(leaf, [a, b], root))
  })

  it.prop(
    "never throws on arbitrary input",
    { t: fc.anything(), p: fc.anything(), r: fc.anything() },
    ({ p, r, t }) => {
      const result = Merkle.verify(t as string, p as ReadonlyArray<Merkle.PathStep>, r as string)
      assert.isFalse(result)
    },
    { fastCheck: { numRuns: runs(200) } }
  )

  it("builds a 500-leaf tree with every path in a few milliseconds", () => {
    const leaves = leavesFor(42, 500)
    let best = Infinity
    for (let k = 0; k < 5; k++) {
      const start = performance.now()
      Merkle.paths(Merkle.build(leaves))
      best = Math.min(best, performance.now() - start)
    }
    // The target is a few ms; the bound leaves room for slow CI machines.
    assert.isBelow(best, 50)
  })
})
