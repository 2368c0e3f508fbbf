/**
 * The proofValue requests a SigningPool sends its workers, made small to clone.
 *
 * @internal
 */
import type * as ProofValueEncoder from "@sigil/core/ProofValueEncoder"

/**
 * A part of a `ProofValueEncoder.Batch` as it travels to a worker: every hash once, in
 * `hashes`; each leaf's path as indices into it (+1 for a left step, negated for a right
 * one) — a few kilobytes instead of thousands of small objects to clone.
 */
export interface CompactBatch {
  readonly merkleRoot: string
  readonly anchors: ProofValueEncoder.Batch["anchors"]
  readonly hashes: ReadonlyArray<string>
  readonly targetHashes: ReadonlyArray<string>
  readonly paths: ReadonlyArray<Int32Array>
}

/** @internal */
export const compact = (batch: ProofValueEncoder.Batch): CompactBatch => {
  const index = new Map<string, number>()
  const hashes: Array<string> = []
  const of = (hash: string) => {
    let i = index.get(hash)
    if (i === undefined) {
      i = hashes.length + 1
      index.set(hash, i)
      hashes.push(hash)
    }
    return i
  }
  return {
    merkleRoot: batch.merkleRoot,
    anchors: batch.anchors,
    hashes,
    targetHashes: batch.leaves.map((leaf) => leaf.targetHash),
    paths: batch.leaves.map((leaf) => Int32Array.from(leaf.path, (step) => ("left" in step ? of(step.left) : -of(step.right))))
  }
}

/** Back to a `ProofValueEncoder.Batch` (in the worker). @internal */
export const expand = (batch: CompactBatch): ProofValueEncoder.Batch => ({
  merkleRoot: batch.merkleRoot,
  anchors: batch.anchors,
  leaves: batch.paths.map((path, i) => ({
    path: Array.from(path, (k) => (k > 0 ? { left: batch.hashes[k - 1]! } : { right: batch.hashes[-k - 1]! })),
    targetHash: batch.targetHashes[i]!
  }))
})

