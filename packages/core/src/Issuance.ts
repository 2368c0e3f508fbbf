/**
 * Issuing a batch: build every document, canonicalize it once, sign it (eddsa-rdfc-2022), and
 * hash the batch into a Merkle tree; later, once the root is anchored, insert each credential's
 * Merkle proof in front of its eddsa proof (decisions §1: cert-verifier-js hashes a document
 * with the proofs that precede the Merkle proof, so it must come first to cover the document
 * alone, like the eddsa proof).
 *
 * `signBatch` takes a signing function, so the server signs through the `KeyVault` and an
 * integrator can sign with a key it holds (`issueOffline`). Nothing here touches I/O.
 *
 * @since 0.1.0
 */
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils.js"
import { Array as Arr, Effect } from "effect"
import * as Canonicalizer from "./Canonicalizer.js"
import * as Document from "./Document.js"
import type { JsonObject } from "./Document.js"
import * as DocumentHasher from "./DocumentHasher.js"
import * as Eddsa from "./EddsaRdfc2022.js"
import type { Hash32 } from "./Hex.js"
import * as Merkle from "./Merkle.js"
import * as MerkleProof2019 from "./MerkleProof2019.js"
import * as Primitives from "./Primitives.js"
import * as ProofValueEncoder from "./ProofValueEncoder.js"

/**
 * Who issues and how.
 *
 * @since 0.1.0
 * @category models
 */
export interface IssuerSettings {
  readonly tenantId: string
  readonly issuer: Document.Issuer
  readonly recipientNameMode: Document.RecipientNameMode
  /** The eddsa proof's verification method: the tenant's `did#key-ed25519-N`. */
  readonly eddsaMethod: string
  /** The Merkle proof's verification method: the tenant's `did#key-N` (the anchoring key). */
  readonly merkleMethod: string
}

/**
 * A batch signed and hashed, not yet anchored.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignedBatch {
  /** Each with `proof: [eddsaProof]`: valid VC 2.0 credentials already. */
  readonly documents: ReadonlyArray<JsonObject>
  /** The leaves, in batch order (lowercase hex). */
  readonly targetHashes: ReadonlyArray<string>
  readonly merkleRoot: Hash32
  readonly signedAt: Date
}

/**
 * The anchoring transaction of a batch.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnchorRef {
  readonly chainId: number
  readonly txHash: string
  /** The Merkle proof's `created`: one instant for the whole batch. */
  readonly created: Date
}

// A batch handed to a DocumentHasher goes in up to CHUNKS pieces of at least CHUNK_MIN.
const CHUNKS = 8
const CHUNK_MIN = 32

const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, "Z")

/**
 * `Document.secureRandomness` (UUID v4 ids, 128-bit hex salts) drawn from a pool of
 * cryptographic randomness filled 4 KB at a time: one `getRandomValues` call for some 250
 * values instead of one each. Nothing secret is drawn from it (ids and salts are written
 * into the documents).
 *
 * @since 0.1.0
 * @category constructors
 */
export const pooledRandomness = (): Document.Randomness => {
  let pool = new Uint8Array(0)
  let offset = 0
  const take = (n: number): Uint8Array => {
    if (offset + n > pool.length) {
      pool = randomBytes(4096)
      offset = 0
    }
    offset += n
    return pool.subarray(offset - n, offset)
  }
  return {
    uuid: () => {
      const bytes = take(16)
      bytes[6] = (bytes[6]! & 0x0f) | 0x40
      bytes[8] = (bytes[8]! & 0x3f) | 0x80
      const hex = bytesToHex(bytes)
      return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    },
    salt: () => bytesToHex(take(16))
  }
}

/**
 * Builds, canonicalizes and signs every credential, and computes the Merkle root.
 *
 * The documents are hashed by the `DocumentHasher` when one is provided (the server's worker
 * threads), else here with the `Canonicalizer`; the signatures always come from `sign`.
 *
 * @since 0.1.0
 * @category issuing
 */
export const signBatch = <E>(args: {
  readonly credentials: ReadonlyArray<Document.Content>
  readonly settings: IssuerSettings
  readonly signedAt: Date
  /** A status-list slot per credential, when revocation is published. */
  readonly statusEntries?: ReadonlyArray<Document.StatusEntry | undefined> | undefined
  readonly sign: (message: Uint8Array) => Effect.Effect<Uint8Array, E>
  readonly randomness?: Document.Randomness | undefined
}): Effect.Effect<SignedBatch, E | Canonicalizer.CanonicalizationError, Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    const { settings } = args
    const options: Eddsa.ProofOptions = { verificationMethod: settings.eddsaMethod, created: iso(args.signedAt) }
    // An achievement without an id gets one derived from the tenant, its name and its
    // description (a SHA-1 per credential): derive it once per achievement of the batch.
    const achievementIds = new Map<string, string>()
    const randomness = args.randomness ?? pooledRandomness()
    const build = (i: number): JsonObject => {
      const content = args.credentials[i]!
      const { achievement } = content
      let withId = content
      if (achievement.id === undefined) {
        const key = JSON.stringify([achievement.name, achievement.description])
        let id = achievementIds.get(key)
        if (id === undefined) {
          id = Document.achievementId(settings.tenantId, achievement.name, achievement.description)
          achievementIds.set(key, id)
        }
        withId = { ...content, achievement: { ...achievement, id } }
      }
      return Document.build(
        withId,
        settings.issuer,
        { tenantId: settings.tenantId, recipientNameMode: settings.recipientNameMode, status: args.statusEntries?.[i] },
        randomness
      )
    }
    // Documents are built in batch order whatever asks first, so the randomness is drawn in
    // the same order on every path.
    const count = args.credentials.length
    const unsigned: Array<JsonObject> = new Array(count)
    let built = 0
    const buildUpTo = (end: number) => {
      for (; built < end; built++) unsigned[built] = build(built)
    }
    // The proof configuration depends only on @context and the options: hash it once per context.
    const optionsHashes = new Map<string, Uint8Array>()
    const optionsHashFor = (context: Document.Json | undefined) => {
      const key = JSON.stringify(context)
      const cached = optionsHashes.get(key)
      return cached !== undefined ? Effect.succeed(cached) : Eddsa.optionsHash(context, options).pipe(
        Effect.tap((hash) => Effect.sync(() => optionsHashes.set(key, hash)))
      )
    }
    const documentHashes: Array<Uint8Array> = new Array(count)
    const documents: Array<JsonObject> = new Array(count)
    const signRange = (from: number, hashes: ReadonlyArray<Uint8Array>) =>
      Effect.forEach(hashes, (documentHash, k) => {
        const i = from + k
        const document = unsigned[i]!
        documentHashes[i] = documentHash
        return Effect.flatMap(optionsHashFor(document["@context"]), (optionsHash) =>
          Effect.map(
            Eddsa.sign({ context: document["@context"], documentHash, options, optionsHash, sign: args.sign }),
            (proof) => {
              documents[i] = { ...document, proof: [proof] }
            }
          ))
      }, { discard: true })
    const hasher = yield* Effect.serviceOption(DocumentHasher.DocumentHasher)
    if (hasher._tag === "Some" && count > 0) {
      // Hashed elsewhere (the server's worker threads), chunk by chunk: each chunk is built
      // and handed over while the next is built, and signed as its hashes come back, so this
      // thread builds and signs while the others hash.
      const size = Math.max(CHUNK_MIN, Math.ceil(count / CHUNKS))
      const starts = Array.from({ length: Math.ceil(count / size) }, (_, c) => c * size)
      yield* Effect.forEach(
        starts,
        (from) =>
          Effect.suspend(() => {
            const to = Math.min(count, from + size)
            buildUpTo(to)
            return Effect.flatMap(hasher.value.hashAll(unsigned.slice(from, to)), (hashes) => signRange(from, hashes))
          }),
        { concurrency: "unbounded", discard: true }
      )
    } else if (count > 0) {
      buildUpTo(count)
      const local = DocumentHasher.sequential(yield* Canonicalizer.Canonicalizer)
      yield* Effect.flatMap(local.hashAll(unsigned), (hashes) => signRange(0, hashes))
    }
    const tree = Merkle.build(documentHashes as Arr.NonEmptyArray<Uint8Array>)
    return {
      documents,
      targetHashes: documentHashes.map((h) => bytesToHex(h)),
      merkleRoot: `0x${Merkle.rootHex(tree)}` as Hash32,
      signedAt: args.signedAt
    }
  })

/**
 * The Merkle proof of every leaf once the root is anchored, in batch order.
 *
 * @since 0.1.0
 * @category issuing
 */
export const merkleProofs = (args: {
  readonly targetHashes: ReadonlyArray<string>
  readonly anchor: AnchorRef
  readonly verificationMethod: string
  readonly proofId?: (() => string) | undefined
}): ReadonlyArray<MerkleProof2019.DataIntegrityProof> => {
  const prepared = prepareProofs(args)
  return prepared.proofs(ProofValueEncoder.encodeInThread(prepared.batch))
}

/**
 * `merkleProofs`, the proofValues encoded by the `ProofValueEncoder` when one is provided
 * (the server's worker threads), else in this thread.
 *
 * @since 0.1.0
 * @category issuing
 */
export const merkleProofsWith = (args: {
  readonly targetHashes: ReadonlyArray<string>
  readonly anchor: AnchorRef
  readonly verificationMethod: string
  readonly proofId?: (() => string) | undefined
}): Effect.Effect<ReadonlyArray<MerkleProof2019.DataIntegrityProof>> =>
  Effect.suspend(() => {
    const prepared = prepareProofs(args)
    return Effect.flatMap(Effect.serviceOption(ProofValueEncoder.ProofValueEncoder), (encoder) =>
      Effect.map(
        encoder._tag === "Some" ? encoder.value.encodeAll(prepared.batch) : ProofValueEncoder.inThread.encodeAll(prepared.batch),
        prepared.proofs
      ))
  })

const prepareProofs = (args: {
  readonly targetHashes: ReadonlyArray<string>
  readonly anchor: AnchorRef
  readonly verificationMethod: string
  readonly proofId?: (() => string) | undefined
}) => {
  const tree = Merkle.build(args.targetHashes.map((h) => hexToBytes(h)) as Arr.NonEmptyArray<Uint8Array>)
  const batch: ProofValueEncoder.Batch = {
    merkleRoot: Merkle.rootHex(tree),
    anchors: [MerkleProof2019.ethereumAnchor(args.anchor.chainId, args.anchor.txHash)],
    leaves: Merkle.paths(tree).map((path, i) => ({ path, targetHash: args.targetHashes[i]! }))
  }
  const proofId = args.proofId ?? pooledRandomness().uuid
  const proofs = (proofValues: ReadonlyArray<string>) =>
    proofValues.map((proofValue) =>
      MerkleProof2019.makeProof({
        id: proofId(),
        created: args.anchor.created,
        verificationMethod: args.verificationMethod,
        proofValue
      })
    )
  return { batch, proofs }
}

/**
 * The anchored document: the Merkle proof first, then the proofs it already had.
 *
 * @since 0.1.0
 * @category issuing
 */
export const withMerkleProof = (document: JsonObject, merkleProof: MerkleProof2019.DataIntegrityProof): JsonObject => ({
  ...document,
  proof: [merkleProof as unknown as JsonObject, ...Document.proofsOf(document).filter((p) => !MerkleProof2019.isMerkleProof(p))]
})

/**
 * Completes a signed batch once its root is anchored.
 *
 * @since 0.1.0
 * @category issuing
 */
export const complete = (batch: SignedBatch, settings: IssuerSettings, anchor: AnchorRef): ReadonlyArray<JsonObject> => {
  const proofs = merkleProofs({ targetHashes: batch.targetHashes, anchor, verificationMethod: settings.merkleMethod })
  return batch.documents.map((document, i) => withMerkleProof(document, proofs[i]!))
}

/**
 * `complete`, the proofValues encoded by the `ProofValueEncoder` when one is provided.
 *
 * @since 0.1.0
 * @category issuing
 */
export const completeWith = (
  batch: SignedBatch,
  settings: IssuerSettings,
  anchor: AnchorRef
): Effect.Effect<ReadonlyArray<JsonObject>> =>
  Effect.map(
    merkleProofsWith({ targetHashes: batch.targetHashes, anchor, verificationMethod: settings.merkleMethod }),
    (proofs) => batch.documents.map((document, i) => withMerkleProof(document, proofs[i]!))
  )

/**
 * Ed25519 with a raw secret key, for callers that hold their key (through the installed
 * `Primitives`).
 *
 * @since 0.1.0
 * @category signing
 */
export const signEd25519 = (secretKey: Uint8Array, message: Uint8Array): Uint8Array =>
  Primitives.ed25519Sign(secretKey, message)

/**
 * Issues a batch offline with an Ed25519 secret key the caller holds: the signed documents,
 * the Merkle root to anchor, and a function that completes the Merkle proofs once the root's
 * transaction is known.
 *
 * @since 0.1.0
 * @category issuing
 */
export const issueOffline = (args: {
  readonly credentials: ReadonlyArray<Document.Content>
  readonly settings: IssuerSettings
  readonly ed25519SecretKey: Uint8Array
  readonly signedAt: Date
}): Effect.Effect<
  SignedBatch & { readonly complete: (anchor: AnchorRef) => ReadonlyArray<JsonObject> },
  Canonicalizer.CanonicalizationError,
  Canonicalizer.Canonicalizer
> =>
  signBatch({
    credentials: args.credentials,
    settings: args.settings,
    signedAt: args.signedAt,
    sign: (message) => Effect.sync(() => signEd25519(args.ed25519SecretKey, message))
  }).pipe(Effect.map((batch) => ({ ...batch, complete: (anchor: AnchorRef) => complete(batch, args.settings, anchor) })))
