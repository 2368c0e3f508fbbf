/**
 * Base58 (the Bitcoin alphabet, base58btc), byte for byte what `bs58` 6 / `base-x` 5 give, in
 * a fraction of the time for proof-sized payloads.
 *
 * `base-x` multiplies the whole result by 256 for every input byte: one small step per byte
 * and output digit, ≈430,000 of them (≈1.2 ms) for the 794-byte MerkleProof2019 payload of a
 * 500-credential batch. Here the number is held in limbs of 2²⁴ (encoding) or 58⁴ (decoding)
 * and repeatedly divided by the other base, each limb step producing 24 bits × 4 digits;
 * eight divisions run interleaved in one sweep (eight independent remainder chains keep the
 * floating-point units busy), and dividing by 58⁴ is a multiplication by its reciprocal with
 * a one-step correction. Every intermediate stays below 2⁴⁸, so doubles are exact. ≈15–35×
 * faster than base-x on proof payloads, ≈4–10× on 64-byte signatures.
 *
 * Decoding runs the same sweeps in WebAssembly where it can (`base58Wasm.ts`, 2–3× faster
 * again); the JavaScript here is what runs where it cannot (a page whose CSP forbids it), and
 * there long texts go through BigInt multiplication (faster than the sweeps above ≈400 digits).
 *
 * @since 0.1.0
 * @internal
 */

import * as BoundedMap from "../BoundedMap.js"
import * as Base58Wasm from "./base58Wasm.js"

// From this many digits on, WebAssembly (base58Wasm.ts) decodes faster than the sweeps here
// (≈2× at a signature's 88 digits, ≈2.6× at a proofValue's thousand).
const WASM_FROM = 32

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i

const B58_4 = 58 * 58 * 58 * 58 // 11,316,496 < 2^24
const INV_B58_4 = 1 / B58_4
const B24 = 16_777_216
const INV_B24 = 1 / B24 // exact: a power of two

let scratch = new Float64Array(256)
const limbs = (count: number): Float64Array => {
  if (scratch.length < count) scratch = new Float64Array(count * 2)
  return scratch
}

// ⌊x / 58⁴⌋ for 0 ≤ x < 2^48: x · (1/58⁴) is within 2^-27 of the quotient, which is at least
// 1/58⁴ ≈ 2^-23.4 from the next integer unless the division is exact, where the product may
// fall just short: the remainder check fixes that one case.

/**
 * @since 0.1.0
 * @internal
 */
export const encode = (bytes: Uint8Array): string => {
  const n = bytes.length
  let zeros = 0
  while (zeros < n && bytes[zeros] === 0) zeros++
  const leading = "1".repeat(zeros)
  if (zeros === n) return leading
  // Big-endian limbs of 2^24: a first limb of 1–3 bytes, then three bytes each.
  const count = Math.ceil((n - zeros) / 3)
  const L = limbs(count)
  let p = zeros
  let first = 0
  for (const end = n - (count - 1) * 3; p < end; p++) first = first * 256 + bytes[p]!
  L[0] = first
  for (let i = 1; i < count; i++, p += 3) L[i] = (bytes[p]! << 16) | (bytes[p + 1]! << 8) | bytes[p + 2]!

  // Eight divisions by 58^4 per sweep: eight base-58^4 digits, least significant first.
  const groups = groupBuffer(Math.ceil(count / 7.8) * 8 + 8)
  let g = 0
  let start = 0
  while (start < count) {
    let r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0
    for (let i = start; i < count; i++) {
      let x = r1 * B24 + L[i]!
      let q = Math.floor(x * INV_B58_4)
      r1 = x - q * B58_4
      if (r1 >= B58_4) (q++, r1 -= B58_4)
      x = r2 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r2 = x - q * B58_4
      if (r2 >= B58_4) (q++, r2 -= B58_4)
      x = r3 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r3 = x - q * B58_4
      if (r3 >= B58_4) (q++, r3 -= B58_4)
      x = r4 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r4 = x - q * B58_4
      if (r4 >= B58_4) (q++, r4 -= B58_4)
      x = r5 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r5 = x - q * B58_4
      if (r5 >= B58_4) (q++, r5 -= B58_4)
      x = r6 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r6 = x - q * B58_4
      if (r6 >= B58_4) (q++, r6 -= B58_4)
      x = r7 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r7 = x - q * B58_4
      if (r7 >= B58_4) (q++, r7 -= B58_4)
      x = r8 * B24 + q
      q = Math.floor(x * INV_B58_4)
      r8 = x - q * B58_4
      if (r8 >= B58_4) (q++, r8 -= B58_4)
      L[i] = q
    }
    groups[g++] = r1
    groups[g++] = r2
    groups[g++] = r3
    groups[g++] = r4
    groups[g++] = r5
    groups[g++] = r6
    groups[g++] = r7
    groups[g++] = r8
    while (start < count && L[start] === 0) start++
  }

  // The characters, most significant first, without leading zero digits: written as char
  // codes into one buffer and made a string once (no string per digit).
  g--
  while (groups[g] === 0) g--
  const chars = charBuffer(zeros + 4 * (g + 1))
  let k = 0
  while (k < zeros) chars[k++] = ONE
  const top = groups[g]!
  if (top >= 58 * 58 * 58) chars[k++] = CODES[Math.floor(top / 195_112)]!
  if (top >= 58 * 58) chars[k++] = CODES[Math.floor(top / 3364) % 58]!
  if (top >= 58) chars[k++] = CODES[Math.floor(top / 58) % 58]!
  chars[k++] = CODES[top % 58]!
  for (g--; g >= 0; g--) {
    const group = groups[g]!
    const high = Math.floor(group / 3364)
    const low = group - high * 3364
    const a = Math.floor(high / 58)
    const b = Math.floor(low / 58)
    chars[k++] = CODES[a]!
    chars[k++] = CODES[high - a * 58]!
    chars[k++] = CODES[b]!
    chars[k++] = CODES[low - b * 58]!
  }
  return charsToString(chars, k)
}

const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))
const ONE = 49 // "1", the digit zero

let groupScratch = new Float64Array(512)
const groupBuffer = (size: number): Float64Array => {
  if (groupScratch.length < size) groupScratch = new Float64Array(size * 2)
  return groupScratch
}
let charScratch = new Uint8Array(2048)
const charBuffer = (size: number): Uint8Array => {
  if (charScratch.length < size) charScratch = new Uint8Array(size * 2)
  return charScratch
}
// Char codes to a string, in slices that stay under the engines' argument limits.
const charsToString = (chars: Uint8Array, length: number): string => {
  let out = ""
  for (let i = 0; i < length; i += 8192) {
    out += String.fromCharCode.apply(null, chars.subarray(i, Math.min(length, i + 8192)) as unknown as Array<number>)
  }
  return out
}

// Long texts: V8's BigInt multiplication beats the sweeps below ≈400 digits. The digits are
// joined by divide and conquer — value(high half) · 58^|low half| + value(low half) — down to
// nine-digit groups that doubles hold exactly.
// The powers are keyed by the lengths the halving meets (a few per text length); 256 of them cover
// the texts a process decodes over and over, and an unusual length only computes its power again.
const lengthPowers = BoundedMap.make<number, bigint>(256)
const powerOfLength = (length: number): bigint => {
  let p = lengthPowers.get(length)
  if (p === undefined) {
    p = 58n ** BigInt(length)
    lengthPowers.set(length, p)
  }
  return p
}

const valueOf = (digits: Int8Array, from: number, to: number): bigint => {
  const length = to - from
  if (length <= 9) {
    let v = 0
    for (let i = from; i < to; i++) v = v * 58 + digits[i]!
    return BigInt(v)
  }
  let low = 9
  while (low * 2 < length) low *= 2
  return valueOf(digits, from, to - low) * powerOfLength(low) + valueOf(digits, to - low, to)
}

// Hex digit → value, for the lowercase digits BigInt.toString(16) writes.
const NIBBLES = new Uint8Array(128)
for (let i = 0; i < 16; i++) NIBBLES["0123456789abcdef".charCodeAt(i)] = i
const decodeLong = (text: string, zeros: number): Uint8Array | undefined => {
  const n = text.length
  const digits = new Int8Array(n)
  for (let i = zeros; i < n; i++) {
    const c = text.charCodeAt(i)
    const d = c < 128 ? VALUES[c]! : -1
    if (d < 0) return undefined
    digits[i] = d
  }
  const hex = valueOf(digits, zeros, n).toString(16)
  const odd = hex.length % 2
  const out = new Uint8Array(zeros + ((hex.length + odd) >> 1))
  let k = zeros
  let i = 0
  if (odd === 1) out[k++] = NIBBLES[hex.charCodeAt(i++)]!
  for (; i < hex.length; i += 2) out[k++] = (NIBBLES[hex.charCodeAt(i)]! << 4) | NIBBLES[hex.charCodeAt(i + 1)]!
  return out
}

/**
 * Decodes, or `undefined` when the text holds a character outside the alphabet (as
 * `bs58.decodeUnsafe`). Leading `1`s are leading zero bytes.
 *
 * @since 0.1.0
 * @internal
 */
export const decodeUnsafe = (text: string): Uint8Array | undefined => decodeWith(text, true)

/**
 * `decodeUnsafe` without WebAssembly (what runs where it is unavailable): for tests.
 *
 * @since 0.1.0
 * @internal
 */
export const decodeUnsafeJs = (text: string): Uint8Array | undefined => decodeWith(text, false)

const decodeWith = (text: string, webAssembly: boolean): Uint8Array | undefined => {
  const n = text.length
  let zeros = 0
  while (zeros < n && text.charCodeAt(zeros) === 49) zeros++
  if (zeros === n) return new Uint8Array(zeros)
  if (webAssembly && n - zeros >= WASM_FROM && n <= Base58Wasm.MAX_TEXT) {
    const bytes = Base58Wasm.decode(text, zeros)
    if (bytes !== Base58Wasm.unavailable) return bytes
  }
  return decodeJs(text, zeros)
}

const decodeJs = (text: string, zeros: number): Uint8Array | undefined => {
  const n = text.length
  if (n - zeros > 400) return decodeLong(text, zeros)
  // Big-endian limbs of 58^4: a first limb of 1–4 digits, then four digits each.
  const count = Math.ceil((n - zeros) / 4)
  const L = limbs(count)
  let p = zeros
  for (let i = 0; i < count; i++) {
    let limb = 0
    for (const end = i === 0 ? n - (count - 1) * 4 : p + 4; p < end; p++) {
      const c = text.charCodeAt(p)
      const d = c < 128 ? VALUES[c]! : -1
      if (d < 0) return undefined
      limb = limb * 58 + d
    }
    L[i] = limb
  }

  // Eight divisions by 2^24 per sweep (exact: a power of two): 24-bit groups, least significant first.
  const groups = groupBuffer(Math.ceil(count / 7.8) * 8 + 8)
  let g = 0
  let start = 0
  while (start < count) {
    let r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0
    for (let i = start; i < count; i++) {
      let x = r1 * B58_4 + L[i]!
      let q = Math.floor(x * INV_B24)
      r1 = x - q * B24
      x = r2 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r2 = x - q * B24
      x = r3 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r3 = x - q * B24
      x = r4 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r4 = x - q * B24
      x = r5 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r5 = x - q * B24
      x = r6 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r6 = x - q * B24
      x = r7 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r7 = x - q * B24
      x = r8 * B58_4 + q
      q = Math.floor(x * INV_B24)
      r8 = x - q * B24
      L[i] = q
    }
    groups[g++] = r1
    groups[g++] = r2
    groups[g++] = r3
    groups[g++] = r4
    groups[g++] = r5
    groups[g++] = r6
    groups[g++] = r7
    groups[g++] = r8
    while (start < count && L[start] === 0) start++
  }

  // Big-endian bytes without leading zero bytes, after the leading zeros of the text.
  g--
  while (groups[g] === 0) g--
  const top = groups[g]!
  const topBytes = top >= 65536 ? 3 : top >= 256 ? 2 : 1
  const out = new Uint8Array(zeros + topBytes + g * 3)
  let k = zeros
  if (topBytes === 3) out[k++] = top >>> 16
  if (topBytes >= 2) out[k++] = (top >>> 8) & 0xff
  out[k++] = top & 0xff
  for (g--; g >= 0; g--) {
    const group = groups[g]!
    out[k++] = group >>> 16
    out[k++] = (group >>> 8) & 0xff
    out[k++] = group & 0xff
  }
  return out
}

/**
 * Decodes; throws on a character outside the alphabet (as `bs58.decode`).
 *
 * @since 0.1.0
 * @internal
 */
export const decode = (text: string): Uint8Array => {
  const bytes = decodeUnsafe(text)
  if (bytes === undefined) throw new Error("Non-base58 character")
  return bytes
}
