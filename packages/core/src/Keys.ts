/**
 * Public-key encodings: multibase (Multikey), JWK, and the Ethereum and Bitcoin addresses
 * Blockcerts derives from an issuer's secp256k1 key. Public keys only; private keys stay in
 * the `KeyVault`.
 *
 * Ed25519 public keys are 32 bytes; secp256k1 public keys are normalised to the 33-byte
 * compressed point, as `KeyVault` hands them out.
 *
 * @since 0.1.0
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { ripemd160 } from "@noble/hashes/legacy.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js"
import { Either, Encoding, Schema } from "effect"
import * as Base58 from "./internal/base58.js"
import { BoundedMap } from "./BoundedMap.js"
import type { TenantId } from "./Ids.js"

/**
 * @since 0.1.0
 * @category models
 */
export type KeyKind = "ed25519" | "secp256k1"

/**
 * A tenant key as everything outside the vault sees it.
 *
 * @since 0.1.0
 * @category models
 */
export interface TenantKey {
  /** The vault's own id for the key. */
  readonly keyId: string
  readonly tenantId: TenantId
  readonly kind: KeyKind
  /** The fragment of the key in the tenant's DID document: `key-1`, `key-2`… (secp256k1), `key-ed25519-1`… (Ed25519). */
  readonly fragment: string
  /** Ed25519: 32 bytes. secp256k1: 33-byte compressed point. */
  readonly publicKey: Uint8Array
  /** Whole seconds: Blockcerts compares it with the anchoring block's time. */
  readonly createdAt: Date
  readonly revokedAt: Date | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface PublicKey {
  readonly kind: KeyKind
  /** Ed25519: 32 bytes. secp256k1: the 33-byte compressed point. */
  readonly publicKey: Uint8Array
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Ed25519Jwk {
  readonly kty: "OKP"
  readonly crv: "Ed25519"
  readonly x: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Secp256k1Jwk {
  readonly kty: "EC"
  readonly crv: "secp256k1"
  readonly x: string
  readonly y: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type Jwk = Ed25519Jwk | Secp256k1Jwk

/**
 * A key that cannot be read: wrong encoding, wrong length, not a point on its curve, or an
 * unsupported verification method.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidPublicKey extends Schema.TaggedError<InvalidPublicKey>()("InvalidPublicKey", {
  message: Schema.String
}) {}

const invalid = (message: string) => Either.left(new InvalidPublicKey({ message }))

// ---------------------------------------------------------------------------------------------
// Points
// ---------------------------------------------------------------------------------------------

// Decompressing a point is the slow part of reading a key (≈150 µs for Ed25519, ≈60 µs for
// secp256k1 in pure JavaScript), and a verifier reads the same few issuer keys for every
// credential it checks: the answers for the last keys seen are kept, keyed by the bytes.
const remember = <A>() => {
  const answers = new BoundedMap<string, A>(1024)
  return (bytes: Uint8Array, compute: () => A): A => {
    const key = bytesToHex(bytes)
    if (answers.has(key)) return answers.get(key)!
    const answer = compute()
    answers.set(key, answer)
    return answer
  }
}

const uncompressedSecp = remember<Uint8Array | undefined>()
const ed25519Points = remember<boolean>()
const ethereumAddresses = remember<string>()

// The uncompressed form (65 bytes) of a valid secp256k1 key, or undefined. Callers copy or
// slice what they keep: the array is shared with later callers.
const secpUncompressed = (bytes: Uint8Array): Uint8Array | undefined =>
  uncompressedSecp(bytes, () => {
    try {
      return secp256k1.Point.fromBytes(bytes).toBytes(false)
    } catch {
      return undefined
    }
  })

const isEd25519Point = (bytes: Uint8Array): boolean =>
  ed25519Points(bytes, () => {
    try {
      ed25519.Point.fromBytes(bytes)
      return true
    } catch {
      return false
    }
  })

// The compressed form of an uncompressed point: 0x02 or 0x03 (the parity of Y) and X.
const compress = (uncompressed: Uint8Array): Uint8Array => {
  const out = new Uint8Array(33)
  out[0] = 0x02 | (uncompressed[64]! & 1)
  out.set(uncompressed.subarray(1, 33), 1)
  return out
}

/**
 * Checks a raw key and normalises a secp256k1 key (33 or 65 bytes) to its compressed form.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (kind: KeyKind, publicKey: Uint8Array): Either.Either<PublicKey, InvalidPublicKey> => {
  if (kind === "ed25519") {
    return publicKey.length === 32 && isEd25519Point(publicKey)
      ? Either.right({ kind, publicKey: publicKey.slice() })
      : invalid("not a 32-byte Ed25519 public key")
  }
  const point = publicKey.length === 33 || publicKey.length === 65 ? secpUncompressed(publicKey) : undefined
  return point === undefined
    ? invalid("not a secp256k1 public key (33 or 65 bytes)")
    : Either.right({ kind, publicKey: compress(point) })
}

// ---------------------------------------------------------------------------------------------
// Multibase (Multikey)
// ---------------------------------------------------------------------------------------------

// Multicodec varints: ed25519-pub 0xed, secp256k1-pub 0xe7.
const ED25519_PREFIX = Uint8Array.of(0xed, 0x01)
const SECP256K1_PREFIX = Uint8Array.of(0xe7, 0x01)

const startsWith = (bytes: Uint8Array, prefix: Uint8Array): boolean => prefix.every((b, i) => bytes[i] === b)

/**
 * `z` + base58btc(multicodec ‖ key): `z6Mk…` for Ed25519, `zQ3s…` for secp256k1 (compressed).
 *
 * @since 0.1.0
 * @category encoding
 */
export const toMultibase = (key: PublicKey): string =>
  `z${Base58.encode(concatBytes(key.kind === "ed25519" ? ED25519_PREFIX : SECP256K1_PREFIX, key.publicKey))}`

/**
 * @since 0.1.0
 * @category decoding
 */
export const fromMultibase = (multibase: string): Either.Either<PublicKey, InvalidPublicKey> => {
  // Keys are short; the cap keeps quadratic base58 decoding cheap on hostile input.
  if (typeof multibase !== "string" || !multibase.startsWith("z") || multibase.length > 128) {
    return invalid("not a base58btc multibase key")
  }
  const bytes = Base58.decodeUnsafe(multibase.slice(1))
  if (bytes === undefined) return invalid("not a base58btc multibase key")
  if (startsWith(bytes, ED25519_PREFIX)) return make("ed25519", bytes.subarray(2))
  if (startsWith(bytes, SECP256K1_PREFIX)) {
    const key = bytes.subarray(2)
    // Multikey carries the compressed point only.
    return key.length === 33 ? make("secp256k1", key) : invalid("secp256k1 multikey is not 33 bytes")
  }
  return invalid("unsupported multicodec (expected ed25519-pub or secp256k1-pub)")
}

// ---------------------------------------------------------------------------------------------
// JWK
// ---------------------------------------------------------------------------------------------

const base64url = (bytes: Uint8Array): string => Encoding.encodeBase64Url(bytes)

// RFC 7515 base64url without padding, and canonical: re-encoding must give the same text,
// so a key has exactly one JWK.
const coordinate = (value: unknown, name: string): Either.Either<Uint8Array, InvalidPublicKey> => {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
    return invalid(`JWK "${name}" is not 32 bytes of unpadded base64url`)
  }
  const bytes = Encoding.decodeBase64Url(value)
  return Either.isRight(bytes) && bytes.right.length === 32 && base64url(bytes.right) === value
    ? Either.right(bytes.right)
    : invalid(`JWK "${name}" is not 32 bytes of canonical base64url`)
}

/**
 * `{kty: "OKP", crv: "Ed25519", x}` or `{kty: "EC", crv: "secp256k1", x, y}` (base64url, no
 * padding). The key must be valid, as `make` and the decoders return it.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toJwk = (key: PublicKey): Jwk => {
  if (key.kind === "ed25519") return { kty: "OKP", crv: "Ed25519", x: base64url(key.publicKey) }
  const uncompressed = uncompressedPoint(key.publicKey)
  return { kty: "EC", crv: "secp256k1", x: base64url(uncompressed.subarray(1, 33)), y: base64url(uncompressed.subarray(33)) }
}

/**
 * Reads a public JWK. Other members (`kid`, `use`, `alg`) are ignored; a private `d` is
 * refused, since a private key has no business in a document.
 *
 * @since 0.1.0
 * @category decoding
 */
export const fromJwk = (jwk: unknown): Either.Either<PublicKey, InvalidPublicKey> => {
  if (typeof jwk !== "object" || jwk === null) return invalid("JWK is not an object")
  const j = jwk as Record<string, unknown>
  if (j["d"] !== undefined) return invalid("JWK holds a private key")
  if (j["kty"] === "OKP" && j["crv"] === "Ed25519") {
    return Either.flatMap(coordinate(j["x"], "x"), (x) => make("ed25519", x))
  }
  if (j["kty"] === "EC" && j["crv"] === "secp256k1") {
    return Either.flatMap(
      Either.all([coordinate(j["x"], "x"), coordinate(j["y"], "y")]),
      ([x, y]) => make("secp256k1", concatBytes(Uint8Array.of(0x04), x, y))
    )
  }
  return invalid(`unsupported JWK (kty ${String(j["kty"])}, crv ${String(j["crv"])})`)
}

// ---------------------------------------------------------------------------------------------
// Verification methods
// ---------------------------------------------------------------------------------------------

const METHOD_KINDS: Readonly<Record<string, KeyKind | undefined>> = {
  Multikey: undefined,
  JsonWebKey2020: undefined,
  Ed25519VerificationKey2020: "ed25519",
  EcdsaSecp256k1VerificationKey2019: "secp256k1"
}

const sameKey = (a: PublicKey, b: PublicKey): boolean =>
  a.kind === b.kind && bytesToHex(a.publicKey) === bytesToHex(b.publicKey)

/**
 * The public key of a DID-document or issuer-profile verification method, from
 * `publicKeyJwk` or `publicKeyMultibase`. When a method carries both (Sigil's Ed25519 methods
 * do, since cert-verifier-js reads only the JWK), they must be the same key. Typed methods
 * must hold their own kind of key.
 *
 * @since 0.1.0
 * @category decoding
 */
export const fromVerificationMethod = (vm: unknown): Either.Either<PublicKey, InvalidPublicKey> => {
  if (typeof vm !== "object" || vm === null) return invalid("verification method is not an object")
  const m = vm as Record<string, unknown>
  const type = m["type"]
  if (typeof type !== "string" || !Object.hasOwn(METHOD_KINDS, type)) {
    return invalid(`unsupported verification method type ${String(type)}`)
  }
  const hasJwk = m["publicKeyJwk"] !== undefined
  const hasMultibase = m["publicKeyMultibase"] !== undefined
  if (!hasJwk && !hasMultibase) return invalid("verification method has neither publicKeyJwk nor publicKeyMultibase")
  const key = Either.gen(function*() {
    const fromJ = hasJwk ? yield* fromJwk(m["publicKeyJwk"]) : undefined
    const fromM = hasMultibase ? yield* fromMultibase(m["publicKeyMultibase"] as string) : undefined
    if (fromJ !== undefined && fromM !== undefined && !sameKey(fromJ, fromM)) {
      return yield* invalid("publicKeyJwk and publicKeyMultibase are different keys")
    }
    return (fromJ ?? fromM)!
  })
  const expected = METHOD_KINDS[type]
  return Either.flatMap(key, (k) =>
    expected === undefined || k.kind === expected
      ? Either.right(k)
      : invalid(`${type} holds a ${k.kind} key`))
}

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

const uncompressedPoint = (publicKey: Uint8Array): Uint8Array => {
  const point = publicKey.length === 33 || publicKey.length === 65 ? secpUncompressed(publicKey) : undefined
  if (point === undefined) throw new RangeError("not a secp256k1 public key (33 or 65 bytes)")
  return point
}

/**
 * `0x` + lowercase hex of the last 20 bytes of keccak256(X ‖ Y): the sender Blockcerts
 * expects for the key. Takes a 33- or 65-byte secp256k1 key; throws `RangeError` for
 * anything else (decoders above hand out only valid keys).
 *
 * @since 0.1.0
 * @category addresses
 */
export const ethereumAddress = (publicKey: Uint8Array): string =>
  ethereumAddresses(publicKey, () => `0x${bytesToHex(keccak_256(uncompressedPoint(publicKey).subarray(1)).subarray(12))}`)

/**
 * The P2PKH address (base58check of version ‖ ripemd160(sha256(key))). cert-verifier-js
 * hashes the *compressed* key: that is what reproduces the addresses of its fixtures (the
 * did:ion `key-1` gives `mgdWjvq4…` on testnet). Throws `RangeError` like `ethereumAddress`.
 *
 * @since 0.1.0
 * @category addresses
 */
export const bitcoinAddress = (publicKey: Uint8Array, network: "mainnet" | "testnet"): string => {
  const compressed = compress(uncompressedPoint(publicKey))
  const payload = concatBytes(Uint8Array.of(network === "mainnet" ? 0x00 : 0x6f), ripemd160(sha256(compressed)))
  return Base58.encode(concatBytes(payload, sha256(sha256(payload)).subarray(0, 4)))
}
