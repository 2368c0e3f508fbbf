/**
 * The Merkle tree over a batch, built exactly as Blockcerts' cert-issuer builds it (Tierion
 * merkletools): the leaves are the credentials' targetHashes in batch order, neither hashed
 * again nor sorted; a parent is sha256(left ‖ right) over the raw bytes with no domain prefix;
 * an odd node at the end of a level moves up unchanged. Any deviation changes the root and
 * breaks every Blockcerts verifier, so none of this is ours to improve (RFC 6962 prefixes
 * included).
 *
 * @since 0.1.0
 */
import { bytesToHex } from "@noble/hashes/utils.js"
import type { NonEmptyReadonlyArray } from "effect/Array"
import * as Hex from "./Hex.js"
import { BoundedMap } from "./BoundedMap.js"
import * as Primitives from "./Primitives.js"

/**
 * One step of a leaf's path, bottom-up: the sibling's hash (64 lowercase hex digits, no `0x`)
 * and on which side of the running hash it goes. This is the JSON form of Blockcerts proofs.
 *
 * @since 0.1.0
 * @category models
 */
export type PathStep = { readonly left: string } | { readonly right: string }

/**
 * @since 0.1.0
 * @category models
 */
export interface Tree {
  /** `levels[0]` are the leaves; the last level holds only the root. */
  readonly levels: ReadonlyArray<ReadonlyArray<Uint8Array>>
  readonly root: Uint8Array
}

// Through the installed primitives (node:crypto in the server, @noble elsewhere).
const hashPair = (left: Uint8Array, right: Uint8Array): Uint8Array => Primitives.sha256Pair(left, right)

/**
 * Builds the tree. Every leaf must be a 32-byte hash; anything else is a programming error
 * and throws `RangeError`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const build = (leaves: NonEmptyReadonlyArray<Uint8Array>): Tree => {
  let level: Array<Uint8Array> = leaves.map((leaf, i) => {
    if (!(leaf instanceof Uint8Array) || leaf.length !== 32) {
      throw new RangeError(`Merkle leaf ${i} is not a 32-byte hash`)
    }
    return leaf.slice()
  })
  const levels: Array<ReadonlyArray<Uint8Array>> = [level]
  while (level.length > 1) {
    const next: Array<Uint8Array> = []
    for (let i = 0; i + 1 < level.length; i += 2) next.push(hashPair(level[i]!, level[i + 1]!))
    // cert-issuer promotes the odd node as it is; duplicating it (Bitcoin style) would give
    // another root.
    if (level.length % 2 === 1) next.push(level[level.length - 1]!)
    levels.push(next)
    level = next
  }
  return { levels, root: level[0]! }
}

/**
 * The root as Blockcerts writes it: lowercase hex without `0x`.
 *
 * @since 0.1.0
 * @category getters
 */
export const rootHex = (tree: Tree): string => bytesToHex(tree.root)

/**
 * @since 0.1.0
 * @category getters
 */
export const size = (tree: Tree): number => tree.levels[0]!.length

const pathIn = (levels: ReadonlyArray<ReadonlyArray<string>>, leaf: number): Array<PathStep> => {
  const steps: Array<PathStep> = []
  let index = leaf
  for (let d = 0; d < levels.length - 1; d++) {
    const level = levels[d]!
    const sibling = index ^ 1
    // A promoted node has no sibling on this level and so no step.
    if (sibling < level.length) {
      steps.push(index % 2 === 0 ? { right: level[sibling]! } : { left: level[sibling]! })
    }
    index >>= 1
  }
  return steps
}

/**
 * The path of one leaf. Throws `RangeError` for an index outside the tree.
 *
 * @since 0.1.0
 * @category getters
 */
export const path = (tree: Tree, index: number): ReadonlyArray<PathStep> => {
  const n = size(tree)
  if (!Number.isInteger(index) || index < 0 || index >= n) {
    throw new RangeError(`Merkle leaf index ${index} is outside 0..${n - 1}`)
  }
  // Only the siblings on this leaf's way up are converted to hex.
  const levels = tree.levels.map((level, d) => {
    const sibling = (index >> d) ^ 1
    const hex: Array<string> = []
    if (sibling < level.length) hex[sibling] = bytesToHex(level[sibling]!)
    return hex
  })
  return pathIn(levels, index)
}

/**
 * Every leaf's path, in leaf order. Each node is converted to hex once, so this is
 * O(n log n) for the whole batch.
 *
 * @since 0.1.0
 * @category getters
 */
export const paths = (tree: Tree): ReadonlyArray<ReadonlyArray<PathStep>> => {
  const levels = tree.levels.map((level) => level.map(bytesToHex))
  const out: Array<ReadonlyArray<PathStep>> = []
  for (let i = 0; i < levels[0]!.length; i++) out.push(pathIn(levels, i))
  return out
}

// Parents already computed, by the text of the pair (two 64-digit hashes, exactly as the path
// wrote them) → the parent's lowercase hex. The credentials of a batch share the upper part of
// their paths (500 of them, 4,500 steps, about 500 distinct pairs), so a verifier that checks
// a batch hashes each pair once. Bounded: the oldest pair goes first.
const parents = new BoundedMap<string, string>(4096)

// The pair being hashed (the hash is a new array; this one is reused).
const scratch = new Uint8Array(64)

// sha256(left ‖ right) as lowercase hex, or undefined when either is not 64 hex digits.
const parentOf = (left: string, right: string): string | undefined => {
  // Both exactly 64 characters, so the pair's text splits one way only and a remembered pair
  // was valid hex when it was hashed.
  if (left.length !== 64 || right.length !== 64) return undefined
  const pair = left + right
  const known = parents.get(pair)
  if (known !== undefined) return known
  const l = Hex.hash32Bytes(left)
  const r = Hex.hash32Bytes(right)
  if (l === undefined || r === undefined) return undefined
  scratch.set(l, 0)
  scratch.set(r, 32)
  const parent = bytesToHex(Primitives.sha256(scratch))
  parents.set(pair, parent)
  return parent
}

/**
 * Whether `path` folds `targetHash` up to `merkleRoot`, as cert-verifier-js checks a receipt:
 * `sha256(left ‖ cur)` for a `left` step, `sha256(cur ‖ right)` for a `right` step.
 *
 * Hashes are 64 hex digits in either case, without `0x` (the Blockcerts form). It takes
 * untrusted data: anything malformed (wrong length, a step with both or neither side, a
 * non-array path) gives `false`, never an exception.
 *
 * @since 0.1.0
 * @category verification
 */
export const verify = (targetHash: string, path: ReadonlyArray<PathStep>, merkleRoot: string): boolean => {
  try {
    const root = Hex.hash32Bytes(merkleRoot)
    if (root === undefined || Hex.hash32Bytes(targetHash) === undefined || !Array.isArray(path)) return false
    let current: string = targetHash
    for (const step of path as ReadonlyArray<unknown>) {
      if (typeof step !== "object" || step === null || Object.keys(step).length !== 1) return false
      let parent: string | undefined
      if (Object.hasOwn(step, "left")) {
        const sibling = (step as { left: unknown }).left
        parent = typeof sibling === "string" ? parentOf(sibling, current) : undefined
      } else if (Object.hasOwn(step, "right")) {
        const sibling = (step as { right: unknown }).right
        parent = typeof sibling === "string" ? parentOf(current, sibling) : undefined
      }
      if (parent === undefined) return false
      current = parent
    }
    return current.toLowerCase() === bytesToHex(root)
  } catch {
    return false
  }
}
