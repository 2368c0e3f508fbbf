/**
 * Base58 decoding in WebAssembly: `base58.wat` does the same limb sweeps as `base58.ts` with
 * 64-bit integers instead of doubles, so each step turns 29 input bits into 32 output bits
 * (23 × 24 with doubles) and costs less: ≈12 µs instead of ≈32 µs for the 1,173-digit
 * proofValue of a 500-credential batch, the largest cost of verifying a credential after the
 * Ed25519 signature itself.
 *
 * The module (1 KB, assembled by `npm run codegen` into `base58.wat.ts`) is compiled on first
 * use. Where WebAssembly is unavailable — a page whose
 * Content-Security-Policy lacks 'wasm-unsafe-eval', as the verification page's does — this
 * answers `unavailable` and `base58.ts` decodes in JavaScript: the bytes are the same.
 *
 * @since 0.1.0
 * @internal
 */
import { BASE64 } from "./base58.wat.js"

/**
 * The longest text (in characters) the module's memory layout has room for.
 *
 * @since 0.1.0
 * @internal
 */
export const MAX_TEXT = 4096

// The module's memory layout (base58.wat).
const TEXT = 128
const OUT = 14080

interface Module {
  readonly decode: (at: number, n: number) => number
  readonly memory: Uint8Array
  /** Where the text goes (`memory` from TEXT, MAX_TEXT bytes). */
  readonly text: Uint8Array
}

let module: Module | null | undefined

const instantiate = (): Module | null => {
  try {
    const bytes = Uint8Array.from(atob(BASE64), (c) => c.charCodeAt(0))
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes))
    const exports = instance.exports as { decode: Module["decode"]; memory: WebAssembly.Memory }
    // One page that never grows: the views stay valid.
    const memory = new Uint8Array(exports.memory.buffer)
    return { decode: exports.decode, memory, text: memory.subarray(TEXT, TEXT + MAX_TEXT) }
  } catch {
    return null
  }
}

const encoder = new TextEncoder()

/**
 * @since 0.1.0
 * @internal
 */
export const unavailable: unique symbol = Symbol("base58Wasm/unavailable")

/**
 * Decodes `text` (at most `MAX_TEXT` characters) whose first `zeros` characters are "1" and
 * the next is not: the bytes, `undefined` for a character outside the alphabet, or
 * `unavailable` when WebAssembly cannot run here.
 *
 * @since 0.1.0
 * @internal
 */
export const decode = (text: string, zeros: number): Uint8Array | undefined | typeof unavailable => {
  if (module === undefined) module = instantiate()
  if (module === null) return unavailable
  const { memory } = module
  // A character beyond ASCII takes several bytes and may not fit; it is not a digit anyway.
  const { read, written } = encoder.encodeInto(text, module.text)
  if (read !== text.length) return undefined
  const length = module.decode(zeros, written - zeros)
  if (length < 0) return undefined
  const out = new Uint8Array(zeros + length)
  out.set(memory.subarray(OUT, OUT + length), zeros)
  return out
}
