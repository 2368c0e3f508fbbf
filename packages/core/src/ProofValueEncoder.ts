/**
 * Port: the MerkleProof2019 proofValues of a batch's leaves once its root is anchored —
 * CBOR, then base58btc, ≈60 µs a leaf for a 500-credential tree, half of the work of issuing
 * a batch on one core. Like `DocumentHasher` it needs no key, so it may run elsewhere: the
 * server's `SigningPool` provides it on its worker threads. `Issuance.merkleProofsWith` uses
 * the service when it is provided and encodes in place otherwise (`inThread`).
 *
 * @since 0.1.0
 */
import { Context, Effect } from "effect"
import type { PathStep } from "./Merkle.js"
import * as MerkleProof2019 from "./MerkleProof2019.js"

/**
 * What every leaf of the batch shares, and each leaf.
 *
 * @since 0.1.0
 * @category models
 */
export interface Batch {
  readonly merkleRoot: string
  readonly anchors: ReadonlyArray<MerkleProof2019.Anchor>
  readonly leaves: ReadonlyArray<{ readonly path: ReadonlyArray<PathStep>; readonly targetHash: string }>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** `MerkleProof2019.encode`'s proofValue of each leaf, in order. */
  readonly encodeAll: (batch: Batch) => Effect.Effect<ReadonlyArray<string>>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class ProofValueEncoder extends Context.Tag("@sigil/core/ProofValueEncoder")<ProofValueEncoder, Service>() {}

/**
 * Encodes the leaves in this thread (`MerkleProof2019.batchEncoder`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const encodeInThread = (batch: Batch): ReadonlyArray<string> => {
  const encode = MerkleProof2019.batchEncoder({ merkleRoot: batch.merkleRoot, anchors: batch.anchors })
  return batch.leaves.map(encode)
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const inThread: Service = { encodeAll: (batch) => Effect.sync(() => encodeInThread(batch)) }
