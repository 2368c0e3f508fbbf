/**
 * RDFC-1.0 canonical N-Quads of Sigil's own documents without JSON-LD expansion: the
 * credentials `Document.build` makes and the eddsa-rdfc-2022 proof configurations, over the
 * `@context` lists Sigil writes. It is byte for byte what jsonld.js 9 gives (property tests
 * hold it to that over thousands of random documents per run) at a few percent of the cost.
 *
 * How: the bundled contexts are compiled once into term → IRI / datatype tables per node
 * shape (`internal/fastCanon/shapes.ts`, derived from the context files, never typed in);
 * the document is walked once, each key checked against its node's shape and turned into
 * quads; Sigil's documents are trees, so each blank node's RDFC-1.0 first-degree hash is
 * unique and the canonical labels follow from sorting those hashes.
 *
 * It answers `undefined` — "not mine, ask jsonld.js" — for anything else: another
 * `@context`, an unexpected key, type or value, an `@id` that jsonld.js might treat
 * differently (relative, blank node, a scheme that is also a term), blank nodes sharing a
 * first-degree hash while touching other blank nodes (never in Sigil's shapes).
 * `Canonicalizer.layerFast` puts it in front of jsonld.js.
 *
 * @since 0.1.0
 */
import { ABSOLUTE_IRI } from "./internal/fastCanon/context.js"
import * as NQuads from "./internal/fastCanon/nquads.js"
import type { Compiled, NodePlan } from "./internal/fastCanon/shapes.js"
import { compile, CONTEXT_LISTS } from "./internal/fastCanon/shapes.js"

let compiled: ReadonlyArray<Compiled> | undefined

// The tables, compiled on first use (a few milliseconds) and kept.
const tables = (): ReadonlyArray<Compiled> => (compiled ??= CONTEXT_LISTS.map(compile))

/**
 * Why parts of Sigil's document shape are not on the fast path: empty unless a bundled
 * context changed in a way the compiler does not model. A test asserts it stays empty.
 *
 * @since 0.1.0
 * @category diagnostics
 */
export const problems = (): ReadonlyArray<string> =>
  tables().flatMap((c) => c.problems.map((p) => `[${c.context.join(", ")}] ${p}`))

// Thrown inside `canonicalize` only: the document is not one of ours.
class NotOurs {}
const NOT_OURS = new NotOurs()
const notOurs = (): never => {
  throw NOT_OURS
}

const RDF_TYPE = NQuads.iri(NQuads.RDF_TYPE)

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

// An @id (or @id-coerced value) that jsonld.js keeps exactly as written: absolute by its own
// test, not a blank node, and not a compact IRI it could expand through a term.
const plainIri = (value: string, terms: ReadonlySet<string>): boolean => {
  if (!ABSOLUTE_IRI.test(value)) return false
  const colon = value.indexOf(":")
  const scheme = value.slice(0, colon)
  if (scheme === "_") return false
  return value.startsWith("//", colon + 1) || !terms.has(scheme)
}

interface State {
  readonly nodes: Array<NQuads.TreeNode>
  blanks: number
}

const emitNode = (
  node: Record<string, unknown>,
  plan: NodePlan,
  state: State,
  parent: string | number | undefined,
  link: string | undefined
): string | number => {
  let subject: string | number
  if (plan.id === "required") {
    const id = node.id
    if (typeof id !== "string" || !plainIri(id, plan.terms)) return notOurs()
    // The same id twice is one node: `NQuads.canonicalize` merges them as jsonld.js does.
    subject = NQuads.iri(id)
  } else {
    if (Object.hasOwn(node, "id")) return notOurs()
    subject = state.blanks++
  }
  const quads: Array<string | number> = []
  state.nodes.push({ subject, parent, link, quads })

  const type = node.type
  if (plan.types.size === 0) {
    if (Object.hasOwn(node, "type")) return notOurs()
  } else if (typeof type === "string") {
    if (plan.types.size !== 1) return notOurs()
    const iri = plan.types.get(type)
    if (iri === undefined) return notOurs()
    quads.push(RDF_TYPE, iri)
  } else if (Array.isArray(type) && type.length === plan.types.size) {
    for (let i = 0; i < type.length; i++) {
      const value = type[i]
      const iri = typeof value === "string" ? plan.types.get(value) : undefined
      // Each expected type once: the lengths are equal, so no repeats means all of them.
      if (iri === undefined || type.indexOf(value) !== i) return notOurs()
      quads.push(RDF_TYPE, iri)
    }
  } else {
    return notOurs()
  }

  let present = 0
  for (const key of Object.keys(node)) {
    if (key === "id" || key === "type" || (parent === undefined && key === "@context")) continue
    const keyPlan = plan.keys.get(key)
    if (keyPlan === undefined) return notOurs()
    const value = node[key]
    const { predicate } = keyPlan
    switch (keyPlan.kind) {
      case "text":
        if (typeof value !== "string") return notOurs()
        quads.push(predicate, NQuads.literal(value, keyPlan.datatype))
        break
      case "boolean":
        if (typeof value !== "boolean") return notOurs()
        quads.push(predicate, `"${value ? "true" : "false"}"${keyPlan.datatype}`)
        break
      case "iri":
        if (typeof value !== "string" || !plainIri(value, keyPlan.terms)) return notOurs()
        quads.push(predicate, NQuads.iri(value))
        break
      case "vocab": {
        const iri = typeof value === "string" ? keyPlan.values.get(value) : undefined
        if (iri === undefined) return notOurs()
        quads.push(predicate, iri)
        break
      }
      case "node": {
        const child = keyPlan.node()
        if (child === undefined) return notOurs()
        if (keyPlan.many) {
          if (!Array.isArray(value)) return notOurs()
          for (const item of value) {
            if (!isObject(item)) return notOurs()
            quads.push(predicate, emitNode(item, child, state, subject, predicate))
          }
        } else {
          if (!isObject(value)) return notOurs()
          quads.push(predicate, emitNode(value, child, state, subject, predicate))
        }
        break
      }
    }
    if (plan.required.has(key)) present++
  }
  if (present !== plan.required.size) return notOurs()
  return subject
}

const sameList = (context: unknown, list: ReadonlyArray<string>): boolean =>
  Array.isArray(context) && context.length === list.length && list.every((url, i) => context[i] === url)

/**
 * The canonical N-Quads of one of Sigil's documents, or `undefined` when the document is not
 * one (then only jsonld.js can answer). Never throws.
 *
 * @since 0.1.0
 * @category canonicalization
 */
export const canonicalize = (document: unknown): string | undefined => {
  if (!isObject(document)) return undefined
  const context = document["@context"]
  const variant = tables().find((c) => sameList(context, c.context))
  if (variant === undefined) return undefined
  const type = document.type
  const first = typeof type === "string" ? type : Array.isArray(type) ? type[0] : undefined
  if (typeof first !== "string") return undefined
  let root: NodePlan | undefined
  for (const plan of variant.roots.values()) if (plan.types.has(first)) root = plan
  if (root === undefined) return undefined
  const state: State = { nodes: [], blanks: 0 }
  try {
    emitNode(document, root, state, undefined, undefined)
  } catch (e) {
    if (e === NOT_OURS) return undefined
    throw e
  }
  return NQuads.canonicalize(state.nodes, state.blanks)
}
