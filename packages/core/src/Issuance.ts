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
import { ed25519 } from "@noble/curves/ed25519.js"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Array as Arr, Effect } from "effect"
import * as Canonicalizer from "./Canonicalizer.js"
import * as Document from "./Document.js"
import type { JsonObject } from "./Document.js"
import * as Eddsa from "./EddsaRdfc2022.js"
import type { Hash32 } from "./Hex.js"
import * as Merkle from "./Merkle.js"
import * as MerkleProof2019 from "./MerkleProof2019.js"

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

const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, "Z")

/**
 * Builds, canonicalizes and signs every credential, and computes the Merkle root.
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
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const { settings } = args
    const options: Eddsa.ProofOptions = { verificationMethod: settings.eddsaMethod, created: iso(args.signedAt) }
    // The proof configuration depends only on @context and the options: hash it once per context.
    const optionsHashes = new Map<string, Uint8Array>()
    const optionsHashFor = (context: Document.Json | undefined) => {
      const key = JSON.stringify(context)
      const cached = optionsHashes.get(key)
      return cached !== undefined ? Effect.succeed(cached) : Eddsa.optionsHash(context, options).pipe(
        Effect.tap((hash) => Effect.sync(() => optionsHashes.set(key, hash)))
      )
    }
    const signed = yield* Effect.forEach(args.credentials, (content, i) =>
      Effect.gen(function*() {
        const unsigned = Document.build(
          content,
          settings.issuer,
          { tenantId: settings.tenantId, recipientNameMode: settings.recipientNameMode, status: args.statusEntries?.[i] },
          args.randomness
        )
        const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsigned))
        const proof = yield* Eddsa.sign({
          context: unsigned["@context"],
          documentHash,
          options,
          optionsHash: yield* optionsHashFor(unsigned["@context"]),
          sign: args.sign
        })
        return { document: { ...unsigned, proof: [proof] }, documentHash }
      }))
    const tree = Merkle.build(signed.map((s) => s.documentHash) as Arr.NonEmptyArray<Uint8Array>)
    return {
      documents: signed.map((s) => s.document),
      targetHashes: signed.map((s) => bytesToHex(s.documentHash)),
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
  const tree = Merkle.build(args.targetHashes.map((h) => hexToBytes(h)) as Arr.NonEmptyArray<Uint8Array>)
  const merkleRoot = Merkle.rootHex(tree)
  const anchors = [MerkleProof2019.ethereumAnchor(args.anchor.chainId, args.anchor.txHash)]
  return Merkle.paths(tree).map((path, i) =>
    MerkleProof2019.makeProof({
      id: (args.proofId ?? Document.randomUuid)(),
      created: args.anchor.created,
      verificationMethod: args.verificationMethod,
      proofValue: MerkleProof2019.encode({ path, merkleRoot, targetHash: args.targetHashes[i]!, anchors })
    })
  )
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
 * Ed25519 with a raw secret key, for callers that hold their key.
 *
 * @since 0.1.0
 * @category signing
 */
export const signEd25519 = (secretKey: Uint8Array, message: Uint8Array): Uint8Array => ed25519.sign(message, secretKey)

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
