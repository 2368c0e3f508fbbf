/**
 * Canonicalization: RDFC-1.0 N-Quads of a JSON-LD document, the input of both proofs.
 *
 * Every undefined term is refused, the way the Blockcerts verifier refuses it: an inline
 * `{"@vocab": "http://fallback.org/"}` is appended so undefined terms map to fallback IRIs
 * instead of being silently dropped, and any fallback IRI in the output is an error. For a
 * document with no undefined term the N-Quads are exactly those of RDFC-1.0 in safe mode, so
 * the same string serves the Merkle proof (what cert-verifier-js recomputes) and the
 * eddsa-rdfc-2022 proof (what a W3C verifier recomputes).
 *
 * It is a service so that a faster implementation for Sigil's own document shape can replace
 * jsonld.js without touching callers: `layerFast` (`FastCanonicalizer` for Sigil's documents,
 * jsonld.js for the rest); jsonld.js (`layerJsonld`) stays the reference.
 *
 * @since 0.1.0
 */
import { bytesToHex } from "@noble/hashes/utils.js"
import { Context, Effect, Layer, Schema } from "effect"
import jsonld from "jsonld"
import * as Contexts from "./Contexts.js"
import * as FastCanonicalizer from "./FastCanonicalizer.js"
import * as Primitives from "./Primitives.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class CanonicalizationError extends Schema.TaggedError<CanonicalizationError>()("CanonicalizationError", {
  message: Schema.String,
  /** The terms that no context defines, when that is the reason. */
  undefinedTerms: Schema.Array(Schema.String)
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** RDFC-1.0 N-Quads of the document (its `proof`, if any, is the caller's business). */
  readonly canonicalize: (document: object) => Effect.Effect<string, CanonicalizationError>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Canonicalizer extends Context.Tag("@sigil/core/Canonicalizer")<Canonicalizer, Service>() {}

const FALLBACK_VOCAB = "http://fallback.org/"

const withFallbackVocab = (document: Record<string, unknown>): Record<string, unknown> => {
  const context = document["@context"]
  const list: Array<unknown> = Array.isArray(context) ? [...context] : context === undefined ? [] : [context]
  // cert-verifier-js only skips the fallback when an inline context already sets @vocab.
  const hasVocab = list.some((c) => typeof c === "object" && c !== null && "@vocab" in c)
  return hasVocab ? document : { ...document, "@context": [...list, { "@vocab": FALLBACK_VOCAB }] }
}

const undefinedTermsIn = (nquads: string): ReadonlyArray<string> => {
  const terms = new Set<string>()
  for (const match of nquads.matchAll(/<http:\/\/fallback\.org\/([^>]*)>/g)) terms.add(decodeURIComponent(match[1]!))
  return [...terms]
}

const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"])
const ID_KEYS = new Set(["id", "@id", "type", "@type"])

/**
 * jsonld.js 9 files nodes in plain objects keyed by their `@id` (and types, terms…): an `@id`
 * of `"__proto__"` pollutes Object.prototype and breaks every later canonicalization in the
 * process (found by the property tests). No credential needs such a name, so documents that use
 * one as a key or as an identifier or type are refused before jsonld.js sees them.
 */
const prototypeKeyIn = (value: unknown, depth = 0): string | undefined => {
  if (depth > 200 || typeof value !== "object" || value === null) return undefined
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = prototypeKeyIn(item, depth + 1)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const [key, child] of Object.entries(value)) {
    if (PROTOTYPE_KEYS.has(key)) return key
    if (ID_KEYS.has(key)) {
      for (const id of Array.isArray(child) ? child : [child]) {
        if (typeof id === "string" && PROTOTYPE_KEYS.has(id)) return id
      }
    }
    const found = prototypeKeyIn(child, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Canonicalizes with jsonld.js 9 (RDFC-1.0, the reference implementation) and the bundled,
 * offline contexts.
 *
 * @since 0.1.0
 * @category constructors
 */
export const jsonldCanonicalize = (document: object): Effect.Effect<string, CanonicalizationError> =>
  Effect.suspend(() => {
    const refused = prototypeKeyIn(document)
    return refused === undefined ? Effect.void : Effect.fail(
      new CanonicalizationError({
        message: `Refused: "${refused}" as a JSON-LD key or identifier (jsonld.js would write it onto Object.prototype)`,
        undefinedTerms: []
      })
    )
  }).pipe(Effect.zipRight(Effect.tryPromise({
    try: () =>
      jsonld.canonize(withFallbackVocab(document as Record<string, unknown>), {
        algorithm: "RDFC-1.0",
        format: "application/n-quads",
        // Safe mode would reject the fallback terms before we can name them; the check below
        // is the stricter of the two for undefined terms.
        safe: false,
        documentLoader: Contexts.documentLoader
      }),
    catch: (cause) =>
      new CanonicalizationError({
        message: `JSON-LD canonicalization failed: ${cause instanceof Error ? cause.message : String(cause)}`,
        undefinedTerms: []
      })
  }).pipe(Effect.flatMap(refuseUndefinedTerms))))

const refuseUndefinedTerms = (nquads: string): Effect.Effect<string, CanonicalizationError> => {
  if (!nquads.includes("<http://fallback.org/")) return Effect.succeed(nquads)
  const terms = undefinedTermsIn(nquads)
  return terms.length === 0 ? Effect.succeed(nquads) : Effect.fail(
    new CanonicalizationError({
      message: `Undefined JSON-LD terms (no context defines them): ${terms.join(", ")}`,
      undefinedTerms: terms
    })
  )
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerJsonld: Layer.Layer<Canonicalizer> = Layer.succeed(Canonicalizer, { canonicalize: jsonldCanonicalize })

/**
 * Canonicalizes Sigil's own documents on the fast path (`FastCanonicalizer`: the same N-Quads
 * without JSON-LD expansion) and everything else — third-party credentials, documents of
 * another shape — with jsonld.js, as `jsonldCanonicalize` does. The result, errors included,
 * is the same as `jsonldCanonicalize`'s for every document.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fastCanonicalize = (document: object): Effect.Effect<string, CanonicalizationError> =>
  Effect.suspend(() => {
    const nquads = FastCanonicalizer.canonicalize(document)
    // The same undefined-term check as jsonld.js's path: a literal may read "<http://fallback.org/…>".
    return nquads === undefined ? jsonldCanonicalize(document) : refuseUndefinedTerms(nquads)
  })

/**
 * The fast path with jsonld.js as the fallback: what the server uses.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerFast: Layer.Layer<Canonicalizer> = Layer.succeed(Canonicalizer, { canonicalize: fastCanonicalize })

/**
 * SHA-256 of a string's UTF-8 bytes (through the installed `Primitives`).
 *
 * @since 0.1.0
 * @category hashing
 */
export const sha256Bytes = (text: string): Uint8Array => Primitives.sha256Utf8(text)

/**
 * The Blockcerts `targetHash` of canonical N-Quads: lowercase hex SHA-256, no prefix.
 *
 * @since 0.1.0
 * @category hashing
 */
export const hashHex = (nquads: string): string => bytesToHex(sha256Bytes(nquads))
