/**
 * MerkleProof2019: the Blockcerts proof that a credential's hash is a leaf of a Merkle tree
 * whose root was anchored on a chain.
 *
 * `proofValue` = `z` + base58btc(CBOR), the CBOR being an *array of `[key, value]` pairs*
 * (0 merkleRoot, 1 targetHash, 2 anchors, 3 path), not a map. Two layouts exist for the
 * hashes inside it: the JS encoder (and the spec) wraps the raw bytes as a CBOR byte string,
 * cert-issuer's Python encoder wraps the hex as a CBOR text string. Real Ethereum credentials
 * use the Python layout, so we decode both and encode the Python one (research/blockcerts.md
 * §1.2).
 *
 * @since 0.1.0
 */
import { bytesToHex } from "@noble/hashes/utils.js"
import { Effect, Either, Option, Schema } from "effect"
import * as Hex from "./Hex.js"
import * as Base58 from "./internal/base58.js"
import * as Cbor from "./internal/cbor.js"
import type { PathStep } from "./Merkle.js"
import * as Merkle from "./Merkle.js"

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

/**
 * The chain codes of the Blockcerts keymap.
 *
 * @since 0.1.0
 * @category models
 */
export const Chain = Schema.Literal("btc", "eth", "mtc", "mocknet")
export type Chain = typeof Chain.Type

/**
 * Where a Merkle root was anchored.
 *
 * @since 0.1.0
 * @category models
 */
export interface Anchor {
  readonly chain: Chain
  /**
   * The network number of the keymap (eth sepolia 11155111, btc testnet 3, mocknet -1…).
   * Sigil writes the EVM chain id here (8453 Base, 84532 Base Sepolia, 31337 devnet).
   * Undefined when the anchor carries none, as cert-issuer's mocknet anchors do.
   */
  readonly network: number | undefined
  /**
   * The transaction id as the proof carries it: `0x…` for cert-issuer's Ethereum anchors,
   * bare hex for byte-string (JS layout) anchors, free text for cert-issuer's mocknet.
   */
  readonly tx: string
}

/**
 * The content of a proofValue. Hashes are 64 lowercase hex digits without `0x`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProofValue {
  readonly path: ReadonlyArray<PathStep>
  readonly merkleRoot: string
  readonly targetHash: string
  readonly anchors: ReadonlyArray<Anchor>
}

/**
 * The proof object Sigil embeds: MerkleProof2019 in Data Integrity form, as cert-issuer has
 * emitted it since 2024.
 *
 * @since 0.1.0
 * @category models
 */
export interface DataIntegrityProof {
  readonly id: string
  readonly type: "DataIntegrityProof"
  readonly cryptosuite: "merkle-proof-2019"
  readonly created: string
  readonly proofPurpose: "assertionMethod"
  readonly verificationMethod: string
  readonly proofValue: string
}

/**
 * A Merkle proof in either form cert-verifier-js accepts.
 *
 * @since 0.1.0
 * @category models
 */
export type MerkleProof =
  | { readonly type: "MerkleProof2019"; readonly proofValue: string }
  | { readonly type: "DataIntegrityProof"; readonly cryptosuite: "merkle-proof-2019"; readonly proofValue: string }

/**
 * @since 0.1.0
 * @category errors
 */
export class InvalidProofValue extends Schema.TaggedError<InvalidProofValue>()("InvalidProofValue", {
  message: Schema.String
}) {}

// ---------------------------------------------------------------------------------------------
// Anchors
// ---------------------------------------------------------------------------------------------

const CHAIN_IDS: Readonly<Record<Chain, number>> = { btc: 0, eth: 1, mtc: 2, mocknet: -1 }

// lds-merkle-proof-2019 `Keymap.js`, plus btc regtest from the Python mappings.
const NETWORKS: Readonly<Record<Chain, ReadonlyArray<readonly [number, string]>>> = {
  btc: [[1, "mainnet"], [2, "regtest"], [3, "testnet"]],
  eth: [[1, "mainnet"], [3, "ropsten"], [4, "rinkeby"], [5, "goerli"], [11155111, "sepolia"]],
  mtc: [[137, "mainnet"], [80001, "mumbai"]],
  mocknet: [[-1, "mocknet"]]
}

const isChain = Schema.is(Chain)

const chainById = (id: number): Chain | undefined =>
  (Object.keys(CHAIN_IDS) as Array<Chain>).find((c) => CHAIN_IDS[c] === id)

/**
 * An Ethereum-family anchor; the network number is the EVM chain id, the tx hash is written
 * `0x` + lowercase hex as cert-issuer writes it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const ethereumAnchor = (chainId: number, txHash: string): Anchor => ({
  chain: "eth",
  network: chainId,
  tx: Hex.normalize(txHash)
})

/**
 * The `blink:<chain>:<network>:<tx>` form. Networks without a keymap name (Sigil's EVM chain
 * ids) are written as the number; an anchor without a network gives `blink:<chain>:<tx>`.
 *
 * @since 0.1.0
 * @category conversions
 */
export const toBlink = (anchor: Anchor): string => {
  if (anchor.network === undefined) return `blink:${anchor.chain}:${anchor.tx}`
  const name = NETWORKS[anchor.chain].find(([n]) => n === anchor.network)?.[1]
  return `blink:${anchor.chain}:${name ?? String(anchor.network)}:${anchor.tx}`
}

/**
 * Parses what `toBlink` writes (network names or numbers).
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromBlink = (blink: string): Option.Option<Anchor> => {
  const parts = blink.split(":")
  const chain = parts[1]
  if (parts[0] !== "blink" || !isChain(chain) || parts.length < 3) return Option.none()
  if (parts.length === 3) {
    return parts[2] === "" ? Option.none() : Option.some({ chain, network: undefined, tx: parts[2]! })
  }
  const label = parts[2]!
  const network = NETWORKS[chain].find(([, name]) => name === label)?.[0] ??
    (/^-?\d{1,15}$/.test(label) ? Number(label) : undefined)
  const tx = parts.slice(3).join(":")
  return network === undefined || tx === "" ? Option.none() : Option.some({ chain, network, tx })
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

// cert-issuer (cbor2) wraps each string as a CBOR text string inside a byte string.
const wrapText = (s: string): Uint8Array => Cbor.encode(s)

const encodeAnchor = (anchor: Anchor): Cbor.Value =>
  anchor.network === undefined
    // cert-issuer's mocknet form: the tx text sits under key 1 and there is no key 2.
    ? [[0, CHAIN_IDS[anchor.chain]], [1, wrapText(anchor.tx)]]
    : [[0, CHAIN_IDS[anchor.chain]], [1, anchor.network], [2, wrapText(anchor.tx)]]

/**
 * Encodes in cert-issuer's layout, byte for byte: pairs in the order path, merkleRoot,
 * targetHash, anchors; hashes as hex text; the tx id as given (`0x…` for Ethereum).
 * Hashes are lowercased. The value is written as given otherwise, so pass a well-formed one
 * (64-hex hashes): `decode` rejects anything else.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (value: ProofValue): string => {
  const cbor: Cbor.Value = [
    [3, value.path.map((step) =>
      "left" in step ? [0, wrapText(step.left.toLowerCase())] : [1, wrapText(step.right.toLowerCase())]
    )],
    [0, wrapText(value.merkleRoot.toLowerCase())],
    [1, wrapText(value.targetHash.toLowerCase())],
    [2, value.anchors.map(encodeAnchor)]
  ]
  return `z${Base58.encode(Cbor.encode(cbor))}`
}

/**
 * The encoder of a batch's proofValues: `encode`'s output exactly, with what the leaves share
 * — the root, the anchors, each tree node's path step — encoded once for the batch.
 *
 * @since 0.1.0
 * @category encoding
 */
export const batchEncoder = (shared: {
  readonly merkleRoot: string
  readonly anchors: ReadonlyArray<Anchor>
}): (leaf: { readonly path: ReadonlyArray<PathStep>; readonly targetHash: string }) => string => {
  const root = Cbor.encode([0, wrapText(shared.merkleRoot.toLowerCase())])
  const anchors = Cbor.encode([2, shared.anchors.map(encodeAnchor)])
  // [3, path]: the pair's head and key; the path's own head depends on its length.
  const pathKey = Uint8Array.of(0x82, 0x03)
  const steps = new Map<string, Uint8Array>()
  const stepBytes = (step: PathStep): Uint8Array => {
    const key = "left" in step ? `l${step.left}` : `r${step.right}`
    let bytes = steps.get(key)
    if (bytes === undefined) {
      bytes = Cbor.encode("left" in step ? [0, wrapText(step.left.toLowerCase())] : [1, wrapText(step.right.toLowerCase())])
      steps.set(key, bytes)
    }
    return bytes
  }
  return (leaf) => {
    const parts: Array<Uint8Array> = [OUTER_HEAD, pathKey, Cbor.head(4, leaf.path.length)]
    for (const step of leaf.path) parts.push(stepBytes(step))
    parts.push(root, Cbor.encode([1, wrapText(leaf.targetHash.toLowerCase())]), anchors)
    let length = 0
    for (const part of parts) length += part.length
    const bytes = new Uint8Array(length)
    let offset = 0
    for (const part of parts) {
      bytes.set(part, offset)
      offset += part.length
    }
    return `z${Base58.encode(bytes)}`
  }
}

// The head of the outer array of four [key, value] pairs.
const OUTER_HEAD = Uint8Array.of(0x84)

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

// Base58 decoding is superlinear; 4,096 characters hold a path of about 40 steps, a batch far
// beyond 2^32 credentials.
const MAX_LENGTH = 4096
const HASH_HEX = /^[0-9a-fA-F]{64}$/

class Invalid {
  constructor(readonly message: string) {}
}

const fail = (message: string): never => {
  throw new Invalid(message)
}

const isInt = (v: Cbor.Value | undefined): v is number => typeof v === "number"

// [key, value] pairs with distinct integer keys from `allowed`.
const pairs = (value: Cbor.Value, what: string, allowed: ReadonlyArray<number>): Map<number, Cbor.Value> => {
  if (!Cbor.isArray(value)) return fail(`${what} is not an array of pairs`)
  const out = new Map<number, Cbor.Value>()
  for (const pair of value) {
    if (!Cbor.isArray(pair) || pair.length !== 2) return fail(`${what} holds an item that is not a [key, value] pair`)
    const key = pair[0]
    if (!isInt(key) || !allowed.includes(key)) return fail(`${what} has an unknown key ${String(key)}`)
    if (out.has(key)) return fail(`${what} repeats key ${key}`)
    out.set(key, pair[1]!)
  }
  return out
}

// The outer byte string holds one CBOR item: raw bytes (JS layout) or text (Python layout).
const inner = (value: Cbor.Value | undefined, what: string): Uint8Array | string => {
  if (!(value instanceof Uint8Array)) return fail(`${what} is not a byte string`)
  // The common case, cert-issuer's: a short ASCII text string (a hex hash), read directly.
  const ascii = shortAscii(value)
  if (ascii !== undefined) return ascii
  const decoded = Cbor.decode(value)
  if (Either.isLeft(decoded)) return fail(`${what}: ${decoded.left.message}`)
  const item = decoded.right
  if (item instanceof Uint8Array || typeof item === "string") return item
  return fail(`${what} holds neither bytes nor text`)
}

// A text string of 24–255 bytes (head 0x78, one length byte) filling the whole byte string,
// all ASCII: what `Cbor.decode` would return for it; anything else is left to `Cbor.decode`.
const shortAscii = (bytes: Uint8Array): string | undefined => {
  if (bytes.length < 26 || bytes[0] !== 0x78 || bytes[1] !== bytes.length - 2) return undefined
  for (let i = 2; i < bytes.length; i++) if (bytes[i]! >= 0x80) return undefined
  return String.fromCharCode.apply(null, bytes.subarray(2) as unknown as Array<number>)
}

const hash = (value: Cbor.Value | undefined, what: string): string => {
  // cert-issuer's form, a CBOR text string of 64 characters (head 0x78 0x40), read in one pass.
  if (value instanceof Uint8Array && value.length === 66 && value[0] === 0x78 && value[1] === 0x40) {
    const hex = Hex.hash32FromAscii(value, 2)
    if (hex !== undefined) return hex
  }
  const item = inner(value, what)
  if (typeof item === "string") return HASH_HEX.test(item) ? item.toLowerCase() : fail(`${what} is not 64 hex digits`)
  return item.length === 32 ? bytesToHex(item) : fail(`${what} is not 32 bytes`)
}

const txId = (value: Cbor.Value | undefined, what: string): string => {
  const item = inner(value, what)
  const tx = typeof item === "string" ? item : bytesToHex(item)
  return tx === "" ? fail(`${what} is empty`) : tx
}

const decodePath = (value: Cbor.Value): ReadonlyArray<PathStep> => {
  if (!Cbor.isArray(value)) return fail("path is not an array")
  return value.map((item, i) => {
    if (!Cbor.isArray(item) || item.length !== 2) return fail(`path step ${i} is not a [side, hash] pair`)
    const side = item[0]
    const sibling = hash(item[1], `path step ${i}`)
    return side === 0 ? { left: sibling } : side === 1 ? { right: sibling } : fail(`path step ${i} has side ${String(side)}`)
  })
}

const decodeAnchor = (value: Cbor.Value, i: number): Anchor => {
  const what = `anchor ${i}`
  const fields = pairs(value, what, [0, 1, 2])
  const chainId = fields.get(0)
  const chain = isInt(chainId) ? chainById(chainId) : undefined
  if (chain === undefined) return fail(`${what} has an unknown chain ${String(chainId)}`)
  const network = fields.get(1)
  if (network instanceof Uint8Array && !fields.has(2)) {
    // cert-issuer's mocknet anchors carry the tx text under key 1; the JS decoder turns
    // this into `blink:mocknet:undefined`, we keep the text.
    return { chain, network: undefined, tx: txId(network, `${what} tx`) }
  }
  if (network !== undefined && !isInt(network)) return fail(`${what} has a network that is not an integer`)
  return { chain, network, tx: txId(fields.get(2), `${what} tx`) }
}

const decodeCbor = (value: Cbor.Value): ProofValue => {
  const fields = pairs(value, "proofValue", [0, 1, 2, 3])
  const anchors = fields.get(2)
  if (anchors === undefined) return fail("anchors are missing")
  if (!Cbor.isArray(anchors) || anchors.length === 0) return fail("anchors are not a non-empty array")
  const path = fields.get(3)
  return {
    // No producer omits the path, but an absent one can only mean a single-leaf tree.
    path: path === undefined ? [] : decodePath(path),
    merkleRoot: fields.has(0) ? hash(fields.get(0), "merkleRoot") : fail("merkleRoot is missing"),
    targetHash: fields.has(1) ? hash(fields.get(1), "targetHash") : fail("targetHash is missing"),
    anchors: anchors.map(decodeAnchor)
  }
}

/**
 * Decodes a proofValue in either layout. Never throws: anything malformed (not `z`+base58,
 * bad CBOR, trailing bytes, unknown keys or chains, hashes that are not 32 bytes) is an
 * `InvalidProofValue`. The path is not checked against the root here: see `verifyPath`.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (proofValue: string): Either.Either<ProofValue, InvalidProofValue> => {
  const invalid = (message: string) => Either.left(new InvalidProofValue({ message }))
  if (typeof proofValue !== "string" || !proofValue.startsWith("z")) return invalid("not a base58btc multibase string")
  if (proofValue.length > MAX_LENGTH) return invalid(`longer than ${MAX_LENGTH} characters`)
  const payload = proofValue.slice(1)
  const bytes = payload === "" ? undefined : Base58.decodeUnsafe(payload)
  if (bytes === undefined) return invalid("not a base58btc multibase string")
  const cbor = Cbor.decode(bytes)
  if (Either.isLeft(cbor)) return invalid(`bad CBOR: ${cbor.left.message}`)
  try {
    return Either.right(decodeCbor(cbor.right))
  } catch (e) {
    return invalid(e instanceof Invalid ? e.message : String(e))
  }
}

/**
 * Whether the path folds the targetHash up to the merkleRoot.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyPath = (value: ProofValue): boolean => Merkle.verify(value.targetHash, value.path, value.merkleRoot)

/**
 * The JSON shape `@blockcerts/lds-merkle-proof-2019`'s Decoder returns (anchors as blink
 * strings).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toJson = (value: ProofValue): {
  readonly path: ReadonlyArray<PathStep>
  readonly merkleRoot: string
  readonly targetHash: string
  readonly anchors: ReadonlyArray<string>
} => ({
  path: value.path,
  merkleRoot: value.merkleRoot,
  targetHash: value.targetHash,
  anchors: value.anchors.map(toBlink)
})

// ---------------------------------------------------------------------------------------------
// The proof object
// ---------------------------------------------------------------------------------------------

/**
 * A fresh proof id, `urn:uuid:` + a random UUID.
 *
 * @since 0.1.0
 * @category constructors
 */
export const newProofId: Effect.Effect<string> = Effect.sync(() => `urn:uuid:${crypto.randomUUID()}`)

/**
 * The proof object Sigil embeds. `created` is written in whole seconds with `Z`:
 * cert-verifier-js requires a zone on VC 2.0 dates and compares in seconds.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeProof = (input: {
  readonly id: string
  readonly created: Date
  readonly verificationMethod: string
  readonly proofValue: string
}): DataIntegrityProof => ({
  id: input.id,
  type: "DataIntegrityProof",
  cryptosuite: "merkle-proof-2019",
  created: input.created.toISOString().replace(/\.\d{3}Z$/, "Z"),
  proofPurpose: "assertionMethod",
  verificationMethod: input.verificationMethod,
  proofValue: input.proofValue
})

/**
 * Recognises a Merkle proof in either form: `type: "MerkleProof2019"`, or
 * `type: "DataIntegrityProof"` with `cryptosuite: "merkle-proof-2019"`. It checks the shape
 * only, not the proofValue.
 *
 * @since 0.1.0
 * @category guards
 */
export const isMerkleProof = (u: unknown): u is MerkleProof => {
  if (typeof u !== "object" || u === null) return false
  const p = u as Record<string, unknown>
  if (typeof p["proofValue"] !== "string") return false
  return p["type"] === "MerkleProof2019" ||
    (p["type"] === "DataIntegrityProof" && p["cryptosuite"] === "merkle-proof-2019")
}
