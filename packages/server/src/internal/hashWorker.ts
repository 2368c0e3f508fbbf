/**
 * A SigningPool worker thread: canonicalizes documents (the fast path, jsonld.js for anything
 * else, exactly `Canonicalizer.fastCanonicalize`) and answers their SHA-256 hashes; encodes
 * MerkleProof2019 proofValues. It holds no key and sees no secret: unsigned documents and
 * Merkle paths come in, hashes and proofValues go out.
 *
 * Messages: `{ id, proofs }` in, `{ id, proofValues }` out; `{ id, documents }` in; out
 * `{ id, hashes }` (32 bytes per document,
 * concatenated, transferred), `{ id, error: { message, undefinedTerms } }` (a document does
 * not canonicalize: the batch fails as it would in the calling thread) or `{ id, crash }`
 * (a bug here: the pool hashes that chunk itself).
 *
 * @internal
 */
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as FastCanonicalizer from "@sigil/core/FastCanonicalizer"
import * as Primitives from "@sigil/core/Primitives"
import * as ProofValueEncoder from "@sigil/core/ProofValueEncoder"
import { Effect, Either } from "effect"
import { parentPort } from "node:worker_threads"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import * as Compact from "./compactBatch.js"

NodePrimitives.install()

type Request =
  | { readonly id: number; readonly documents: ReadonlyArray<object> }
  | { readonly id: number; readonly proofs: Compact.CompactBatch }

const hashChunk = async (documents: ReadonlyArray<object>): Promise<Uint8Array | Canonicalizer.CanonicalizationError> => {
  const out = new Uint8Array(documents.length * 32)
  for (let i = 0; i < documents.length; i++) {
    const document = documents[i]!
    let nquads = FastCanonicalizer.canonicalize(document)
    // Off the fast path, or a literal that reads like an undefined term: the layer decides.
    if (nquads === undefined || nquads.includes("<http://fallback.org/")) {
      const result = await Effect.runPromise(Effect.either(Canonicalizer.fastCanonicalize(document)))
      if (Either.isLeft(result)) return result.left
      nquads = result.right
    }
    out.set(Primitives.sha256Utf8(nquads), i * 32)
  }
  return out
}

parentPort!.on("message", (request: Request) => {
  if ("proofs" in request) {
    try {
      parentPort!.postMessage({ id: request.id, proofValues: ProofValueEncoder.encodeInThread(Compact.expand(request.proofs)) })
    } catch (cause) {
      parentPort!.postMessage({ id: request.id, crash: cause instanceof Error ? cause.message : String(cause) })
    }
    return
  }
  hashChunk(request.documents).then(
    (result) => {
      if (result instanceof Uint8Array) parentPort!.postMessage({ id: request.id, hashes: result }, [result.buffer as ArrayBuffer])
      else parentPort!.postMessage({ id: request.id, error: { message: result.message, undefinedTerms: result.undefinedTerms } })
    },
    (cause: unknown) =>
      parentPort!.postMessage({ id: request.id, crash: cause instanceof Error ? cause.message : String(cause) })
  )
})
