import { assert, describe, it } from "@effect/vitest"
import { Either, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as Envelope from "../src/Envelope.js"

const key = (input: Uint8Array | string) => Either.getOrThrow(Envelope.masterKey(Redacted.make(input)))

describe("Envelope", () => {
  const master = key(randomBytes(32))
  const secret = randomBytes(32)

  it("opens what it sealed, for the same record", () => {
    const sealed = Envelope.seal(master, secret, "tenant-key:key_1")
    assert.deepStrictEqual(Either.getOrThrow(Envelope.open(master, sealed, "tenant-key:key_1")), new Uint8Array(secret))
    // 1 + 8 + 12 + 32 + 16 + 12 + 16 header bytes, then the sealed record (same length as the plaintext).
    assert.strictEqual(sealed.length, 97 + secret.length)
    assert.strictEqual(sealed[0], 1)
  })

  it("never contains the plaintext, and seals the same plaintext differently each time", () => {
    const a = Buffer.from(Envelope.seal(master, secret, "c"))
    const b = Buffer.from(Envelope.seal(master, secret, "c"))
    assert.strictEqual(a.indexOf(secret), -1)
    assert.isFalse(a.equals(b))
  })

  it("rewrap moves an envelope to a new master key, leaves the sealed record as it was, and runs again harmlessly", () => {
    const next = key(randomBytes(32))
    const sealed = Envelope.seal(master, secret, "webhook-secret:whk_1")
    const moved = Either.getOrThrow(Envelope.rewrap(master, next, sealed, "webhook-secret:whk_1"))
    assert.isTrue(moved.changed)
    assert.deepStrictEqual(Either.getOrThrow(Envelope.open(next, moved.envelope, "webhook-secret:whk_1")), new Uint8Array(secret))
    assert.deepStrictEqual(
      Envelope.open(master, moved.envelope, "webhook-secret:whk_1"),
      Either.left(new Envelope.EnvelopeOpenFailed({ reason: "other-master-key" }))
    )
    // Only the 32-byte data key is wrapped again; the record's IV, tag and ciphertext stay.
    assert.deepStrictEqual(moved.envelope.subarray(69), sealed.subarray(69))
    assert.notDeepEqual(moved.envelope.subarray(9, 69), sealed.subarray(9, 69))
    const again = Either.getOrThrow(Envelope.rewrap(master, next, moved.envelope, "webhook-secret:whk_1"))
    assert.isFalse(again.changed)
    assert.strictEqual(again.envelope, moved.envelope)
  })

  it("rewrap refuses an envelope under a third key, of another record, or altered", () => {
    const next = key(randomBytes(32))
    const sealed = Envelope.seal(master, secret, "tenant-key:key_1")
    assert.deepStrictEqual(
      Envelope.rewrap(key(randomBytes(32)), next, sealed, "tenant-key:key_1"),
      Either.left(new Envelope.EnvelopeOpenFailed({ reason: "other-master-key" }))
    )
    assert.isTrue(Either.isLeft(Envelope.rewrap(master, next, sealed, "tenant-key:key_2")))
    for (const i of [20, 60, 80, sealed.length - 1]) {
      const altered = sealed.slice()
      altered[i] = altered[i]! ^ 0x01
      assert.isTrue(Either.isLeft(Envelope.rewrap(master, next, altered, "tenant-key:key_1")), `byte ${i}`)
    }
  })

  it("refuses another record's envelope, another master key, and any altered byte", () => {
    const sealed = Envelope.seal(master, secret, "tenant-key:key_1")
    assert.deepStrictEqual(
      Envelope.open(master, sealed, "tenant-key:key_2"),
      Either.left(new Envelope.EnvelopeOpenFailed({ reason: "corrupt" }))
    )
    assert.deepStrictEqual(
      Envelope.open(key(randomBytes(32)), sealed, "tenant-key:key_1"),
      Either.left(new Envelope.EnvelopeOpenFailed({ reason: "other-master-key" }))
    )
    for (let i = 9; i < sealed.length; i++) {
      const altered = sealed.slice()
      altered[i] = altered[i]! ^ 0x01
      assert.isTrue(Either.isLeft(Envelope.open(master, altered, "tenant-key:key_1")), `byte ${i}`)
    }
    assert.deepStrictEqual(
      Envelope.open(master, Uint8Array.of(2, ...sealed.subarray(1)), "tenant-key:key_1"),
      Either.left(new Envelope.EnvelopeOpenFailed({ reason: "unsupported-version" }))
    )
    assert.isTrue(Either.isLeft(Envelope.open(master, sealed.subarray(0, 50), "tenant-key:key_1")))
  })

  it("reads a master key as 32 bytes, 64 hex digits, base64 or base64url", () => {
    const bytes = randomBytes(32)
    const ids = [
      key(bytes),
      key(bytes.toString("hex")),
      key(bytes.toString("hex").toUpperCase()),
      key(bytes.toString("base64")),
      key(` ${bytes.toString("base64url")}\n`)
    ].map((k) => k.id)
    assert.strictEqual(new Set(ids).size, 1)
    assert.match(ids[0]!, /^[0-9a-f]{16}$/)
    assert.isTrue(Either.isRight(Envelope.masterKey(Redacted.make(Envelope.generateMasterKey()))))
    for (const bad of ["", "short", "ab".repeat(31), randomBytes(16).toString("base64"), randomBytes(31)]) {
      assert.isTrue(Either.isLeft(Envelope.masterKey(Redacted.make(bad))))
    }
  })

  it("does not show the master key when printed", () => {
    const text = `${JSON.stringify(master)} ${String(master.key)}`
    assert.notInclude(text, Buffer.from(Redacted.value(master.key)).toString("hex"))
  })
})
