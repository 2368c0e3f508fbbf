/**
 * The one-pass hash parsers give what the regular expression and @noble's hex functions give,
 * on well-formed and hostile input alike.
 */
import { assert, describe, it } from "@effect/vitest"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { FastCheck as fc } from "effect"
import * as Hex from "../src/Hex.js"

const HASH_HEX = /^[0-9a-fA-F]{64}$/
const reference = (text: string): string | undefined => HASH_HEX.test(text) ? text.toLowerCase() : undefined

// 64-character strings of hex digits in either case, with now and then a character that is
// not one (a neighbour of the digit ranges, a non-ASCII one, one whose low byte is a digit).
const candidates = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF".split("")), minLength: 64, maxLength: 64 }),
  fc.tuple(
    fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF".split("")), minLength: 64, maxLength: 64 }),
    fc.constantFrom("/", ":", "@", "G", "`", "g", " ", "é", "\u0130", "\u0161", "\u0441"),
    fc.integer({ min: 0, max: 63 })
  ).map(([text, bad, at]) => text.slice(0, at) + bad + text.slice(at + 1)),
  fc.string({ maxLength: 70 })
)

describe("Hex", () => {
  it("hash32Bytes parses exactly the 64-hex-digit strings", () => {
    fc.assert(
      fc.property(candidates, (text) => {
        const expected = reference(text)
        const actual = Hex.hash32Bytes(text)
        assert.strictEqual(actual === undefined ? undefined : bytesToHex(actual), expected, text)
      }),
      { numRuns: 3000 }
    )
    for (const notText of [undefined, null, 42, ["a"], { length: 64 }]) assert.isUndefined(Hex.hash32Bytes(notText))
  })

  it("hash32FromAscii reads 64 ASCII hex digits at an offset, lowercased", () => {
    fc.assert(
      fc.property(candidates, fc.uint8Array({ maxLength: 4 }), (text, prefix) => {
        const encoded = new TextEncoder().encode(text)
        const bytes = new Uint8Array(prefix.length + encoded.length)
        bytes.set(prefix)
        bytes.set(encoded, prefix.length)
        // The 64 bytes after the prefix, read one character per byte (a multibyte character
        // gives bytes ≥ 0x80, never hex digits).
        const window = encoded.subarray(0, 64)
        const expected = window.length === 64 ? reference(String.fromCharCode(...window)) : undefined
        assert.strictEqual(Hex.hash32FromAscii(bytes, prefix.length), expected, text)
      }),
      { numRuns: 3000 }
    )
    assert.isUndefined(Hex.hash32FromAscii(new TextEncoder().encode("ab".repeat(31)), 0), "too short")
    assert.strictEqual(Hex.hash32FromAscii(hexToBytes("41".repeat(64)), 0), "a".repeat(64))
  })
})
