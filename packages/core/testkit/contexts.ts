/**
 * The JSON-LD contexts Sigil ships, by every URL they are known under, for the offline fetch
 * stubs and document loaders of the third-party verifiers: exactly what `Contexts` serves.
 */
import * as Contexts from "../src/Contexts.js"

/** The parsed context served at `url`, or undefined when Sigil does not ship it. */
export const getContext = (url: string): unknown => {
  const doc = Contexts.get(url)
  // Callers (jsonld, cert-verifier-js) may mutate what they get; hand out a copy.
  return doc === undefined ? undefined : structuredClone(doc)
}

/** Every URL → context, e.g. to seed a fetch stub. */
export const allContexts = (): Record<string, unknown> =>
  Object.fromEntries(Contexts.urls.map((url) => [url, getContext(url)]))
