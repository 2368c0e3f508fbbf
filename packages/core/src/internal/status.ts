/**
 * The status step of the verifier: status-list entries (`credentialStatus`), and for
 * Blockcerts credentials without one, the issuer profile's legacy `revocationList`.
 *
 * Follows cert-verifier-js: every status entry is checked and an unreadable list fails the
 * credential; the legacy revocation list is fail-open (an unreachable list is ignored).
 *
 * @internal
 */
import { Effect, Either, Option } from "effect"
import type * as Canonicalizer from "../Canonicalizer.js"
import type { JsonObject } from "../Document.js"
import * as Eddsa from "../EddsaRdfc2022.js"
import * as Keys from "../Keys.js"
import * as StatusList from "../StatusList.js"
import * as StatusListReader from "../StatusListReader.js"
import * as Ecdsa2019 from "./ecdsaSecp256k1Signature2019.js"
import * as Identity from "./identity.js"

/** @internal */
export type StatusOutcome =
  | { readonly _tag: "Active"; readonly message: string }
  | { readonly _tag: "Revoked"; readonly reason: string | undefined; readonly message: string }
  | { readonly _tag: "Suspended"; readonly message: string }
  | { readonly _tag: "Unreadable"; readonly message: string }

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)
const asList = (u: unknown): ReadonlyArray<unknown> => (Array.isArray(u) ? u : u === undefined ? [] : [u])

const read = (reader: StatusListReader.Service, url: string) =>
  reader.read(url).pipe(
    Effect.map(Option.getOrUndefined),
    Effect.catchAll(() => Effect.succeed(undefined))
  )

/**
 * Verifies the status-list credential's own proof: it must be signed by its issuer with an
 * eddsa-rdfc-2022 or EcdsaSecp256k1Signature2019 proof.
 */
const verifyList = (
  cache: Identity.Cache,
  list: JsonObject
): Effect.Effect<string | undefined, never, Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    const issuer = Identity.issuerId(list)
    const proof = asList(list.proof).filter(isObject)[0]
    if (issuer === undefined || proof === undefined) return "the status list is not signed"
    const methodId = proof.verificationMethod
    if (typeof methodId !== "string") return "the status list's proof names no verification method"
    const owner = yield* Effect.either(Identity.methodOwner(cache, methodId))
    if (Either.isLeft(owner)) return owner.left.message
    const method = Identity.findMethod(owner.right, methodId)
    if (method === undefined) return `the status list's key ${methodId} is not published`
    const controller = method.controller ?? owner.right.id
    if (controller !== issuer) return "the status list's key is not controlled by its issuer"
    const key = Keys.fromVerificationMethod(method)
    if (Either.isLeft(key)) return key.left.message
    const verified = proof.type === Ecdsa2019.PROOF_TYPE && key.right.kind === "secp256k1"
      ? Ecdsa2019.verify(list, proof, key.right.publicKey)
      : Eddsa.isEddsaProof(proof) && key.right.kind === "ed25519"
      ? Eddsa.verify(list, proof, key.right.publicKey)
      : Effect.succeed(`unsupported status-list proof ${String(proof.type)}`)
    return yield* verified.pipe(Effect.catchAll((e) => Effect.succeed(e.message)))
  })

const checkEntry = (
  cache: Identity.Cache,
  reader: StatusListReader.Service,
  entry: JsonObject
): Effect.Effect<StatusOutcome, never, Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    const url = entry.statusListCredential
    const index = Number(entry.statusListIndex)
    if (typeof url !== "string" || !Number.isInteger(index) || index < 0) {
      return { _tag: "Unreadable", message: "a credentialStatus entry has no list URL or index" } as const
    }
    const list = yield* read(reader, url)
    if (list === undefined) return { _tag: "Unreadable", message: `the status list ${url} cannot be read` } as const
    const invalid = yield* verifyList(cache, list)
    if (invalid !== undefined) return { _tag: "Unreadable", message: `the status list ${url} does not verify: ${invalid}` } as const
    const subject = isObject(list.credentialSubject) ? list.credentialSubject : {}
    const bits = typeof subject.encodedList === "string" ? StatusList.decode(subject.encodedList) : Either.left("no encodedList")
    if (Either.isLeft(bits)) return { _tag: "Unreadable", message: `the status list ${url}: ${bits.left}` } as const
    if (!StatusList.isSet(bits.right, index)) return { _tag: "Active", message: "not revoked" } as const
    const purpose = entry.statusPurpose ?? subject.statusPurpose
    return purpose === "revocation" || purpose === undefined
      ? { _tag: "Revoked", reason: undefined, message: "revoked by the issuer" } as const
      : { _tag: "Suspended", message: `status "${String(purpose)}" is set by the issuer` } as const
  })

/**
 * The status of a credential.
 *
 * @internal
 */
export const check = (args: {
  readonly document: JsonObject
  readonly cache: Identity.Cache
  readonly reader: StatusListReader.Service
  /** The issuer's Blockcerts profile, when the credential is a Blockcerts credential. */
  readonly profile: JsonObject | undefined
}): Effect.Effect<StatusOutcome, never, Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    const entries = asList(args.document.credentialStatus).filter(isObject)
    if (entries.length > 0) {
      let suspended: StatusOutcome | undefined
      for (const entry of entries) {
        const outcome = yield* checkEntry(args.cache, args.reader, entry)
        if (outcome._tag === "Unreadable" || outcome._tag === "Revoked") return outcome
        if (outcome._tag === "Suspended") suspended = outcome
      }
      return suspended ?? { _tag: "Active", message: "not revoked (status list)" }
    }
    const revocationList = args.profile?.revocationList
    if (typeof revocationList !== "string") return { _tag: "Active", message: "the issuer publishes no revocation status" }
    const list = yield* read(args.reader, revocationList)
    if (list === undefined) return { _tag: "Active", message: "the issuer's revocation list cannot be read (ignored, as Blockcerts does)" }
    const id = args.document.id
    const revoked = asList(list.revokedAssertions).filter(isObject).find((a) => a.id === id)
    if (revoked === undefined) return { _tag: "Active", message: "not on the issuer's revocation list" }
    const reason = typeof revoked.revocationReason === "string" ? revoked.revocationReason : undefined
    return { _tag: "Revoked", reason, message: reason === undefined ? "revoked by the issuer" : `revoked by the issuer: ${reason}` }
  })
