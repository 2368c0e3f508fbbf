/**
 * Resource identifiers: a prefix and a ULID (26 uppercase Crockford base32 characters).
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import { randomBytes } from "@noble/hashes/utils.js"
import { ulid } from "ulid"

const prefixed = <B extends string>(prefix: string, brand: B) =>
  Schema.String.pipe(
    Schema.pattern(new RegExp(`^${prefix}_[A-Z0-9]{26}$`)),
    Schema.brand(brand),
    Schema.annotations({ description: `\`${prefix}_\` followed by 26 uppercase ULID characters` })
  )

/** @since 0.1.0 @category models */
export const BatchId = prefixed("bat", "BatchId")
/** @since 0.1.0 @category models */
export type BatchId = typeof BatchId.Type
/** @since 0.1.0 @category models */
export const CredentialId = prefixed("crd", "CredentialId")
/** @since 0.1.0 @category models */
export type CredentialId = typeof CredentialId.Type
/** @since 0.1.0 @category models */
export const TenantId = prefixed("tnt", "TenantId")
/** @since 0.1.0 @category models */
export type TenantId = typeof TenantId.Type
/** @since 0.1.0 @category models */
export const WebhookId = prefixed("whk", "WebhookId")
/** @since 0.1.0 @category models */
export type WebhookId = typeof WebhookId.Type
/** @since 0.1.0 @category models */
export const EventId = prefixed("evt", "EventId")
/** @since 0.1.0 @category models */
export type EventId = typeof EventId.Type
/** @since 0.1.0 @category models */
export const KeyId = prefixed("key", "KeyId")
/** @since 0.1.0 @category models */
export type KeyId = typeof KeyId.Type
/** @since 0.1.0 @category models */
export const ApiKeyId = prefixed("ak", "ApiKeyId")
/** @since 0.1.0 @category models */
export type ApiKeyId = typeof ApiKeyId.Type
/** @since 0.1.0 @category models */
export const JobId = prefixed("job", "JobId")
/** @since 0.1.0 @category models */
export type JobId = typeof JobId.Type
/** @since 0.1.0 @category models */
export const DeliveryId = prefixed("dlv", "DeliveryId")
/** @since 0.1.0 @category models */
export type DeliveryId = typeof DeliveryId.Type
/** @since 0.1.0 @category models */
export const RequestId = prefixed("req", "RequestId")
/** @since 0.1.0 @category models */
export type RequestId = typeof RequestId.Type

type Prefix = "bat" | "crd" | "tnt" | "whk" | "evt" | "key" | "ak" | "job" | "dlv" | "req"
type IdOf<P extends Prefix> = P extends "bat" ? BatchId
  : P extends "crd" ? CredentialId
  : P extends "tnt" ? TenantId
  : P extends "whk" ? WebhookId
  : P extends "evt" ? EventId
  : P extends "key" ? KeyId
  : P extends "ak" ? ApiKeyId
  : P extends "job" ? JobId
  : P extends "dlv" ? DeliveryId
  : RequestId

// `ulid()` asks its PRNG for one value per random character, sixteen per id, and its default
// PRNG makes a `getRandomValues` call for each: a tenth of the CPU of a request that only gets
// an id and a 401. The same cryptographic randomness, drawn 4 KB at a time (ids are not secret,
// but guessing the next one should stay as hard as before). A byte's low five bits are one
// Crockford character, uniformly.
let pool = new Uint8Array(0)
let offset = 0
const pooledRandom = (): number => {
  if (offset === pool.length) {
    pool = randomBytes(4096)
    offset = 0
  }
  return (pool[offset++]! & 31) / 32
}

const fresh = (): string => ulid(undefined, pooledRandom)

/**
 * A fresh id. ULIDs sort by creation time, which keyset pagination relies on.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <P extends Prefix>(prefix: P): Effect.Effect<IdOf<P>> =>
  Effect.sync(() => `${prefix}_${fresh()}` as IdOf<P>)

/**
 * The same, outside Effect.
 *
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMake = <P extends Prefix>(prefix: P): IdOf<P> => `${prefix}_${fresh()}` as IdOf<P>

/**
 * The 26 characters after the prefix, lowercased: the `<suffix>` of a tenant's DID (decisions §3).
 *
 * @since 0.1.0
 * @category conversions
 */
export const suffix = (id: string): string => id.slice(id.indexOf("_") + 1).toLowerCase()
