import { assert, describe, it } from "@effect/vitest"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import bs58 from "bs58"
import { Effect, Either, FastCheck as fc, Option } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as Cbor from "../src/internal/cbor.js"
import * as Merkle from "../src/Merkle.js"
import * as MerkleProof2019 from "../src/MerkleProof2019.js"

const ci = process.env["CI"] === "true"
const runs = (n: number) => (ci ? n * 5 : n)

const vectorsDir = fileURLToPath(new URL("./fixtures/vectors/", import.meta.url))

interface DecodedJson {
  readonly path: ReadonlyArray<Merkle.PathStep>
  readonly merkleRoot: string
  readonly targetHash: string
  readonly anchors: ReadonlyArray<string>
}

interface ProofValueVector {
  readonly name: string
  readonly proofValue: string
  readonly cborHex: string
  readonly decoded: DecodedJson
}

const codecVectors: ReadonlyArray<ProofValueVector> = JSON.parse(
  readFileSync(join(vectorsDir, "blockcerts/codec/proofvalue-vectors.json"), "utf8")
).vectors

const fromJson = (json: DecodedJson): MerkleProof2019.ProofValue => ({
  path: json.path,
  merkleRoot: json.merkleRoot,
  targetHash: json.targetHash,
  anchors: json.anchors.map((a) => Option.getOrThrow(MerkleProof2019.fromBlink(a)))
})

const decodeOrThrow = (proofValue: string): MerkleProof2019.ProofValue =>
  Either.getOrThrowWith(MerkleProof2019.decode(proofValue), (e) => new Error(e.message))

// The JS layout wraps raw bytes, the Python layout hex text: look at the merkleRoot's inner item.
const isJsLayout = (proofValue: string): boolean => {
  const root = Either.getOrThrow(Cbor.decode(bs58.decode(proofValue.slice(1)))) as ReadonlyArray<[number, Cbor.Value]>
  const merkleRoot = root.find(([k]) => k === 0)![1] as Uint8Array
  return Either.getOrThrow(Cbor.decode(merkleRoot)) instanceof Uint8Array
}

// Every Merkle proof object in the credential vectors, by file.
const credentialProofs = (): ReadonlyArray<{ readonly file: string; readonly proof: MerkleProof2019.MerkleProof }> => {
  const walk = (dir: string): Array<string> =>
    readdirSync(dir).flatMap((name) => {
      const full = join(dir, name)
      return statSync(full).isDirectory() ? walk(full) : full.endsWith(".json") ? [full] : []
    })
  const files = ["blockcerts/credentials", "blockcerts/synthetic", "ob3-blockcerts-generated"]
    .flatMap((d) => walk(join(vectorsDir, d)))
  return files.flatMap((file) => {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { proof?: unknown }
    const proofs: ReadonlyArray<unknown> = Array.isArray(doc.proof) ? doc.proof : doc.proof === undefined ? [] : [doc.proof]
    return proofs.filter(MerkleProof2019.isMerkleProof).map((proof) => ({ file: file.slice(vectorsDir.length), proof }))
  })
}

const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex)
const pathStep: fc.Arbitrary<Merkle.PathStep> = fc.oneof(
  hash32.map((left) => ({ left })),
  hash32.map((right) => ({ right }))
)
const ethAnchor = fc
  .tuple(fc.constantFrom(1, 11155111, 8453, 84532, 31337), hash32)
  .map(([chainId, tx]) => MerkleProof2019.ethereumAnchor(chainId, tx))
const otherAnchor: fc.Arbitrary<MerkleProof2019.Anchor> = fc.oneof(
  fc.tuple(fc.constantFrom(1, 2, 3), hash32).map(([network, tx]) => ({ chain: "btc" as const, network, tx })),
  fc.tuple(fc.constantFrom(137, 80001), hash32).map(([network, tx]) => ({ chain: "mtc" as const, network, tx: `0x${tx}` })),
  hash32.map((tx) => ({ chain: "mocknet" as const, network: -1, tx })),
  fc.string({ minLength: 1 }).filter((s) => !s.includes(":")).map((tx) => ({ chain: "mocknet" as const, network: undefined, tx }))
)
const proofValue = (anchor: fc.Arbitrary<MerkleProof2019.Anchor>): fc.Arbitrary<MerkleProof2019.ProofValue> =>
  fc.record({
    path: fc.array(pathStep, { maxLength: 20 }),
    merkleRoot: hash32,
    targetHash: hash32,
    anchors: fc.array(anchor, { minLength: 1, maxLength: 3 })
  })

const cborValue: fc.Arbitrary<Cbor.Value> = fc.letrec<{ value: Cbor.Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(
      fc.integer(),
      fc.bigInt({ min: -(1n << 64n), max: (1n << 64n) - 1n }).map((n) =>
        n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n
      )
    ),
    fc.uint8Array({ maxLength: 80 }),
    fc.fullUnicodeString({ maxLength: 40 }),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.array(fc.tuple(tie("value"), tie("value")), { maxLength: 4 }).map(Cbor.map)
  )
})).value

describe("MerkleProof2019", () => {
  describe("proofvalue-vectors.json", () => {
    for (const v of codecVectors) {
      it(v.name, () => {
        assert.strictEqual(bytesToHex(bs58.decode(v.proofValue.slice(1))), v.cborHex)
        const decoded = decodeOrThrow(v.proofValue)
        assert.deepStrictEqual(MerkleProof2019.toJson(decoded), v.decoded)
        assert.isTrue(MerkleProof2019.verifyPath(decoded))
        const reencoded = MerkleProof2019.encode(fromJson(v.decoded))
        if (isJsLayout(v.proofValue)) {
          // We write the cert-issuer layout only; the JS one still decodes to the same proof.
          assert.notStrictEqual(reencoded, v.proofValue)
          assert.deepStrictEqual(decodeOrThrow(reencoded), decoded)
        } else {
          assert.strictEqual(reencoded, v.proofValue)
        }
      })
    }

    it("has both layouts", () => {
      const layouts = codecVectors.map((v) => isJsLayout(v.proofValue))
      assert.isTrue(layouts.includes(true) && layouts.includes(false))
    })
  })

  describe("credential vectors", () => {
    const proofs = credentialProofs()

    it("finds every Merkle proof", () => {
      // Today: 9 blockcerts credentials, 4 synthetic, 4 generated + 1 upstream mocknet.
      assert.isAtLeast(proofs.length, 18)
      assert.isTrue(proofs.some((p) => p.proof.type === "DataIntegrityProof"))
      assert.isTrue(proofs.some((p) => p.proof.type === "MerkleProof2019"))
    })

    for (const { file, proof } of proofs) {
      it(`${file}: decodes, its path folds to its root, cert-issuer layouts re-encode exactly`, () => {
        const decoded = decodeOrThrow(proof.proofValue)
        assert.isTrue(MerkleProof2019.verifyPath(decoded))
        const reencoded = MerkleProof2019.encode(decoded)
        if (isJsLayout(proof.proofValue)) assert.deepStrictEqual(decodeOrThrow(reencoded), decoded)
        else assert.strictEqual(reencoded, proof.proofValue)
      })
    }

    it("decodes cert-issuer's mocknet anchor (tx text under key 1) keeping the text", () => {
      const doc = JSON.parse(
        readFileSync(join(vectorsDir, "blockcerts/credentials/mocknet-vc-v2-data-integrity-proof.json"), "utf8")
      )
      const decoded = decodeOrThrow(doc.proof.proofValue)
      const text = "This has not been issued on a blockchain and is for testing only"
      assert.deepStrictEqual(decoded.anchors, [{ chain: "mocknet", network: undefined, tx: text }])
      assert.strictEqual(MerkleProof2019.toBlink(decoded.anchors[0]!), `blink:mocknet:${text}`)
    })

    it("decodes the JS encoder's mocknet anchor to the expected blink", () => {
      const expected = JSON.parse(readFileSync(join(vectorsDir, "ob3-blockcerts-generated/expected.json"), "utf8"))
      const want = expected["recommended.merkle-proof-2019.mocknet.json"]
      const doc = JSON.parse(
        readFileSync(join(vectorsDir, "ob3-blockcerts-generated/recommended.merkle-proof-2019.mocknet.json"), "utf8")
      )
      const decoded = decodeOrThrow(doc.proof.find(MerkleProof2019.isMerkleProof).proofValue)
      assert.deepStrictEqual(MerkleProof2019.toJson(decoded), {
        path: want.path,
        merkleRoot: want.merkleRoot,
        targetHash: want.targetHash,
        anchors: want.anchors
      })
      assert.deepStrictEqual(decoded.anchors[0], { chain: "mocknet", network: -1, tx: want.targetHash })
    })
  })

  describe("round trip", () => {
    it.prop(
      "encode → decode gives back random Ethereum-anchored proofs",
      { value: proofValue(ethAnchor) },
      ({ value }) => {
        const encoded = MerkleProof2019.encode(value)
        assert.match(encoded, /^z[1-9A-HJ-NP-Za-km-z]+$/)
        assert.deepStrictEqual(decodeOrThrow(encoded), value)
      },
      { fastCheck: { numRuns: runs(200) } }
    )

    it.prop(
      "encode → decode gives back other chains and mocknet forms",
      { value: proofValue(fc.oneof(ethAnchor, otherAnchor)) },
      ({ value }) => assert.deepStrictEqual(decodeOrThrow(MerkleProof2019.encode(value)), value),
      { fastCheck: { numRuns: runs(100) } }
    )

    it.prop(
      "an encoded proof verifies exactly when its path folds to its root",
      { n: fc.integer({ min: 1, max: 64 }), pick: fc.nat(), seed: fc.uint8Array({ minLength: 32, maxLength: 32 }) },
      ({ n, pick, seed }) => {
        const leaves = Array.from({ length: n }, (_, i) => {
          const leaf = seed.slice()
          leaf[0] = i & 0xff
          leaf[1] = i >> 8
          return leaf
        }) as [Uint8Array, ...Array<Uint8Array>]
        const tree = Merkle.build(leaves)
        const i = pick % n
        const value: MerkleProof2019.ProofValue = {
          path: Merkle.path(tree, i),
          merkleRoot: Merkle.rootHex(tree),
          targetHash: bytesToHex(leaves[i]!),
          anchors: [MerkleProof2019.ethereumAnchor(8453, bytesToHex(seed))]
        }
        const decoded = decodeOrThrow(MerkleProof2019.encode(value))
        assert.isTrue(MerkleProof2019.verifyPath(decoded))
        if (n > 1) {
          assert.isFalse(MerkleProof2019.verifyPath({ ...decoded, targetHash: bytesToHex(leaves[(i + 1) % n]!) }))
        }
      },
      { fastCheck: { numRuns: runs(100) } }
    )
  })

  describe("hostile input", () => {
    const neverThrows = (input: string) => {
      const result = MerkleProof2019.decode(input)
      assert.isTrue(Either.isEither(result))
      if (Either.isLeft(result)) assert.strictEqual(result.left._tag, "InvalidProofValue")
    }

    it.prop("random strings", { s: fc.fullUnicodeString({ maxLength: 300 }) }, ({ s }) => {
      neverThrows(s)
      neverThrows(`z${s}`)
    }, { fastCheck: { numRuns: runs(200) } })

    it.prop(
      "random bytes as z+base58",
      { bytes: fc.uint8Array({ maxLength: 600 }) },
      ({ bytes }) => neverThrows(`z${bs58.encode(bytes)}`),
      { fastCheck: { numRuns: runs(200) } }
    )

    it.prop(
      "random CBOR values",
      { value: cborValue },
      ({ value }) => neverThrows(`z${bs58.encode(Cbor.encode(value))}`),
      { fastCheck: { numRuns: runs(200) } }
    )

    it.prop(
      "corrupted real proofValues",
      { pick: fc.nat(), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.nat() },
      ({ at, byte, cut, pick }) => {
        const v = codecVectors[pick % codecVectors.length]!
        const bytes = hexToBytes(v.cborHex)
        const changed = bytes.slice()
        changed[at % bytes.length] = byte
        neverThrows(`z${bs58.encode(changed)}`)
        neverThrows(`z${bs58.encode(bytes.subarray(0, cut % bytes.length))}`)
      },
      { fastCheck: { numRuns: runs(200) } }
    )

    it("refuses non-strings, other multibase prefixes and oversized input", () => {
      for (const input of [undefined, null, 42, {}, "", "z", "u" + "A".repeat(10), "z0OIl", `z${"2".repeat(5000)}`]) {
        assert.isTrue(Either.isLeft(MerkleProof2019.decode(input as string)))
      }
    })

    const h = "ab".repeat(32)
    const t = (s: string) => Cbor.encode(s)
    const valid = (): Array<[number, Cbor.Value]> => [
      [3, []],
      [0, t(h)],
      [1, t(h)],
      [2, [[[0, 1], [1, 8453], [2, t(`0x${h}`)]]]]
    ]
    const encodeCbor = (v: Cbor.Value) => `z${bs58.encode(Cbor.encode(v))}`
    const invalid: ReadonlyArray<[string, Cbor.Value | Uint8Array]> = [
      ["a map instead of pairs", Cbor.map(valid())],
      ["an unknown key", [...valid(), [4, 0]]],
      ["a repeated key", [...valid(), [0, t(h)]]],
      ["a pair of three", [[3, [], 0], ...valid().slice(1)]],
      ["a missing merkleRoot", valid().filter(([k]) => k !== 0)],
      ["a missing targetHash", valid().filter(([k]) => k !== 1)],
      ["missing anchors", valid().filter(([k]) => k !== 2)],
      ["empty anchors", [...valid().slice(0, 3), [2, []]]],
      ["a 31-byte hash", [[0, Cbor.encode(new Uint8Array(31))], ...valid().slice(1)]],
      ["63 hex digits", [[0, t(h.slice(1))], ...valid().slice(1)]],
      ["0x on a hash", [[0, t(`0x${h}`)], ...valid().slice(1)]],
      ["a hash not wrapped in a byte string", [[0, h], ...valid().slice(1)]],
      ["an integer inside the wrapper", [[0, Cbor.encode(7)], ...valid().slice(1)]],
      ["trailing bytes inside the wrapper", [[0, new Uint8Array([...t(h), 0])], ...valid().slice(1)]],
      ["a path side of 2", [[3, [[2, t(h)]]], ...valid().slice(1)]],
      ["an unknown chain", [...valid().slice(0, 3), [2, [[[0, 7], [1, 1], [2, t(h)]]]]]],
      ["a text network", [...valid().slice(0, 3), [2, [[[0, 1], [1, "sepolia"], [2, t(h)]]]]]],
      ["an empty tx (the JS encoder's 0x bug)", [...valid().slice(0, 3), [2, [[[0, 1], [1, 11155111], [2, Cbor.encode(new Uint8Array(0))]]]]]],
      ["an anchor without tx", [...valid().slice(0, 3), [2, [[[0, 1], [1, 1]]]]]],
      ["an anchor key 3", [...valid().slice(0, 3), [2, [[[0, 1], [1, 1], [2, t(h)], [3, 5]]]]]]
    ]
    for (const [name, value] of invalid) {
      it(`rejects ${name}`, () => {
        const result = MerkleProof2019.decode(encodeCbor(value))
        assert.isTrue(Either.isLeft(result), name)
      })
    }

    it("rejects trailing bytes after the CBOR item", () => {
      const bytes = Cbor.encode(valid())
      assert.isTrue(Either.isRight(MerkleProof2019.decode(`z${bs58.encode(bytes)}`)))
      assert.isTrue(Either.isLeft(MerkleProof2019.decode(`z${bs58.encode(new Uint8Array([...bytes, 0]))}`)))
    })
  })

  describe("anchors", () => {
    const tx = `0x${"1f".repeat(32)}`

    it("names keymap networks and writes other chain ids as numbers", () => {
      assert.strictEqual(MerkleProof2019.toBlink(MerkleProof2019.ethereumAnchor(11155111, tx)), `blink:eth:sepolia:${tx}`)
      assert.strictEqual(MerkleProof2019.toBlink(MerkleProof2019.ethereumAnchor(1, tx)), `blink:eth:mainnet:${tx}`)
      assert.strictEqual(MerkleProof2019.toBlink(MerkleProof2019.ethereumAnchor(8453, tx)), `blink:eth:8453:${tx}`)
      assert.strictEqual(MerkleProof2019.toBlink(MerkleProof2019.ethereumAnchor(84532, tx)), `blink:eth:84532:${tx}`)
      assert.strictEqual(MerkleProof2019.toBlink(MerkleProof2019.ethereumAnchor(31337, tx)), `blink:eth:31337:${tx}`)
      assert.strictEqual(MerkleProof2019.toBlink({ chain: "btc", network: 2, tx: "ab" }), "blink:btc:regtest:ab")
      assert.strictEqual(MerkleProof2019.toBlink({ chain: "mtc", network: 80001, tx }), `blink:mtc:mumbai:${tx}`)
      assert.strictEqual(MerkleProof2019.toBlink({ chain: "mocknet", network: -1, tx: "ab" }), "blink:mocknet:mocknet:ab")
    })

    it("normalises Ethereum tx hashes to 0x + lowercase", () => {
      assert.strictEqual(MerkleProof2019.ethereumAnchor(8453, tx.slice(2).toUpperCase()).tx, tx)
    })

    it.prop(
      "fromBlink reads what toBlink writes",
      { anchor: fc.oneof(ethAnchor, otherAnchor) },
      ({ anchor }) => assert.deepStrictEqual(MerkleProof2019.fromBlink(MerkleProof2019.toBlink(anchor)), Option.some(anchor)),
      { fastCheck: { numRuns: runs(100) } }
    )

    it("fromBlink refuses what is not an anchor", () => {
      for (const s of ["", "blink", "blink:eth", "blink:eth:", "blink:doge:mainnet:ab", "urn:eth:sepolia:ab", "blink:eth:nowhere:ab", "blink:eth:sepolia:"]) {
        assert.isTrue(Option.isNone(MerkleProof2019.fromBlink(s)), s)
      }
    })
  })

  describe("proof object", () => {
    it("builds the Data Integrity form Sigil embeds", () => {
      const proof = MerkleProof2019.makeProof({
        id: "urn:uuid:5c0e1f3a-6b7d-4c8e-9f0a-1b2c3d4e5f60",
        created: new Date("2025-01-15T00:00:05.678Z"),
        verificationMethod: "did:web:example.org:tenants:abc#key-1",
        proofValue: codecVectors[2]!.proofValue
      })
      assert.deepStrictEqual(proof, {
        id: "urn:uuid:5c0e1f3a-6b7d-4c8e-9f0a-1b2c3d4e5f60",
        type: "DataIntegrityProof",
        cryptosuite: "merkle-proof-2019",
        created: "2025-01-15T00:00:05Z",
        proofPurpose: "assertionMethod",
        verificationMethod: "did:web:example.org:tenants:abc#key-1",
        proofValue: codecVectors[2]!.proofValue
      })
      assert.deepStrictEqual(Object.keys(proof), [
        "id", "type", "cryptosuite", "created", "proofPurpose", "verificationMethod", "proofValue"
      ])
      assert.isTrue(MerkleProof2019.isMerkleProof(proof))
    })

    it.effect("makes urn:uuid proof ids", () =>
      Effect.gen(function*() {
        const a = yield* MerkleProof2019.newProofId
        const b = yield* MerkleProof2019.newProofId
        assert.match(a, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        assert.notStrictEqual(a, b)
      }))

    it("recognises both Merkle proof forms and nothing else", () => {
      const pv = "z123"
      assert.isTrue(MerkleProof2019.isMerkleProof({ type: "MerkleProof2019", proofValue: pv }))
      assert.isTrue(MerkleProof2019.isMerkleProof({ type: "DataIntegrityProof", cryptosuite: "merkle-proof-2019", proofValue: pv }))
      for (const other of [
        { type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022", proofValue: pv },
        { type: "DataIntegrityProof", proofValue: pv },
        { type: "MerkleProof2019" },
        { type: "MerkleProof2019", proofValue: 5 },
        { type: "Ed25519Signature2020", proofValue: pv },
        null,
        "MerkleProof2019",
        [{ type: "MerkleProof2019", proofValue: pv }]
      ]) {
        assert.isFalse(MerkleProof2019.isMerkleProof(other), JSON.stringify(other))
      }
    })
  })
})

describe("internal/cbor", () => {
  const hex = (v: Cbor.Value) => bytesToHex(Cbor.encode(v))

  it("writes shortest heads (RFC 8949 Appendix A)", () => {
    const cases: ReadonlyArray<[Cbor.Value, string]> = [
      [0, "00"],
      [23, "17"],
      [24, "1818"],
      [255, "18ff"],
      [256, "190100"],
      [65535, "19ffff"],
      [65536, "1a00010000"],
      [11155111, "1a00aa36a7"],
      [4294967295, "1affffffff"],
      [4294967296, "1b0000000100000000"],
      [1000000000000, "1b000000e8d4a51000"],
      [18446744073709551615n, "1bffffffffffffffff"],
      [-1, "20"],
      [-24, "37"],
      [-25, "3818"],
      [-1000, "3903e7"],
      [-18446744073709551616n, "3bffffffffffffffff"],
      [new Uint8Array([1, 2, 3, 4]), "4401020304"],
      ["", "60"],
      ["IETF", "6449455446"],
      ["\u00fc", "62c3bc"],
      [[], "80"],
      [[1, [2, 3], [4, 5]], "8301820203820405"],
      [Cbor.map([[1, 2], [3, 4]]), "a201020304"]
    ]
    for (const [value, want] of cases) {
      assert.strictEqual(hex(value), want)
      assert.deepStrictEqual(Either.getOrThrow(Cbor.decode(hexToBytes(want))), value)
    }
  })

  it("decodes non-shortest heads (cert-issuer never writes them, but they are valid)", () => {
    assert.strictEqual(Either.getOrThrow(Cbor.decode(hexToBytes("1b0000000000000001"))), 1)
  })

  it("refuses what it does not support and malformed input", () => {
    const bad = [
      "", // nothing
      "18", // truncated argument
      "1b00000000", // truncated 64-bit argument
      "1c", // reserved additional info
      "5f", // indefinite byte string
      "9f", // indefinite array
      "c0", // tag
      "f5", // true
      "f97c00", // half float
      "4401", // short byte string
      "62c3", // short text
      "62c328", // invalid UTF-8
      "0000", // trailing byte
      "9bffffffffffffffff", // absurd array length
      "bbffffffffffffffff" // absurd map length
    ]
    for (const h of bad) assert.isTrue(Either.isLeft(Cbor.decode(hexToBytes(h))), h)
    assert.isTrue(Either.isLeft(Cbor.decode(new Uint8Array(100_000).fill(0x81))), "deep nesting")
  })

  it.prop(
    "round-trips values",
    { value: cborValue },
    ({ value }) => assert.deepStrictEqual(Either.getOrThrow(Cbor.decode(Cbor.encode(value))), value),
    { fastCheck: { numRuns: runs(200) } }
  )

  it.prop(
    "never throws on random bytes",
    { bytes: fc.uint8Array({ maxLength: 200 }) },
    ({ bytes }) => assert.isTrue(Either.isEither(Cbor.decode(bytes))),
    { fastCheck: { numRuns: runs(500) } }
  )
})
