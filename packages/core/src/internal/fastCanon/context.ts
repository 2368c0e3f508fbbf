/**
 * A JSON-LD 1.1 context processor for the small part of the language that Sigil's bundled
 * contexts use: term definitions with `@id`, `@type`, `@container`, `@protected` and scoped
 * `@context`s, context-wide `@protected` and `@version`. It turns the bundled context files
 * into term → IRI / datatype tables once, at module load, for the fast canonicalizer.
 *
 * It refuses (marks as unsupported) rather than guesses: any other keyword, a compact IRI
 * whose prefix is a term, a term without `@id`, a protected term redefined differently
 * (an error in jsonld.js). A document that needs an unsupported term is left to jsonld.js,
 * so a change in a context can make Sigil slower, never wrong.
 *
 * @since 0.1.0
 * @internal
 */
import * as Contexts from "../../Contexts.js"

/**
 * A term definition, as far as the fast path needs it.
 *
 * @since 0.1.0
 * @internal
 */
export interface Term {
  /** An absolute IRI or a keyword (`@id`, `@type` aliases). */
  readonly iri: string
  /** `@id`, `@vocab`, `@json`, `@none` or a datatype IRI. */
  readonly type: string | undefined
  readonly container: ReadonlyArray<string> | undefined
  /** The term's scoped context, as written. */
  readonly context: unknown
  readonly prefix: boolean
  readonly protected: boolean
}

/**
 * A term that is defined but cannot be used on the fast path, and why.
 *
 * @since 0.1.0
 * @internal
 */
export interface Unsupported {
  readonly unsupported: string
}

/**
 * term → definition; `null` is a term explicitly mapped to nothing.
 *
 * @since 0.1.0
 * @internal
 */
export type ActiveContext = ReadonlyMap<string, Term | Unsupported | null>

/**
 * @since 0.1.0
 * @internal
 */
export const isTerm = (def: Term | Unsupported | null | undefined): def is Term =>
  def !== null && def !== undefined && !("unsupported" in def)

/**
 * The absolute-IRI test of jsonld.js (`url.isAbsolute`), character for character.
 *
 * @since 0.1.0
 * @internal
 */
export const ABSOLUTE_IRI = /^([A-Za-z][A-Za-z0-9+-.]*|_):[^\s]*$/

const CONTEXT_KEYWORDS = new Set(["@protected", "@version"])
const TERM_KEYS = new Set(["@id", "@type", "@container", "@context", "@protected"])
const GEN_DELIM_END = /[:/?#[\]@]$/

class ContextError {
  constructor(readonly message: string) {}
}

const sameDefinition = (a: Term, b: Term): boolean =>
  a.iri === b.iri && a.type === b.type && a.prefix === b.prefix &&
  JSON.stringify(a.container) === JSON.stringify(b.container) &&
  JSON.stringify(a.context) === JSON.stringify(b.context)

/**
 * Processes a local context (a URL of a bundled context, an object, or an array of them)
 * on top of an active context. A context-wide construct it does not model makes the whole
 * result unusable: the `string` returned says why.
 *
 * @since 0.1.0
 * @internal
 */
export const process = (
  active: ActiveContext,
  local: unknown,
  options: { readonly overrideProtected: boolean }
): ActiveContext | string => {
  try {
    return processAny(new Map(active), local, options, 0)
  } catch (e) {
    if (e instanceof ContextError) return e.message
    throw e
  }
}

const processAny = (
  result: Map<string, Term | Unsupported | null>,
  local: unknown,
  options: { readonly overrideProtected: boolean },
  depth: number
): Map<string, Term | Unsupported | null> => {
  if (depth > 8) throw new ContextError("contexts nest too deep")
  if (Array.isArray(local)) {
    for (const item of local) processAny(result, item, options, depth + 1)
    return result
  }
  if (typeof local === "string") {
    const document = Contexts.get(local) as { readonly "@context"?: unknown } | undefined
    if (document === undefined || typeof document !== "object" || document === null) {
      throw new ContextError(`the context ${local} is not bundled`)
    }
    return processAny(result, document["@context"], options, depth + 1)
  }
  if (typeof local !== "object" || local === null) throw new ContextError("a null or non-object context")
  const definitions = local as Record<string, unknown>
  for (const key of Object.keys(definitions)) {
    if (key.startsWith("@") && !CONTEXT_KEYWORDS.has(key)) throw new ContextError(`the context keyword ${key}`)
  }
  if (definitions["@version"] !== undefined && definitions["@version"] !== 1.1) {
    throw new ContextError("an @version other than 1.1")
  }
  const contextProtected = definitions["@protected"] === true
  const defined = new Map<string, boolean>()

  const expandIri = (value: string): string => {
    if (value.startsWith("@")) {
      if (value === "@id" || value === "@type") return value
      throw new ContextError(`the keyword ${value} as an IRI`)
    }
    if (Object.hasOwn(definitions, value) && !value.startsWith("@")) define(value)
    const mapped = result.get(value)
    if (mapped !== undefined) {
      if (!isTerm(mapped)) throw new ContextError(`the term ${value} is used as an IRI but is not usable`)
      return mapped.iri
    }
    const colon = value.indexOf(":")
    if (colon > 0) {
      const prefix = value.slice(0, colon)
      if (prefix === "_") throw new ContextError(`the blank node ${value} as an IRI`)
      if (value.slice(colon + 1).startsWith("//")) return value
      // A compact IRI whose prefix is a term: jsonld.js may or may not expand it (prefix
      // flags); not worth modelling.
      if (Object.hasOwn(definitions, prefix) || result.has(prefix)) {
        throw new ContextError(`the compact IRI ${value}`)
      }
      if (ABSOLUTE_IRI.test(value)) return value
    }
    throw new ContextError(`the relative IRI ${value} (it needs @vocab or @base)`)
  }

  const define = (term: string): void => {
    const state = defined.get(term)
    if (state === true) return
    if (state === false) throw new ContextError(`a cyclic definition of ${term}`)
    defined.set(term, false)
    const previous = result.get(term)
    let definition: Term | Unsupported | null
    try {
      definition = makeDefinition(term, definitions[term])
    } catch (e) {
      if (!(e instanceof ContextError)) throw e
      definition = { unsupported: `${term}: ${e.message}` }
    }
    if (isTerm(previous) && previous.protected && !options.overrideProtected) {
      // jsonld.js raises "protected term redefinition" unless the definitions are the same.
      if (!isTerm(definition) || !sameDefinition(previous, definition)) {
        definition = { unsupported: `${term}: a protected term redefined` }
      }
    }
    result.set(term, definition)
    defined.set(term, true)
  }

  const makeDefinition = (term: string, value: unknown): Term | null => {
    if (term.includes(":") || term.includes("/")) throw new ContextError("a term that looks like an IRI")
    if (value === null) return null
    if (typeof value === "string") {
      const iri = expandIri(value)
      return {
        iri,
        type: undefined,
        container: undefined,
        context: undefined,
        prefix: !iri.startsWith("@") && GEN_DELIM_END.test(iri),
        protected: contextProtected
      }
    }
    if (typeof value !== "object" || Array.isArray(value)) throw new ContextError("a definition that is neither a string nor an object")
    const entries = value as Record<string, unknown>
    for (const key of Object.keys(entries)) {
      if (!TERM_KEYS.has(key)) throw new ContextError(`the definition keyword ${key}`)
    }
    const id = entries["@id"]
    if (typeof id !== "string") throw new ContextError("a definition without @id")
    const type = entries["@type"]
    if (type !== undefined && typeof type !== "string") throw new ContextError("a non-string @type")
    const container = entries["@container"]
    if (container !== undefined && typeof container !== "string" && !Array.isArray(container)) {
      throw new ContextError("an @container that is neither a string nor an array")
    }
    const isProtected = entries["@protected"]
    if (isProtected !== undefined && typeof isProtected !== "boolean") throw new ContextError("a non-boolean @protected")
    return {
      iri: expandIri(id),
      type: type === undefined
        ? undefined
        : type === "@id" || type === "@vocab" || type === "@json" || type === "@none"
        ? type
        : expandIri(type),
      container: container === undefined ? undefined : (Array.isArray(container) ? container : [container]) as ReadonlyArray<string>,
      context: entries["@context"],
      prefix: false,
      protected: isProtected ?? contextProtected
    }
  }

  for (const term of Object.keys(definitions)) {
    if (!term.startsWith("@")) define(term)
  }
  return result
}
