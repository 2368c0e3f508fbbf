/**
 * The verifier: checks a credential without trusting its issuer's servers beyond what the
 * standards require, and says which step failed.
 *
 * Steps, in order (a failed integrity step stops the rest):
 * 1. `format` — a VC 1.1 / 2.0 credential with a Merkle and/or eddsa-rdfc-2022 proof.
 * 2. `documentHash` — the canonical document (with the proofs that precede the Merkle proof,
 *    as Blockcerts hashes it) hashes to the proof's `targetHash`; no undefined term.
 * 3. `merklePath` — the path folds the targetHash to the `merkleRoot`.
 * 4. `anchor` — the anchoring transaction exists, is confirmed and carries exactly the root.
 * 5. `issuerKey` — the transaction's sender is a key of the issuer (listed in its Blockcerts
 *    profile, created before the block) and is the key of the proof's verification method.
 * 6. `eddsaProof` — every eddsa-rdfc-2022 proof verifies with a key the issuer controls.
 * 7. `status` — not revoked or suspended in its status list (or the issuer's revocation list).
 * 8. `expiry` — within its validity period.
 *
 * Chain access, DID resolution and status lists are ports, so the same verifier runs in the
 * server, in the browser and offline.
 *
 * @since 0.1.0
 */
import { bytesToHex } from "@noble/hashes/utils.js"
import { Clock, Effect, Either } from "effect"
import * as Canonicalizer from "./Canonicalizer.js"
import type { ChainRef } from "./ChainReader.js"
import * as ChainReader from "./ChainReader.js"
import type { ChainName } from "./Chains.js"
import * as Chains from "./Chains.js"
import * as Contexts from "./Contexts.js"
import * as DidResolver from "./DidResolver.js"
import type { JsonObject } from "./Document.js"
import * as Eddsa from "./EddsaRdfc2022.js"
import * as Hex from "./Hex.js"
import * as Identity from "./internal/identity.js"
import * as Status from "./internal/status.js"
import * as Keys from "./Keys.js"
import * as Merkle from "./Merkle.js"
import * as MerkleProof2019 from "./MerkleProof2019.js"
import * as StatusListReader from "./StatusListReader.js"

/**
 * @since 0.1.0
 * @category models
 */
export type StepName =
  | "format"
  | "documentHash"
  | "merklePath"
  | "anchor"
  | "issuerKey"
  | "eddsaProof"
  | "status"
  | "expiry"

/**
 * Every step, in the order they run.
 *
 * @since 0.1.0
 * @category constants
 */
export const STEPS: ReadonlyArray<StepName> = [
  "format",
  "documentHash",
  "merklePath",
  "anchor",
  "issuerKey",
  "eddsaProof",
  "status",
  "expiry"
]

/**
 * @since 0.1.0
 * @category models
 */
export interface Step {
  readonly name: StepName
  readonly status: "passed" | "failed" | "skipped"
  readonly message: string
}

/**
 * - `verified`: every check passed (a `mocknet` anchor is reported in `anchor`).
 * - `not_anchored`: a valid signed credential whose Merkle proof is not there yet.
 * - `revoked` / `suspended` / `expired` / `not_yet_valid`: authentic, but not valid now.
 * - `failed`: an integrity check failed; `failedStep` says which.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = "verified" | "not_anchored" | "revoked" | "suspended" | "expired" | "not_yet_valid" | "failed"

/**
 * @since 0.1.0
 * @category models
 */
export interface AnchorInfo {
  readonly chain: MerkleProof2019.Chain
  /** The EVM chain id for `eth` anchors. */
  readonly chainId: number | undefined
  readonly chainName: ChainName | undefined
  readonly chainLabel: string
  readonly txHash: string
  readonly merkleRoot: string
  readonly blockNumber: number | undefined
  readonly blockTimestamp: Date | undefined
  readonly sender: string | undefined
  readonly explorerUrl: string | undefined
  /** A Blockcerts test anchor: nothing was recorded on a chain. */
  readonly mocknet: boolean
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly outcome: Outcome
  readonly verified: boolean
  readonly message: string
  readonly failedStep: StepName | undefined
  readonly steps: ReadonlyArray<Step>
  readonly credentialId: string | undefined
  readonly issuer: { readonly id: string; readonly name: string | undefined } | undefined
  readonly anchor: AnchorInfo | undefined
  readonly revocationReason: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The time validity is checked against; the Clock's time by default. */
  readonly now?: Date | undefined
  /** Called as each step completes (the verification page shows them one by one). */
  readonly onStep?: ((step: Step) => void) | undefined
}

/**
 * What verification needs.
 *
 * @since 0.1.0
 * @category models
 */
export type Requirements =
  | Canonicalizer.Canonicalizer
  | ChainReader.ChainReader
  | DidResolver.DidResolver
  | StatusListReader.StatusListReader

class StepFailed {
  readonly _tag = "StepFailed"
  constructor(readonly step: StepName, readonly message: string) {}
}

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)
const asList = (u: unknown): ReadonlyArray<unknown> => (Array.isArray(u) ? u : u === undefined ? [] : [u])
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i

/**
 * Verifies a credential. Never fails: every problem is a failed step in the result.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyCredential = (document: unknown, options: Options = {}): Effect.Effect<Result, never, Requirements> =>
  Effect.gen(function*() {
    const steps: Array<Step> = []
    const record = (step: Step) => {
      steps.push(step)
      options.onStep?.(step)
    }
    const pass = (name: StepName, message: string) => record({ name, status: "passed", message })
    const skip = (name: StepName, message: string) => record({ name, status: "skipped", message })
    const fail = (name: StepName, message: string) => Effect.fail(new StepFailed(name, message))

    const now = options.now ?? new Date(yield* Clock.currentTimeMillis)
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const chainReader = yield* ChainReader.ChainReader
    const statusReader = yield* StatusListReader.StatusListReader
    const cache = Identity.makeCache(yield* DidResolver.DidResolver)

    let anchor: AnchorInfo | undefined
    let revocationReason: string | undefined
    const doc = isObject(document) ? document : undefined
    const issuer = doc === undefined ? undefined : Identity.issuerId(doc)

    const integrity = Effect.gen(function*() {
      // 1. format
      if (doc === undefined) return yield* fail("format", "the credential is not a JSON object")
      const contexts = asList(doc["@context"])
      const version = contexts[0] === Contexts.VC_V2 ? 2 : contexts[0] === Contexts.VC_V1 ? 1 : undefined
      if (version === undefined) return yield* fail("format", "the first @context is neither VC 1.1 nor VC 2.0")
      if (contexts.includes(Contexts.VC_V1) && contexts.includes(Contexts.VC_V2)) {
        return yield* fail("format", "the credential mixes the VC 1.1 and VC 2.0 contexts")
      }
      if (!asList(doc.type).includes("VerifiableCredential")) return yield* fail("format", "type lacks VerifiableCredential")
      if (issuer === undefined) return yield* fail("format", "the credential has no issuer")
      if (doc.credentialSubject === undefined) return yield* fail("format", "the credential has no credentialSubject")
      const proofs = asList(doc.proof).filter(isObject)
      const merkleIndex = proofs.findIndex(MerkleProof2019.isMerkleProof)
      const eddsaProofs = proofs.filter(Eddsa.isEddsaProof)
      if (merkleIndex < 0 && eddsaProofs.length === 0) {
        return yield* fail("format", "the credential has no MerkleProof2019 or eddsa-rdfc-2022 proof")
      }
      pass("format", `a VC ${version === 2 ? "2.0" : "1.1"} credential`)

      let profile: JsonObject | undefined
      let unsecuredHash: Uint8Array | undefined
      if (merkleIndex >= 0) {
        const merkleProof = proofs[merkleIndex]!
        // 2. documentHash
        const decoded = MerkleProof2019.decode(merkleProof.proofValue as string)
        if (Either.isLeft(decoded)) return yield* fail("documentHash", `the proofValue cannot be decoded: ${decoded.left.message}`)
        const value = decoded.right
        const { proof: _proof, ...unsecured } = doc
        const hashed = Array.isArray(doc.proof) && merkleIndex > 0 ? { ...unsecured, proof: proofs.slice(0, merkleIndex) } : unsecured
        const nquads = yield* canonicalizer.canonicalize(hashed).pipe(
          Effect.catchAll((e) => fail("documentHash", e.message))
        )
        const documentHash = Canonicalizer.sha256Bytes(nquads)
        // The eddsa proofs cover the same document when no proof precedes the Merkle proof.
        if (hashed === unsecured) unsecuredHash = documentHash
        if (bytesToHex(documentHash) !== value.targetHash.toLowerCase()) {
          return yield* fail("documentHash", "the document's hash does not match the proof's targetHash: it was changed after issuance")
        }
        pass("documentHash", `the document hashes to the targetHash ${value.targetHash}`)

        // 3. merklePath
        if (!Merkle.verify(value.targetHash, value.path, value.merkleRoot)) {
          return yield* fail("merklePath", "the Merkle path does not lead to the merkleRoot")
        }
        pass("merklePath", `the Merkle path (${value.path.length} steps) leads to the root ${value.merkleRoot}`)

        // 4. anchor
        const first = value.anchors[0]
        if (first === undefined) return yield* fail("anchor", "the proof names no anchor")
        if (first.chain === "mocknet") {
          anchor = mocknetAnchor(value.merkleRoot, first.tx)
          skip("anchor", "a mocknet test anchor: not recorded on a blockchain")
          skip("issuerKey", "a mocknet test anchor has no sender to check")
        } else {
          const ref = chainRefOf(first)
          if (Either.isLeft(ref)) return yield* fail("anchor", ref.left)
          const label = labelOf(ref.right)
          const found = yield* chainReader.getTransaction(ref.right, first.tx).pipe(
            Effect.catchAll((e) => fail("anchor", `${label} cannot be reached: ${e.message}`))
          )
          if (found._tag === "None") return yield* fail("anchor", `the transaction ${first.tx} is not on ${label}`)
          const tx = found.value
          if (tx.confirmations < 1 || tx.blockTimestamp === undefined) {
            return yield* fail("anchor", `the transaction ${first.tx} is not confirmed yet`)
          }
          if (Hex.strip(tx.input).toLowerCase() !== value.merkleRoot.toLowerCase()) {
            return yield* fail("anchor", "the transaction does not carry this credential's Merkle root")
          }
          anchor = {
            chain: first.chain,
            chainId: ref.right.family === "eth" ? ref.right.chainId : undefined,
            chainName: ref.right.family === "eth" ? Chains.byChainId(ref.right.chainId)?.name : undefined,
            chainLabel: label,
            txHash: first.tx,
            merkleRoot: value.merkleRoot,
            blockNumber: tx.blockNumber,
            blockTimestamp: tx.blockTimestamp,
            sender: tx.from,
            explorerUrl: ref.right.family === "eth" ? Chains.explorerTxUrl(ref.right.chainId, first.tx) : undefined,
            mocknet: false
          }
          pass("anchor", `anchored on ${label} in block ${tx.blockNumber} at ${tx.blockTimestamp.toISOString()}`)

          // 5. issuerKey
          const documents = yield* Identity.issuerDocuments(cache, issuer).pipe(
            Effect.catchAll((f) => fail("issuerKey", f.message))
          )
          profile = documents.profile
          yield* checkIssuerKey({
            anchor,
            network: ref.right,
            issuer,
            didDocument: documents.didDocument,
            profile: documents.profile,
            verificationMethod: merkleProof.verificationMethod
          }).pipe(Effect.catchAll((message) => fail("issuerKey", message)))
          pass("issuerKey", `sent by ${tx.from}, a key of the issuer`)
        }
      } else {
        for (const name of ["documentHash", "merklePath", "anchor", "issuerKey"] as const) {
          skip(name, "no Merkle proof yet: the credential is signed but not anchored")
        }
      }

      // 6. eddsaProof
      if (eddsaProofs.length === 0) {
        skip("eddsaProof", "no eddsa-rdfc-2022 proof")
      } else {
        for (const proof of eddsaProofs) {
          yield* checkEddsa(cache, doc, proof, issuer, unsecuredHash).pipe(Effect.catchAll((message) => fail("eddsaProof", message)))
        }
        pass("eddsaProof", `${eddsaProofs.length === 1 ? "the eddsa-rdfc-2022 proof verifies" : "every eddsa-rdfc-2022 proof verifies"} with the issuer's key`)
      }
      return { doc, profile, merkleProof: merkleIndex >= 0 ? proofs[merkleIndex] : undefined, version }
    })

    const checked = yield* Effect.either(integrity)
    if (Either.isLeft(checked)) {
      record({ name: checked.left.step, status: "failed", message: checked.left.message })
      for (const name of STEPS.slice(STEPS.indexOf(checked.left.step) + 1)) {
        skip(name, "not checked: an earlier step failed")
      }
      return result("failed", checked.left.message, checked.left.step)
    }
    const { merkleProof, profile, version } = checked.right

    // 7. status
    const status = yield* Status.check({ document: doc!, cache, reader: statusReader, profile })
    let outcome: Outcome | undefined
    switch (status._tag) {
      case "Active":
        pass("status", status.message)
        break
      case "Unreadable":
        record({ name: "status", status: "failed", message: status.message })
        skip("expiry", "not checked: an earlier step failed")
        return result("failed", status.message, "status")
      case "Revoked":
        revocationReason = status.reason
        record({ name: "status", status: "failed", message: status.message })
        outcome = "revoked"
        break
      case "Suspended":
        record({ name: "status", status: "failed", message: status.message })
        outcome = "suspended"
    }

    // 8. expiry
    const [fromKey, untilKey] = version === 2 ? ["validFrom", "validUntil"] : ["issuanceDate", "expirationDate"]
    const from = doc![fromKey] ?? (version === 2 ? merkleProof?.created : undefined)
    const until = doc![untilKey]
    const badDate = [from, until].find((d) => d !== undefined && (typeof d !== "string" || !RFC3339.test(d) || Number.isNaN(Date.parse(d))))
    if (badDate !== undefined) {
      record({ name: "expiry", status: "failed", message: `${String(badDate)} is not an RFC 3339 date-time` })
      return result("failed", "a validity date is malformed", "expiry")
    }
    if (typeof from === "string" && Date.parse(from) > now.getTime()) {
      record({ name: "expiry", status: "failed", message: `valid only from ${from}` })
      outcome ??= "not_yet_valid"
    } else if (typeof until === "string" && Date.parse(until) <= now.getTime()) {
      record({ name: "expiry", status: "failed", message: `expired on ${until}` })
      outcome ??= "expired"
    } else {
      pass("expiry", typeof until === "string" ? `valid until ${until}` : "does not expire")
    }

    outcome ??= merkleProof === undefined ? "not_anchored" : "verified"
    return result(outcome, messages[outcome](revocationReason), undefined)

    function result(outcome: Outcome, message: string, failedStep: StepName | undefined): Result {
      const name = doc !== undefined && isObject(doc.issuer) && typeof doc.issuer.name === "string" ? doc.issuer.name : undefined
      return {
        outcome,
        verified: outcome === "verified",
        message,
        failedStep,
        steps,
        credentialId: doc !== undefined && typeof doc.id === "string" ? doc.id : undefined,
        issuer: issuer === undefined ? undefined : { id: issuer, name },
        anchor,
        revocationReason
      }
    }
  })

const messages: Record<Outcome, (reason: string | undefined) => string> = {
  verified: () => "Verified: authentic, anchored, and valid.",
  not_anchored: () => "Signed by the issuer; not yet anchored on a blockchain.",
  revoked: (reason) => reason === undefined ? "Revoked by the issuer." : `Revoked by the issuer: ${reason}`,
  suspended: () => "Suspended by the issuer.",
  expired: () => "Authentic, but expired.",
  not_yet_valid: () => "Authentic, but not valid yet.",
  failed: () => "Verification failed."
}

const mocknetAnchor = (merkleRoot: string, tx: string): AnchorInfo => ({
  chain: "mocknet",
  chainId: undefined,
  chainName: undefined,
  chainLabel: "Mocknet (test only)",
  txHash: tx,
  merkleRoot,
  blockNumber: undefined,
  blockTimestamp: undefined,
  sender: undefined,
  explorerUrl: undefined,
  mocknet: true
})

const chainRefOf = (anchor: MerkleProof2019.Anchor): Either.Either<ChainRef, string> => {
  if (anchor.chain === "eth") {
    if (anchor.network === undefined) return Either.left("the Ethereum anchor names no network")
    if (Chains.byChainId(anchor.network) === undefined) return Either.left(`unknown EVM chain id ${anchor.network}`)
    return Either.right({ family: "eth", chainId: anchor.network })
  }
  if (anchor.chain === "btc") {
    if (anchor.network === 1) return Either.right({ family: "btc", network: "mainnet" })
    if (anchor.network === 3) return Either.right({ family: "btc", network: "testnet" })
    return Either.left(`unsupported Bitcoin network ${String(anchor.network)}`)
  }
  return Either.left(`anchors on ${anchor.chain} are not supported`)
}

const labelOf = (ref: ChainRef): string =>
  ref.family === "eth"
    ? Chains.byChainId(ref.chainId)?.label ?? `EVM chain ${ref.chainId}`
    : ref.network === "mainnet" ? "Bitcoin" : "Bitcoin testnet"

/**
 * Blockcerts' issuer checks: the sender is in the profile's `publicKey` list, that key was
 * created strictly before the block (and not revoked or expired by then), and the proof's
 * verification method is that same key.
 */
const checkIssuerKey = (args: {
  readonly anchor: AnchorInfo
  readonly network: ChainRef
  readonly issuer: string
  readonly didDocument: JsonObject | undefined
  readonly profile: JsonObject
  readonly verificationMethod: unknown
}): Effect.Effect<void, string> =>
  Effect.gen(function*() {
    const sender = (args.anchor.sender ?? "").toLowerCase()
    const blockTime = args.anchor.blockTimestamp!.getTime()
    const key = Identity.profileKeys(args.profile).find((k) => k.address.toLowerCase() === sender)
    if (key === undefined) return yield* Effect.fail(`the transaction's sender ${sender} is not a key of the issuer`)
    // Blockcerts compares in whole seconds: created must be strictly before the block.
    const seconds = (d: Date) => Math.floor(d.getTime() / 1000)
    if (key.created !== undefined && seconds(new Date(blockTime)) <= seconds(key.created)) {
      return yield* Effect.fail("the issuer's key was created after the credential was anchored")
    }
    if (key.revoked !== undefined && blockTime >= key.revoked.getTime()) {
      return yield* Effect.fail("the issuer's key had been revoked when the credential was anchored")
    }
    if (key.expires !== undefined && blockTime >= key.expires.getTime()) {
      return yield* Effect.fail("the issuer's key had expired when the credential was anchored")
    }
    const methodId = args.verificationMethod
    const container = args.didDocument ?? args.profile
    if (args.didDocument !== undefined) {
      if (typeof methodId !== "string") return yield* Effect.fail("the Merkle proof names no verification method")
      if (args.didDocument.id !== DidResolver.didOf(methodId)) {
        return yield* Effect.fail("the Merkle proof's verification method is not in the issuer's DID document")
      }
    }
    const method = typeof methodId === "string" ? Identity.findMethod(container, methodId) : undefined
    if (method === undefined) {
      // A hosted profile without verification methods is only held to its publicKey list,
      // as in cert-verifier-js; a DID issuer must publish the key.
      if (args.didDocument !== undefined || Array.isArray(args.profile.verificationMethod)) {
        return yield* Effect.fail(`the issuer does not publish the verification method ${String(methodId)}`)
      }
      return
    }
    const publicKey = Keys.fromVerificationMethod(method)
    if (Either.isLeft(publicKey) || publicKey.right.kind !== "secp256k1") {
      return yield* Effect.fail("the Merkle proof's verification method is not a secp256k1 key")
    }
    const derived = args.network.family === "eth"
      ? Keys.ethereumAddress(publicKey.right.publicKey)
      : Keys.bitcoinAddress(publicKey.right.publicKey, args.network.network)
    if (derived.toLowerCase() !== sender) {
      return yield* Effect.fail(`issuer identity mismatch: the verification method's address is ${derived}, the sender is ${sender}`)
    }
  })

/**
 * One eddsa-rdfc-2022 proof: its key is published by the issuer (controller = issuer,
 * listed for assertion) and the signature verifies.
 */
const checkEddsa = (
  cache: Identity.Cache,
  document: JsonObject,
  proof: JsonObject,
  issuer: string,
  documentHash: Uint8Array | undefined
): Effect.Effect<void, string, Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    if (proof.proofPurpose !== "assertionMethod") return yield* Effect.fail("the eddsa proof's purpose is not assertionMethod")
    const methodId = proof.verificationMethod
    if (typeof methodId !== "string") return yield* Effect.fail("the eddsa proof names no verification method")
    const owner = yield* Identity.methodOwner(cache, methodId).pipe(Effect.mapError((f) => f.message))
    const method = Identity.findMethod(owner, methodId)
    if (method === undefined) return yield* Effect.fail(`the issuer does not publish the key ${methodId}`)
    const controller = method.controller ?? owner.id
    if (controller !== issuer) return yield* Effect.fail(`the key ${methodId} is not controlled by the issuer ${issuer}`)
    if (!Identity.isAssertionMethod(owner, method)) return yield* Effect.fail(`the key ${methodId} is not an assertion method`)
    const key = Keys.fromVerificationMethod(method)
    if (Either.isLeft(key) || key.right.kind !== "ed25519") return yield* Effect.fail(`the key ${methodId} is not an Ed25519 key`)
    const problem = yield* Eddsa.verify(document, proof, key.right.publicKey, { documentHash }).pipe(
      Effect.mapError((e) => e.message)
    )
    if (problem !== undefined) return yield* Effect.fail(problem)
  })
