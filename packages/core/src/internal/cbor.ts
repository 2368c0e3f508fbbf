/**
 * The small part of CBOR (RFC 8949) that MerkleProof2019 proofValues use: integers, byte
 * strings, text strings, arrays and maps, definite lengths only. No tags, floats or simple
 * values: no producer of proofValues emits them, and every construct we accept is one more
 * way for hostile input to reach code paths we do not test.
 *
 * Decoding never throws: proofValues come from documents anyone can hand us.
 *
 * @since 0.1.0
 * @internal
 */
import { Either, Schema } from "effect"

/**
 * Integers decode to `number` when they are safe integers, to `bigint` otherwise.
 *
 * @since 0.1.0
 * @internal
 */
export type Value = number | bigint | Uint8Array | string | ReadonlyArray<Value> | CborMap

/**
 * A map keeps its entries in wire order; keys may be any value, so a JS `Map` would not do.
 *
 * @since 0.1.0
 * @internal
 */
export interface CborMap {
  readonly _tag: "CborMap"
  readonly entries: ReadonlyArray<readonly [Value, Value]>
}

/**
 * @since 0.1.0
 * @internal
 */
export const map = (entries: ReadonlyArray<readonly [Value, Value]>): CborMap => ({ _tag: "CborMap", entries })

/**
 * @since 0.1.0
 * @internal
 */
export const isMap = (value: Value): value is CborMap =>
  typeof value === "object" && !(value instanceof Uint8Array) && !Array.isArray(value)

/**
 * @since 0.1.0
 * @internal
 */
export const isArray = (value: Value): value is ReadonlyArray<Value> => Array.isArray(value)

/**
 * @since 0.1.0
 * @internal
 */
export class CborError extends Schema.TaggedError<CborError>()("CborError", { message: Schema.String }) {}

const MAX_UINT64 = (1n << 64n) - 1n
// Proof values nest four deep; the limit only stops hostile input from exhausting the stack.
const MAX_DEPTH = 64

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

class Writer {
  private buf = new Uint8Array(256)
  private len = 0

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.len + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.len))
    this.buf = next
  }

  byte(b: number): void {
    this.reserve(1)
    this.buf[this.len++] = b
  }

  bytes(bs: Uint8Array): void {
    this.reserve(bs.length)
    this.buf.set(bs, this.len)
    this.len += bs.length
  }

  // The same head for a length or a safe non-negative integer, without BigInt arithmetic
  // (the common case: every length, key and network number of a proofValue).
  headNumber(major: number, n: number): void {
    const m = major << 5
    if (n < 24) this.byte(m | n)
    else if (n < 0x100) {
      this.reserve(2)
      this.buf[this.len++] = m | 24
      this.buf[this.len++] = n
    } else if (n < 0x10000) {
      this.reserve(3)
      this.buf[this.len++] = m | 25
      this.buf[this.len++] = n >>> 8
      this.buf[this.len++] = n & 0xff
    } else if (n < 0x100000000) {
      this.reserve(5)
      this.buf[this.len++] = m | 26
      this.buf[this.len++] = n >>> 24
      this.buf[this.len++] = (n >>> 16) & 0xff
      this.buf[this.len++] = (n >>> 8) & 0xff
      this.buf[this.len++] = n & 0xff
    } else this.head(major, BigInt(n))
  }

  // Shortest head, as RFC 8949 §4.2.1 (and cbor2 / node-cbor) write it.
  head(major: number, n: bigint): void {
    const m = major << 5
    if (n < 24n) this.byte(m | Number(n))
    else if (n < 0x100n) {
      this.byte(m | 24)
      this.byte(Number(n))
    } else if (n < 0x10000n) {
      this.byte(m | 25)
      this.uint(n, 2)
    } else if (n < 0x100000000n) {
      this.byte(m | 26)
      this.uint(n, 4)
    } else {
      this.byte(m | 27)
      this.uint(n, 8)
    }
  }

  private uint(n: bigint, size: number): void {
    for (let i = size - 1; i >= 0; i--) this.byte(Number((n >> BigInt(8 * i)) & 0xffn))
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.len)
  }
}

const textEncoder = new TextEncoder()

const write = (w: Writer, value: Value): void => {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new RangeError(`CBOR: not a safe integer: ${value}`)
    // -1 - value is a safe integer too, and both are below 2^64.
    if (value >= 0) w.headNumber(0, value)
    else w.headNumber(1, -1 - value)
  } else if (typeof value === "bigint") {
    const n = value
    if (n >= 0n) {
      if (n > MAX_UINT64) throw new RangeError("CBOR: integer out of range")
      w.head(0, n)
    } else {
      const m = -1n - n
      if (m > MAX_UINT64) throw new RangeError("CBOR: integer out of range")
      w.head(1, m)
    }
  } else if (value instanceof Uint8Array) {
    w.headNumber(2, value.length)
    w.bytes(value)
  } else if (typeof value === "string") {
    const bytes = textEncoder.encode(value)
    w.headNumber(3, bytes.length)
    w.bytes(bytes)
  } else if (isArray(value)) {
    w.headNumber(4, value.length)
    for (const item of value) write(w, item)
  } else {
    w.headNumber(5, value.entries.length)
    for (const [k, v] of value.entries) {
      write(w, k)
      write(w, v)
    }
  }
}

/**
 * The head of an item (major type and count/length/value) as `encode` writes it: for
 * assembling an encoding from pieces encoded separately.
 *
 * @since 0.1.0
 * @internal
 */
export const head = (major: number, n: number): Uint8Array => {
  const w = new Writer()
  w.headNumber(major, n)
  return w.result()
}

/**
 * Encodes with definite lengths and shortest heads. Throws `RangeError` only for integers
 * outside CBOR's range (or unsafe `number`s): a programming error, not a data error.
 *
 * @since 0.1.0
 * @internal
 */
export const encode = (value: Value): Uint8Array => {
  const w = new Writer()
  write(w, value)
  return w.result()
}

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

// Thrown only inside `decode` and caught there; it never leaves this module.
class Fail {
  constructor(readonly message: string) {}
}

const textDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

class Reader {
  pos = 0
  constructor(readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.pos
  }

  byte(): number {
    if (this.pos >= this.bytes.length) throw new Fail(`unexpected end of input at offset ${this.pos}`)
    return this.bytes[this.pos++]!
  }

  take(n: number): Uint8Array {
    if (n > this.remaining) throw new Fail(`length ${n} exceeds the ${this.remaining} bytes left at offset ${this.pos}`)
    const out = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  // A number up to four bytes (every length and key of a proofValue), a bigint for eight.
  argument(info: number): number | bigint {
    if (info < 24) return info
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
    if (size === 0) {
      throw new Fail(info === 31 ? "indefinite lengths are not supported" : `reserved additional info ${info}`)
    }
    if (size <= 4) {
      let n = 0
      for (let i = 0; i < size; i++) n = n * 256 + this.byte()
      return n
    }
    let n = 0n
    for (let i = 0; i < size; i++) n = (n << 8n) | BigInt(this.byte())
    return n
  }

  // Every array item or map entry takes at least one byte, so a count above what is left is
  // malformed; checking first keeps a forged length from driving a huge loop or allocation.
  count(n: number | bigint, perItem: number): number {
    if (typeof n === "number" ? n * perItem > this.remaining : n * BigInt(perItem) > BigInt(this.remaining)) {
      throw new Fail(`declared ${n} items but only ${this.remaining} bytes left at offset ${this.pos}`)
    }
    return Number(n)
  }

  value(depth: number): Value {
    if (depth > MAX_DEPTH) throw new Fail("nesting too deep")
    const initial = this.byte()
    const major = initial >> 5
    const info = initial & 0x1f
    const arg = this.argument(info)
    switch (major) {
      case 0:
        return typeof arg === "number" || arg > BigInt(Number.MAX_SAFE_INTEGER) ? arg : Number(arg)
      case 1: {
        if (typeof arg === "number") return -1 - arg
        const n = -1n - arg
        return n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n
      }
      case 2:
        // A view, not a copy: decoded values only live while a proofValue is read.
        return this.take(this.count(arg, 1))
      case 3: {
        const raw = this.take(this.count(arg, 1))
        // Short ASCII (hex hashes, tx ids): the same string without TextDecoder's call cost.
        if (raw.length <= 128) {
          let ascii = true
          for (let i = 0; i < raw.length; i++) {
            if (raw[i]! >= 0x80) {
              ascii = false
              break
            }
          }
          if (ascii) return String.fromCharCode.apply(null, raw as unknown as Array<number>)
        }
        try {
          return textDecoder.decode(raw)
        } catch {
          throw new Fail("text string is not valid UTF-8")
        }
      }
      case 4: {
        const n = this.count(arg, 1)
        const items: Array<Value> = []
        for (let i = 0; i < n; i++) items.push(this.value(depth + 1))
        return items
      }
      case 5: {
        const n = this.count(arg, 2)
        const entries: Array<readonly [Value, Value]> = []
        for (let i = 0; i < n; i++) {
          const k = this.value(depth + 1)
          entries.push([k, this.value(depth + 1)])
        }
        return map(entries)
      }
      case 6:
        throw new Fail("tags are not supported")
      default:
        throw new Fail("floats and simple values are not supported")
    }
  }
}

/**
 * Decodes exactly one data item; trailing bytes are an error. Never throws.
 *
 * @since 0.1.0
 * @internal
 */
export const decode = (bytes: Uint8Array): Either.Either<Value, CborError> => {
  const reader = new Reader(bytes)
  try {
    const value = reader.value(0)
    if (reader.remaining !== 0) {
      return Either.left(new CborError({ message: `${reader.remaining} trailing bytes after offset ${reader.pos}` }))
    }
    return Either.right(value)
  } catch (e) {
    return Either.left(new CborError({ message: e instanceof Fail ? e.message : `malformed CBOR: ${String(e)}` }))
  }
}
