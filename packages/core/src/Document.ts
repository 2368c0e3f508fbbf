/**
 * The credential document: one JSON-LD document that is at once a W3C VC 2.0 credential, an
 * Open Badges 3.0 `OpenBadgeCredential` and (once its Merkle proof is added) a Blockcerts v3
 * credential. The shape follows decisions §1–§2, which settle where the API contract conflicts
 * with the three standards:
 *
 * - `@context` is `[VC 2.0, OB 3.0.3]` (plus StatusList2021 third when there is a status entry);
 *   the Blockcerts contexts are not needed and after OB 3.0.3 they break it.
 * - `validFrom` / `validUntil` carry the input's `issuanceDate` / `expirationDate`.
 * - `issuer` is the tenant's DID with `type: ["Profile"]` and the awarding body's name.
 * - The achievement always has an `id` (stable per tenant and achievement) and `criteria`.
 * - Evidence sits on the credential, each item with an `id`.
 * - The recipient's name is hashed (`IdentityObject`) or plain, by the tenant's mode; the
 *   email never enters the document.
 *
 * @since 0.1.0
 */
import { sha1 } from "@noble/hashes/legacy.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import { Effect } from "effect"
import * as Contexts from "./Contexts.js"

/**
 * What a credential says, as the API's `CredentialInput` decodes (evidence of both levels
 * merged, dates normalized to UTC).
 *
 * @since 0.1.0
 * @category models
 */
export interface Content {
  /**
   * `name` is absent when the recipient's data was erased before signing: the document then names
   * no one. `salt` fixes the salt of a hashed name (drawn at random when absent).
   */
  readonly recipient: { readonly id: string; readonly name?: string | undefined; readonly salt?: string | undefined }
  readonly achievement: {
    readonly id?: string | undefined
    readonly name: string
    readonly description: string
    readonly criteria?: { readonly narrative?: string | undefined } | undefined
    readonly alignment?: ReadonlyArray<Alignment> | undefined
  }
  readonly issuanceDate: string
  readonly expirationDate?: string | null | undefined
  readonly evidence?: ReadonlyArray<{ readonly id?: string | undefined; readonly narrative?: string | undefined }> | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Alignment {
  readonly targetFramework: string
  readonly targetCode: string
  readonly targetName: string
  readonly targetUrl?: string | undefined
}

/**
 * Who issues: the tenant's DID and what the credential shows of the awarding body.
 *
 * @since 0.1.0
 * @category models
 */
export interface Issuer {
  readonly did: string
  /** The awarding body's name, else the tenant's display name, else its name. */
  readonly name: string
  readonly url?: string | undefined
  readonly image?: string | undefined
}

/**
 * How the recipient's name goes into the document (decisions §2).
 *
 * @since 0.1.0
 * @category models
 */
export type RecipientNameMode = "hashed" | "plain"

/**
 * A slot in a revocation status list.
 *
 * @since 0.1.0
 * @category models
 */
export interface StatusEntry {
  readonly statusListCredential: string
  readonly statusListIndex: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Scopes the derived achievement ids: one achievement keeps one id across batches of a tenant. */
  readonly tenantId: string
  readonly recipientNameMode: RecipientNameMode
  readonly status?: StatusEntry | undefined
}

/**
 * A JSON value.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = string | number | boolean | null | ReadonlyArray<Json> | { readonly [key: string]: Json }

/**
 * A JSON object: a credential document, a proof, a DID document.
 *
 * @since 0.1.0
 * @category models
 */
export type JsonObject = { readonly [key: string]: Json }

/**
 * The document types Sigil emits.
 *
 * @since 0.1.0
 * @category constants
 */
export const TYPES = ["VerifiableCredential", "OpenBadgeCredential"] as const

/**
 * The `@context` of Sigil's documents.
 *
 * @since 0.1.0
 * @category constants
 */
export const contextFor = (withStatus: boolean): ReadonlyArray<string> =>
  withStatus ? [Contexts.VC_V2, Contexts.OB_V3, Contexts.STATUS_LIST_2021] : [Contexts.VC_V2, Contexts.OB_V3]

/**
 * Builds the unsigned document (no `proof`). Random parts: the credential's `urn:uuid` id,
 * generated evidence ids and the recipient-name salt.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (content: Content, issuer: Issuer, options: Options): Effect.Effect<JsonObject> =>
  Effect.sync(() => build(content, issuer, options))

/**
 * Where a document's random parts come from.
 *
 * @since 0.1.0
 * @category models
 */
export interface Randomness {
  /** A `urn:uuid:` identifier. */
  readonly uuid: () => string
  /** The salt of a hashed recipient name. */
  readonly salt: () => string
}

/**
 * Cryptographic randomness: UUID v4 ids and 128-bit salts.
 *
 * @since 0.1.0
 * @category constructors
 */
export const secureRandomness: Randomness = {
  uuid: () => randomUuid(),
  salt: () => bytesToHex(randomBytes(16))
}

/**
 * The same, with the source of randomness given (tests, reproducible fixtures).
 *
 * @since 0.1.0
 * @category constructors
 */
export const build = (
  content: Content,
  issuer: Issuer,
  options: Options,
  random: Randomness = secureRandomness
): JsonObject => {
  const { achievement, recipient } = content
  const withStatus = options.status !== undefined
  const evidence = (content.evidence ?? []).map((e) => ({
    id: e.id ?? random.uuid(),
    type: ["Evidence"],
    ...(e.narrative === undefined ? {} : { narrative: e.narrative })
  }))
  const alignment = (achievement.alignment ?? []).map(alignmentNode)
  return {
    "@context": contextFor(withStatus),
    id: random.uuid(),
    type: TYPES,
    name: achievement.name,
    issuer: {
      id: issuer.did,
      type: ["Profile"],
      name: issuer.name,
      ...(issuer.url === undefined ? {} : { url: issuer.url }),
      ...(issuer.image === undefined ? {} : { image: { id: issuer.image, type: "Image" } })
    },
    validFrom: content.issuanceDate,
    ...(content.expirationDate == null ? {} : { validUntil: content.expirationDate }),
    credentialSubject: {
      id: recipient.id,
      type: ["AchievementSubject"],
      ...(recipient.name === undefined
        ? {}
        : recipientName(recipient.name, options.recipientNameMode, recipient.salt ?? random.salt())),
      achievement: {
        id: achievement.id ?? achievementId(options.tenantId, achievement.name, achievement.description),
        type: ["Achievement"],
        name: achievement.name,
        description: achievement.description,
        criteria: { narrative: achievement.criteria?.narrative ?? achievement.description },
        ...(alignment.length === 0 ? {} : { alignment })
      }
    },
    ...(evidence.length === 0 ? {} : { evidence }),
    ...(options.status === undefined ? {} : { credentialStatus: statusNode(options.status) })
  }
}

const alignmentNode = (a: Alignment): JsonObject => ({
  type: ["Alignment"],
  targetFramework: a.targetFramework,
  targetCode: a.targetCode,
  targetName: a.targetName,
  // The OB 3.0 schema requires targetUrl; a URN keeps the document valid without inventing a URL.
  targetUrl: a.targetUrl ??
    `urn:sigil:alignment:${encodeURIComponent(a.targetFramework)}:${encodeURIComponent(a.targetCode)}`
})

const statusNode = (status: StatusEntry): JsonObject => ({
  id: `${status.statusListCredential}#${status.statusListIndex}`,
  type: "StatusList2021Entry",
  statusPurpose: "revocation",
  statusListIndex: String(status.statusListIndex),
  statusListCredential: status.statusListCredential
})

// A salt per credential, so equal names do not give equal hashes across credentials.
const recipientName = (name: string, mode: RecipientNameMode, salt: string): JsonObject => {
  if (mode === "plain") return { name }
  return {
    identifier: [{
      type: "IdentityObject",
      identityType: "name",
      hashed: true,
      identityHash: identityHash(name, salt),
      salt
    }]
  }
}

/**
 * The OB 3.0 `IdentityObject` hash: `sha256$` + hex(sha256(identifier + salt)). A verifier who is
 * told the name can check it; nobody can read it back.
 *
 * @since 0.1.0
 * @category hashing
 */
export const identityHash = (identifier: string, salt: string): string =>
  `sha256$${bytesToHex(sha256(utf8ToBytes(identifier + salt)))}`

// Sigil's UUID v5 namespace for achievement ids. Never change it: ids must stay stable.
const ACHIEVEMENT_NAMESPACE = "0f3c6a52-8d0e-4b7e-9f1a-5c2d7e8b9a41"

/**
 * The stable `urn:uuid` (UUID v5) of an achievement that has no id of its own, derived from the
 * tenant, its name and its description (decisions §1).
 *
 * @since 0.1.0
 * @category constructors
 */
export const achievementId = (tenantId: string, name: string, description: string): string =>
  `urn:uuid:${uuidV5(ACHIEVEMENT_NAMESPACE, JSON.stringify([tenantId, name, description]))}`

const uuidV5 = (namespace: string, name: string): string => {
  const ns = Uint8Array.from(namespace.replace(/-/g, "").match(/../g)!.map((h) => parseInt(h, 16)))
  const input = new Uint8Array([...ns, ...utf8ToBytes(name)])
  const bytes = sha1(input).slice(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  return formatUuid(bytes)
}

/**
 * A random `urn:uuid:` (UUID v4) from a cryptographic source.
 *
 * @since 0.1.0
 * @category constructors
 */
export const randomUuid = (): string => {
  const bytes = randomBytes(16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  return `urn:uuid:${formatUuid(bytes)}`
}

const formatUuid = (bytes: Uint8Array): string => {
  const hex = bytesToHex(bytes)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * The document without its `proof` (what both proofs cover).
 *
 * @since 0.1.0
 * @category combinators
 */
export const withoutProof = (document: JsonObject): JsonObject => {
  const { proof: _proof, ...rest } = document
  return rest
}

/**
 * The document's proofs as a list (absent → empty, a single object → one).
 *
 * @since 0.1.0
 * @category combinators
 */
export const proofsOf = (document: { readonly [key: string]: unknown }): ReadonlyArray<JsonObject> => {
  const proof = document.proof
  if (proof === undefined || proof === null) return []
  return (Array.isArray(proof) ? proof : [proof]).filter((p): p is JsonObject => typeof p === "object" && p !== null)
}
