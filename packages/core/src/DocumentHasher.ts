/**
 * Port: the hashes of a batch's documents — sha256 of each document's canonical N-Quads, the
 * Blockcerts `targetHash` and the document half of the eddsa-rdfc-2022 signing input.
 *
 * It is the part of signing a batch that needs no key, so it may run elsewhere: the server
 * provides a pool of worker threads (`@sigil/server/SigningPool`) while the signatures stay
 * with the key vault in the calling thread. `Issuance.signBatch` uses the service when it is
 * provided — asking for the hashes in chunks and signing each chunk as it arrives — and
 * hashes in place otherwise (`sequential`), so providing it is optional.
 *
 * @since 0.1.0
 */
import { Context, Effect } from "effect"
import * as Canonicalizer from "./Canonicalizer.js"
import type { JsonObject } from "./Document.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** sha256 of the canonical N-Quads of each document, in order (each 32 bytes). */
  readonly hashAll: (
    documents: ReadonlyArray<JsonObject>
  ) => Effect.Effect<ReadonlyArray<Uint8Array>, Canonicalizer.CanonicalizationError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class DocumentHasher extends Context.Tag("@sigil/core/DocumentHasher")<DocumentHasher, Service>() {}

/**
 * One document after the other with the given canonicalizer, in this thread.
 *
 * @since 0.1.0
 * @category constructors
 */
export const sequential = (canonicalizer: Canonicalizer.Service): Service => ({
  hashAll: (documents) =>
    Effect.forEach(documents, (document) => Effect.map(canonicalizer.canonicalize(document), Canonicalizer.sha256Bytes))
})
