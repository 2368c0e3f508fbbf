import { assert, describe, it } from "@effect/vitest"
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { utf8ToBytes } from "@noble/hashes/utils.js"
import bs58 from "bs58"
import { Either, FastCheck as fc } from "effect"
import { readFileSync } from "node:fs"
import * as Keys from "../src/Keys.js"

const ci = process.env["CI"] === "true"
const runs = (n: number) => (ci ? n * 5 : n)

const vectors = new URL("./fixtures/vectors/", import.meta.url)
const load = (path: string) => JSON.parse(readFileSync(new URL(path, vectors), "utf8"))

interface VerificationMethod {
  readonly id: string
  readonly type: string
  readonly publicKeyJwk?: unknown
  readonly publicKeyMultibase?: string
}

const profile = load("blockcerts/resources/issuer-blockcerts.noproof.json") as {
  readonly verificationMethod: ReadonlyArray<VerificationMethod>
  readonly publicKey: ReadonlyArray<{ readonly id: string }>
}
const method = (fragment: string): VerificationMethod => profile.verificationMethod.find((m) => m.id.endsWith(fragment))!

const right = <A, E>(e: Either.Either<A, E>): A => Either.getOrThrowWith(e, (err) => new Error(String(err)))

const isInvalid = (e: Either.Either<Keys.PublicKey, Keys.InvalidPublicKey>): boolean =>
  Either.isLeft(e) && e.left._tag === "InvalidPublicKey"

describe("Keys", () => {
  describe("Blockcerts issuer profile", () => {
    it("#key-1 (JWK) is the Ethereum sender 0x40cf9b7d…", () => {
      const key = right(Keys.fromVerificationMethod(method("#key-1")))
      assert.strictEqual(key.kind, "secp256k1")
      assert.strictEqual(key.publicKey.length, 33)
      assert.strictEqual(Keys.ethereumAddress(key.publicKey), "0x40cf9b7db6fcc742ad0a76b8588c7f8de2b54a60")
      // The profile lists the same address (checksummed) under publicKey.
      assert.isTrue(profile.publicKey.some((k) => k.id.toLowerCase() === `ecdsa-koblitz-pubkey:${Keys.ethereumAddress(key.publicKey)}`))
    })

    it("#key-1-multibase is the same key", () => {
      const jwk = right(Keys.fromVerificationMethod(method("#key-1")))
      const multikey = right(Keys.fromVerificationMethod(method("#key-1-multibase")))
      assert.deepStrictEqual(multikey, jwk)
      assert.strictEqual(Keys.ethereumAddress(multikey.publicKey), "0x40cf9b7db6fcc742ad0a76b8588c7f8de2b54a60")
      assert.strictEqual(Keys.toMultibase(jwk), method("#key-1-multibase").publicKeyMultibase)
    })

    it("Bitcoin addresses hash the compressed key (key-1 → mgdWjvq4…, key-1-btc → 1862cjGV…)", () => {
      const key1 = right(Keys.fromVerificationMethod(method("#key-1")))
      assert.strictEqual(Keys.bitcoinAddress(key1.publicKey, "testnet"), "mgdWjvq4RYAAP5goUNagTRMx7Xw534S5am")
      const btc = right(Keys.fromVerificationMethod(method("#key-1-btc")))
      assert.strictEqual(Keys.bitcoinAddress(btc.publicKey, "mainnet"), "1862cjGVHodmYyvfumSgrgfnWcpCMHK9sq")
      // The uncompressed form of the same key gives the same address.
      const uncompressed = secp256k1.Point.fromBytes(key1.publicKey).toBytes(false)
      assert.strictEqual(Keys.bitcoinAddress(uncompressed, "testnet"), "mgdWjvq4RYAAP5goUNagTRMx7Xw534S5am")
    })

    it("reads every verification method of the profile", () => {
      const kinds = profile.verificationMethod.map((m) => right(Keys.fromVerificationMethod(m)).kind)
      assert.deepStrictEqual(kinds, ["secp256k1", "secp256k1", "secp256k1", "secp256k1", "secp256k1", "secp256k1", "ed25519"])
    })

    it("the did:ion key-1 has the BTC testnet address of chain-replay.json", () => {
      const did = load("blockcerts/resources/did-ion-EiA_Z6LQILbB2zj_eVrqfQ2xDm4HNqeJUw5Kj2Z7bFOOeQ.json")
      const replay = load("blockcerts/chain-replay.json")
      const key = right(Keys.fromVerificationMethod(did.verificationMethod[0]))
      const address = Keys.bitcoinAddress(key.publicKey, "testnet")
      assert.strictEqual(address, "mgdWjvq4RYAAP5goUNagTRMx7Xw534S5am")
      assert.strictEqual(replay.vectors["credentials/testnet-v3-did.json"].transactionData.issuingAddress, address)
      assert.strictEqual(Keys.ethereumAddress(key.publicKey), "0x40cf9b7db6fcc742ad0a76b8588c7f8de2b54a60")
    })
  })

  describe("test keys of the vectors", () => {
    it("sha256(\"bc-research-demo-key-1\") signs from 0x7f8da442…", () => {
      const secret = sha256(utf8ToBytes("bc-research-demo-key-1"))
      const want = "0x7f8da4428f6fa5dc419c47e111a800d1c50a1280"
      assert.strictEqual(Keys.ethereumAddress(secp256k1.getPublicKey(secret, true)), want)
      assert.strictEqual(Keys.ethereumAddress(secp256k1.getPublicKey(secret, false)), want)
      // …and it is the key the synthetic profile publishes.
      const demo = load("blockcerts/synthetic/demo-issuer-profile.json")
      const key = right(Keys.fromVerificationMethod(demo.verificationMethod[0]))
      assert.deepStrictEqual(key.publicKey, secp256k1.getPublicKey(secret, true))
      assert.deepStrictEqual(Keys.toJwk(key), { kty: "EC", crv: "secp256k1", ...pick(demo.verificationMethod[0].publicKeyJwk, "x", "y") })
    })

    it("the Ed25519 seed 0x07×32 is z6MkvDqG… with JWK x 6kpsY-Kc…", () => {
      const key = right(Keys.make("ed25519", ed25519.getPublicKey(new Uint8Array(32).fill(7))))
      assert.strictEqual(Keys.toMultibase(key), "z6MkvDqGT54cXesYGvABpF1UapVNwjCqRcafi4Px6Thv5T3Z")
      assert.deepStrictEqual(Keys.toJwk(key), { kty: "OKP", crv: "Ed25519", x: "6kpsY-KcUgq-9VB7Ey7F-ZVHdq6-vnuSQh7qaRRG0iw" })
      // The generated issuer profile publishes it as a JsonWebKey2020.
      const generated = load("ob3-blockcerts-generated/issuer-profile.issuer.example.org.json")
      const vm = generated.verificationMethod.find((m: VerificationMethod) => m.id.endsWith("#z6MkvDqGT54cXesYGvABpF1UapVNwjCqRcafi4Px6Thv5T3Z"))
      assert.deepStrictEqual(right(Keys.fromVerificationMethod(vm)), key)
    })
  })

  describe("round trips", () => {
    it.prop(
      "Ed25519: multibase and JWK",
      { seed: fc.uint8Array({ minLength: 32, maxLength: 32 }) },
      ({ seed }) => {
        const key = right(Keys.make("ed25519", ed25519.getPublicKey(seed)))
        const multibase = Keys.toMultibase(key)
        assert.isTrue(multibase.startsWith("z6Mk"))
        assert.deepStrictEqual(right(Keys.fromMultibase(multibase)), key)
        assert.deepStrictEqual(right(Keys.fromJwk(Keys.toJwk(key))), key)
        const both = { type: "Multikey", publicKeyMultibase: multibase, publicKeyJwk: Keys.toJwk(key) }
        assert.deepStrictEqual(right(Keys.fromVerificationMethod(both)), key)
      },
      { fastCheck: { numRuns: runs(100) } }
    )

    it.prop(
      "secp256k1: multibase, JWK and both point forms",
      { secret: fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((s) => secp256k1.utils.isValidSecretKey(s)) },
      ({ secret }) => {
        const compressed = secp256k1.getPublicKey(secret, true)
        const uncompressed = secp256k1.getPublicKey(secret, false)
        const key = right(Keys.make("secp256k1", uncompressed))
        assert.deepStrictEqual(key.publicKey, compressed)
        const multibase = Keys.toMultibase(key)
        assert.isTrue(multibase.startsWith("zQ3s"))
        assert.deepStrictEqual(right(Keys.fromMultibase(multibase)), key)
        const jwk = Keys.toJwk(key) as Keys.Secp256k1Jwk
        assert.deepStrictEqual(right(Keys.fromJwk(jwk)), key)
        assert.strictEqual(Keys.ethereumAddress(compressed), Keys.ethereumAddress(uncompressed))
        assert.match(Keys.ethereumAddress(compressed), /^0x[0-9a-f]{40}$/)
        assert.match(Keys.bitcoinAddress(compressed, "mainnet"), /^1[1-9A-HJ-NP-Za-km-z]{25,33}$/)
        assert.match(Keys.bitcoinAddress(compressed, "testnet"), /^[mn][1-9A-HJ-NP-Za-km-z]{25,33}$/)
      },
      { fastCheck: { numRuns: runs(100) } }
    )
  })

  describe("remembered points", () => {
    it("a key read again gives the same answer, and what a caller does to its bytes stays with it", () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), (seed, tamper) => {
          const secp = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false)
          const ed = ed25519.getPublicKey(seed)
          // A byte flipped in X leaves (X, Y) off the curve: the same refusal both times.
          if (tamper) secp[5] = secp[5]! ^ 1
          for (const [kind, bytes] of [["secp256k1", secp], ["ed25519", ed]] as const) {
            const first = Keys.make(kind, bytes)
            if (Either.isRight(first)) first.right.publicKey.fill(0)
            const second = Keys.make(kind, bytes)
            assert.strictEqual(Either.isRight(second), Either.isRight(first))
            if (Either.isRight(second)) {
              const expected = kind === "ed25519" ? bytes : secp256k1.Point.fromBytes(bytes).toBytes(true)
              assert.deepStrictEqual(second.right.publicKey, expected)
              if (kind === "secp256k1") {
                assert.strictEqual(Keys.ethereumAddress(bytes), Keys.ethereumAddress(second.right.publicKey))
              }
            }
          }
        }),
        { numRuns: runs(40) }
      )
    })
  })

  describe("refusals", () => {
    const ed = right(Keys.make("ed25519", ed25519.getPublicKey(new Uint8Array(32).fill(7))))
    const secp = right(Keys.fromVerificationMethod(method("#key-1")))
    const secpJwk = Keys.toJwk(secp) as Keys.Secp256k1Jwk

    it("bad JWKs", () => {
      const bad: ReadonlyArray<unknown> = [
        null,
        "jwk",
        { kty: "OKP", crv: "Ed25519" },
        { kty: "OKP", crv: "X25519", x: (Keys.toJwk(ed) as Keys.Ed25519Jwk).x },
        { ...Keys.toJwk(ed), x: `${(Keys.toJwk(ed) as Keys.Ed25519Jwk).x}=` },
        { ...Keys.toJwk(ed), x: (Keys.toJwk(ed) as Keys.Ed25519Jwk).x.slice(1) },
        { ...Keys.toJwk(ed), d: "AAAA" },
        { ...secpJwk, crv: "P-256" },
        { ...secpJwk, y: undefined },
        { ...secpJwk, y: secpJwk.x }, // not on the curve
        { ...secpJwk, x: secpJwk.x.replace(/.$/, (c) => (c === "A" ? "B" : "A")) }, // off curve or non-canonical
        { ...secpJwk, x: secpJwk.x.replace(/[-_]/g, "+") }
      ]
      for (const jwk of bad) assert.isTrue(isInvalid(Keys.fromJwk(jwk)), JSON.stringify(jwk))
    })

    it("bad multibase keys", () => {
      const bad = [
        "",
        "z",
        "u7QE",
        `z${"1".repeat(200)}`,
        "z0OIl",
        Keys.toMultibase(ed).slice(0, -2), // truncated
        `z${Keys.toMultibase(secp).slice(1)}1`, // 34-byte secp256k1
        `z${bs58.encode(Uint8Array.of(0x80, 0x24, ...secp.publicKey))}` // p256-pub codec
      ]
      for (const s of bad) assert.isTrue(isInvalid(Keys.fromMultibase(s)), s)
      assert.isTrue(isInvalid(Keys.make("secp256k1", new Uint8Array(33))))
      assert.isTrue(isInvalid(Keys.make("ed25519", new Uint8Array(31))))
    })

    it("verification methods that are not what they claim", () => {
      const bad: ReadonlyArray<unknown> = [
        null,
        {},
        { type: "Multikey" },
        { type: "RsaVerificationKey2018", publicKeyJwk: secpJwk },
        { type: "Ed25519VerificationKey2020", publicKeyMultibase: Keys.toMultibase(secp) },
        { type: "EcdsaSecp256k1VerificationKey2019", publicKeyJwk: Keys.toJwk(ed) },
        { type: "Multikey", publicKeyMultibase: Keys.toMultibase(ed), publicKeyJwk: secpJwk },
        { type: "JsonWebKey2020", publicKeyJwk: "not a jwk" },
        { type: "Multikey", publicKeyMultibase: 42 }
      ]
      for (const vm of bad) assert.isTrue(isInvalid(Keys.fromVerificationMethod(vm)), JSON.stringify(vm))
    })

    it("addresses of something that is not a secp256k1 key throw RangeError", () => {
      assert.throws(() => Keys.ethereumAddress(new Uint8Array(32)), RangeError)
      assert.throws(() => Keys.bitcoinAddress(new Uint8Array(33), "mainnet"), RangeError)
    })

    it.prop(
      "decoders never throw",
      { u: fc.anything(), s: fc.string({ maxLength: 120 }) },
      ({ s, u }) => {
        assert.isTrue(Either.isEither(Keys.fromVerificationMethod(u)))
        assert.isTrue(Either.isEither(Keys.fromJwk(u)))
        assert.isTrue(Either.isEither(Keys.fromMultibase(s)))
        assert.isTrue(Either.isEither(Keys.fromMultibase(`z${s}`)))
        assert.isTrue(Either.isEither(Keys.fromVerificationMethod({ type: "Multikey", publicKeyMultibase: `z${s}` })))
        assert.isTrue(Either.isEither(Keys.fromJwk({ kty: "EC", crv: "secp256k1", x: s, y: s })))
      },
      { fastCheck: { numRuns: runs(200) } }
    )

    it.prop(
      "random 33-byte multikeys decode or fail, never throw",
      { bytes: fc.uint8Array({ minLength: 33, maxLength: 33 }) },
      ({ bytes }) => {
        // Most random 33-byte strings are not points: they must fail, not throw.
        const result = Keys.fromMultibase(Keys.toMultibase({ kind: "secp256k1", publicKey: bytes }))
        assert.isTrue(Either.isEither(result))
        if (Either.isRight(result)) assert.deepStrictEqual(result.right.publicKey, bytes)
      },
      { fastCheck: { numRuns: runs(200) } }
    )
  })
})

function pick<T extends Record<string, unknown>, K extends keyof T>(o: T, ...keys: ReadonlyArray<K>): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>
}
