/**
 * Port: the tenants' private keys. Each tenant has an Ed25519 key (the eddsa-rdfc-2022 proof)
 * and a secp256k1 key (the Merkle proof's key and the sender of the anchor transaction),
 * decisions §3.
 *
 * Raw private keys never cross this port: callers get public keys and signatures. The
 * Postgres layer (envelope encryption under the master key) lives in `@sigil/store-pg`;
 * `layerMemory` keeps plain keys in memory for tests and offline examples.
 *
 * @since 0.1.0
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Context, Effect, Layer, Schema } from "effect"
import type { TenantId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type * as Keys from "@sigil/core/Keys"
import * as Primitives from "@sigil/core/Primitives"

/**
 * The key kinds and the public view of a tenant key are core's (`Keys`): DID documents and the
 * verifier read them too.
 *
 * @since 0.1.0
 * @category models
 */
export type KeyKind = Keys.KeyKind

/**
 * @since 0.1.0
 * @category models
 */
export type TenantKey = Keys.TenantKey

/**
 * A recoverable secp256k1 signature of a 32-byte digest (the form an Ethereum transaction
 * carries).
 *
 * @since 0.1.0
 * @category models
 */
export interface Secp256k1Signature {
  readonly r: bigint
  readonly s: bigint
  readonly yParity: 0 | 1
}

/**
 * The vault cannot be used right now (storage down, master key missing or wrong). Work that
 * needs a key waits and retries (decisions §4).
 *
 * @since 0.1.0
 * @category errors
 */
export class SigningKeyUnavailable extends Schema.TaggedError<SigningKeyUnavailable>()("SigningKeyUnavailable", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category errors
 */
export class KeyNotFound extends Schema.TaggedError<KeyNotFound>()("KeyNotFound", {
  keyId: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Creates and stores a new key; its fragment is the next free one of its kind. */
  readonly generate: (
    tenantId: TenantId,
    kind: KeyKind,
    createdAt: Date
  ) => Effect.Effect<TenantKey, SigningKeyUnavailable>
  /** Every key of the tenant, oldest first, revoked ones included (they stay in the DID document). */
  readonly keys: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<TenantKey>, SigningKeyUnavailable>
  readonly revoke: (keyId: string, at: Date) => Effect.Effect<void, SigningKeyUnavailable | KeyNotFound>
  readonly signEd25519: (
    keyId: string,
    message: Uint8Array
  ) => Effect.Effect<Uint8Array, SigningKeyUnavailable | KeyNotFound>
  /** Signs a 32-byte digest as it is (no further hashing). */
  readonly signSecp256k1: (
    keyId: string,
    digest: Uint8Array
  ) => Effect.Effect<Secp256k1Signature, SigningKeyUnavailable | KeyNotFound>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class KeyVault extends Context.Tag("@sigil/service/Tenants/KeyVault")<KeyVault, Service>() {}

/**
 * The tenant's newest unrevoked key of a kind: the one that signs new work.
 *
 * @since 0.1.0
 * @category combinators
 */
export const activeKey = (keys: ReadonlyArray<TenantKey>, kind: KeyKind): TenantKey | undefined =>
  keys.filter((k) => k.kind === kind && k.revokedAt === undefined).at(-1)

/**
 * The DID fragment of a tenant's `n`-th key of a kind (1-based).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fragmentFor = (kind: KeyKind, n: number): string => kind === "ed25519" ? `key-ed25519-${n}` : `key-${n}`

/**
 * Truncates to whole seconds (Blockcerts compares `created` with block times in seconds).
 *
 * @since 0.1.0
 * @category constructors
 */
export const wholeSeconds = (date: Date): Date => new Date(Math.floor(date.getTime() / 1000) * 1000)

/**
 * Generates a private key of a kind and its public key, in the encodings of `TenantKey`.
 * Adapters that store keys use this too, so every vault makes keys the same way.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateKeyPair = (kind: KeyKind): { readonly secretKey: Uint8Array; readonly publicKey: Uint8Array } => {
  if (kind === "ed25519") {
    const secretKey = ed25519.utils.randomSecretKey()
    return { secretKey, publicKey: ed25519.getPublicKey(secretKey) }
  }
  const secretKey = secp256k1.utils.randomSecretKey()
  return { secretKey, publicKey: secp256k1.getPublicKey(secretKey, true) }
}

/**
 * Signs with a raw key of the given kind. Only vault adapters call this, inside the vault.
 *
 * @since 0.1.0
 * @category signing
 */
export const signWithSecret = {
  /** Through the installed `Primitives` (node:crypto in the server, @noble elsewhere). */
  ed25519: (secretKey: Uint8Array, message: Uint8Array): Uint8Array => Primitives.ed25519Sign(secretKey, message),
  secp256k1: (secretKey: Uint8Array, digest: Uint8Array): Secp256k1Signature => {
    const bytes = secp256k1.sign(digest, secretKey, { prehash: false, format: "recovered", lowS: true })
    const sig = secp256k1.Signature.fromBytes(bytes, "recovered")
    return { r: sig.r, s: sig.s, yParity: sig.recovery === 1 ? 1 : 0 }
  }
}

/**
 * Keys in memory, unencrypted; for tests and offline issuing. `seed` adds keys made elsewhere
 * (for example fixed test keys).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = () => {
  const records = new Map<string, { key: TenantKey; secretKey: Uint8Array }>()
  const find = (keyId: string) => {
    const record = records.get(keyId)
    return record === undefined ? Effect.fail(new KeyNotFound({ keyId })) : Effect.succeed(record)
  }
  const keysOf = (tenantId: TenantId) =>
    [...records.values()].map((r) => r.key).filter((k) => k.tenantId === tenantId)
  const seed = (tenantId: TenantId, kind: KeyKind, secretKey: Uint8Array, createdAt: Date): TenantKey => {
    const publicKey = kind === "ed25519" ? ed25519.getPublicKey(secretKey) : secp256k1.getPublicKey(secretKey, true)
    const n = keysOf(tenantId).filter((k) => k.kind === kind).length + 1
    const key: TenantKey = {
      keyId: Ids.unsafeMake("key"),
      tenantId,
      kind,
      fragment: fragmentFor(kind, n),
      publicKey,
      createdAt: wholeSeconds(createdAt),
      revokedAt: undefined
    }
    records.set(key.keyId, { key, secretKey })
    return key
  }
  const service: Service = {
    generate: (tenantId, kind, createdAt) =>
      Effect.sync(() => seed(tenantId, kind, generateKeyPair(kind).secretKey, createdAt)),
    keys: (tenantId) => Effect.sync(() => keysOf(tenantId)),
    revoke: (keyId, at) =>
      Effect.map(find(keyId), (r) => {
        records.set(keyId, { ...r, key: { ...r.key, revokedAt: wholeSeconds(at) } })
      }),
    signEd25519: (keyId, message) => Effect.map(find(keyId), (r) => signWithSecret.ed25519(r.secretKey, message)),
    signSecp256k1: (keyId, digest) => Effect.map(find(keyId), (r) => signWithSecret.secp256k1(r.secretKey, digest))
  }
  return { service, seed }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<KeyVault> = Layer.sync(KeyVault, () => makeMemory().service)
