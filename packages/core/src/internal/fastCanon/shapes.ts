/**
 * The document shapes the fast canonicalizer recognises — exactly what Sigil emits — and
 * their compilation against the bundled contexts into emit plans.
 *
 * A shape says which JSON keys a node may have and what JSON value each holds (text, a
 * boolean, an IRI, a nested node); the contexts say what each key *means* (predicate IRI,
 * datatype, coercion). Nothing here names an IRI: predicates, types and datatypes all come
 * from the context files, processed the way jsonld.js processes them (type-scoped contexts in
 * lexicographic order of the types, reverting to the enclosing context in nested nodes,
 * property-scoped contexts for `@vocab` values). A key whose definition does not fit its
 * shape (another coercion, a container, a scoped context) disables that key: documents using
 * it go to jsonld.js.
 *
 * @since 0.1.0
 * @internal
 */
import * as Contexts from "../../Contexts.js"
import type { ActiveContext, Term } from "./context.js"
import { isTerm, process } from "./context.js"
import * as NQuads from "./nquads.js"

/**
 * What a key's JSON value is.
 *
 * @since 0.1.0
 * @internal
 */
export type ValueShape =
  | { readonly kind: "text" }
  | { readonly kind: "boolean" }
  | { readonly kind: "iri" }
  | { readonly kind: "vocab" }
  | { readonly kind: "node"; readonly shape: string; readonly many: boolean }

/**
 * @since 0.1.0
 * @internal
 */
export interface NodeShape {
  /** A context the `@context` list must include for this node to exist at all. */
  readonly needs?: string
  /** The node's `type` values, as a set (a string or an array of strings in the JSON). */
  readonly types: ReadonlyArray<string>
  readonly id: "required" | "absent"
  readonly required: ReadonlyArray<string>
  readonly optional: ReadonlyArray<string>
  readonly values: Readonly<Record<string, ValueShape>>
}

const text = { kind: "text" } as const
const iri = { kind: "iri" } as const
const one = (shape: string): ValueShape => ({ kind: "node", shape, many: false })
const many = (shape: string): ValueShape => ({ kind: "node", shape, many: true })

/**
 * The nodes of `Document.build` and of the eddsa-rdfc-2022 proof configuration
 * (`EddsaRdfc2022.proofConfig`, and the one the verifier rebuilds from a proof).
 *
 * @since 0.1.0
 * @internal
 */
export const SHAPES: Readonly<Record<string, NodeShape>> = {
  credential: {
    types: ["VerifiableCredential", "OpenBadgeCredential"],
    id: "required",
    required: ["name", "issuer", "validFrom", "credentialSubject"],
    optional: ["validUntil", "evidence", "credentialStatus"],
    values: {
      name: text,
      issuer: one("profile"),
      validFrom: text,
      validUntil: text,
      credentialSubject: one("achievementSubject"),
      evidence: many("evidence"),
      credentialStatus: one("statusEntry")
    }
  },
  profile: {
    types: ["Profile"],
    id: "required",
    required: ["name"],
    optional: ["url", "image"],
    values: { name: text, url: text, image: one("image") }
  },
  image: { types: ["Image"], id: "required", required: [], optional: [], values: {} },
  achievementSubject: {
    types: ["AchievementSubject"],
    id: "required",
    required: ["achievement"],
    optional: ["name", "identifier"],
    values: { name: text, identifier: many("identityObject"), achievement: one("achievement") }
  },
  identityObject: {
    types: ["IdentityObject"],
    id: "absent",
    required: ["identityType", "hashed", "identityHash", "salt"],
    optional: [],
    values: { identityType: text, hashed: { kind: "boolean" }, identityHash: text, salt: text }
  },
  achievement: {
    types: ["Achievement"],
    id: "required",
    required: ["name", "description", "criteria"],
    optional: ["alignment"],
    values: { name: text, description: text, criteria: one("criteria"), alignment: many("alignment") }
  },
  criteria: { types: [], id: "absent", required: ["narrative"], optional: [], values: { narrative: text } },
  alignment: {
    types: ["Alignment"],
    id: "absent",
    required: ["targetFramework", "targetCode", "targetName", "targetUrl"],
    optional: [],
    values: { targetFramework: text, targetCode: text, targetName: text, targetUrl: text }
  },
  evidence: { types: ["Evidence"], id: "required", required: [], optional: ["narrative"], values: { narrative: text } },
  statusEntry: {
    needs: Contexts.STATUS_LIST_2021,
    types: ["StatusList2021Entry"],
    id: "required",
    required: ["statusPurpose", "statusListIndex", "statusListCredential"],
    optional: [],
    values: { statusPurpose: text, statusListIndex: text, statusListCredential: iri }
  },
  proofConfig: {
    types: ["DataIntegrityProof"],
    id: "absent",
    required: ["cryptosuite", "created", "verificationMethod", "proofPurpose"],
    optional: [],
    values: { cryptosuite: text, created: text, verificationMethod: iri, proofPurpose: { kind: "vocab" } }
  }
}

/** The shapes a document may have at its top (with `@context`). */
export const ROOTS: ReadonlyArray<string> = ["credential", "proofConfig"]

/**
 * The `@context` lists Sigil writes (`Document.contextFor`).
 *
 * @since 0.1.0
 * @internal
 */
export const CONTEXT_LISTS: ReadonlyArray<ReadonlyArray<string>> = [
  [Contexts.VC_V2, Contexts.OB_V3],
  [Contexts.VC_V2, Contexts.OB_V3, Contexts.STATUS_LIST_2021]
]

// ---------------------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------------------

/**
 * How to emit one key of a node.
 *
 * @since 0.1.0
 * @internal
 */
export type KeyPlan =
  | { readonly kind: "text"; readonly predicate: string; readonly datatype: string }
  | { readonly kind: "boolean"; readonly predicate: string; readonly datatype: string }
  | { readonly kind: "iri"; readonly predicate: string; readonly terms: ReadonlySet<string> }
  | { readonly kind: "vocab"; readonly predicate: string; readonly values: ReadonlyMap<string, string> }
  | { readonly kind: "node"; readonly predicate: string; readonly many: boolean; readonly node: () => NodePlan | undefined }

/**
 * How to recognise and emit one node.
 *
 * @since 0.1.0
 * @internal
 */
export interface NodePlan {
  readonly shape: string
  /** The serialized type IRIs, by the `type` value written in the JSON. */
  readonly types: ReadonlyMap<string, string>
  readonly id: "required" | "absent"
  readonly keys: ReadonlyMap<string, KeyPlan>
  /** Keys that must be present (besides `id`/`type`, and `@context` at the top). */
  readonly required: ReadonlySet<string>
  /** Every term of the node's active context: an `@id` whose scheme is one of them is left to jsonld.js. */
  readonly terms: ReadonlySet<string>
}

/**
 * The plans of one `@context` list, or why none could be made.
 *
 * @since 0.1.0
 * @internal
 */
export interface Compiled {
  readonly context: ReadonlyArray<string>
  readonly roots: ReadonlyMap<string, NodePlan>
  /** Why a shape or a key is not on the fast path (empty when everything compiled). */
  readonly problems: ReadonlyArray<string>
}

const TYPE_KEY = "type"
const ID_KEY = "id"

/**
 * Compiles every shape against one `@context` list.
 *
 * @since 0.1.0
 * @internal
 */
export const compile = (contextList: ReadonlyArray<string>): Compiled => {
  const problems: Array<string> = []
  const base = process(new Map(), contextList, { overrideProtected: false })
  if (typeof base === "string") return { context: contextList, roots: new Map(), problems: [base] }
  const plans = new Map<string, NodePlan | undefined>()

  const planFor = (name: string): NodePlan | undefined => {
    if (plans.has(name)) return plans.get(name)
    plans.set(name, undefined) // a cycle finds nothing
    const plan = compileNode(name, base)
    plans.set(name, plan)
    return plan
  }

  const compileNode = (name: string, outer: ActiveContext): NodePlan | undefined => {
    const shape = SHAPES[name]!
    // Not one of this list's nodes (a status entry without the status list context).
    if (shape.needs !== undefined && !contextList.includes(shape.needs)) return undefined
    const fail = (problem: string): undefined => {
      problems.push(`${name}: ${problem}`)
      return undefined
    }
    // `type` is found, and its values expanded, in the enclosing context.
    if (shape.types.length > 0 && !isAlias(outer.get(TYPE_KEY), "@type")) return fail("`type` is not @type")
    const types = new Map<string, string>()
    for (const type of shape.types) {
      const def = outer.get(type)
      if (!isTerm(def) || !isAbsolute(def.iri)) return fail(`the type ${type} is not a term with an absolute IRI`)
      types.set(type, NQuads.iri(def.iri))
    }
    // Then the type-scoped contexts, in lexicographic order of the types.
    let active: ActiveContext = outer
    for (const type of [...shape.types].sort()) {
      const scoped = (outer.get(type) as Term).context
      if (scoped === undefined) continue
      const next = process(active, scoped, { overrideProtected: false })
      if (typeof next === "string") return fail(`the scoped context of ${type}: ${next}`)
      active = next
    }
    if (shape.id === "required" && !isAlias(active.get(ID_KEY), "@id")) return fail("`id` is not @id")
    if (shape.types.length > 0 && !isAlias(active.get(TYPE_KEY), "@type")) return fail("`type` is not @type")
    const terms = new Set(active.keys())
    const keys = new Map<string, KeyPlan>()
    for (const [key, value] of Object.entries(shape.values)) {
      const def = active.get(key)
      const problem = (why: string) => {
        problems.push(`${name}.${key}: ${why}`)
      }
      if (!isTerm(def)) {
        problem(def === undefined ? "not defined" : def === null ? "mapped to null" : def.unsupported)
        continue
      }
      if (!isAbsolute(def.iri)) {
        problem(`maps to ${def.iri}`)
        continue
      }
      if (def.container !== undefined && !(def.container.length === 1 && def.container[0] === "@set")) {
        problem(`has @container ${def.container.join(",")}`)
        continue
      }
      if (def.context !== undefined && value.kind !== "vocab") {
        problem("has a property-scoped context")
        continue
      }
      const predicate = NQuads.iri(def.iri)
      switch (value.kind) {
        case "text":
        case "boolean": {
          // jsonld.js rewrites xsd:double values into their canonical form: not a copy.
          if (def.type !== undefined && (!isAbsolute(def.type) || def.type === NQuads.XSD_DOUBLE)) {
            problem(`is coerced to ${def.type}`)
            continue
          }
          const datatype = def.type ?? (value.kind === "boolean" ? NQuads.XSD_BOOLEAN : undefined)
          keys.set(key, { kind: value.kind, predicate, datatype: NQuads.datatypeSuffix(datatype) })
          break
        }
        case "iri": {
          if (def.type !== "@id") {
            problem("is not coerced to @id")
            continue
          }
          keys.set(key, { kind: "iri", predicate, terms })
          break
        }
        case "vocab": {
          if (def.type !== "@vocab") {
            problem("is not coerced to @vocab")
            continue
          }
          // The value is a term of the property-scoped context (else jsonld.js would map it
          // through @vocab: not ours).
          const scoped = def.context === undefined ? active : process(active, def.context, { overrideProtected: true })
          if (typeof scoped === "string") {
            problem(`its scoped context: ${scoped}`)
            continue
          }
          const values = new Map<string, string>()
          for (const [term, d] of scoped) {
            if (isTerm(d) && isAbsolute(d.iri)) values.set(term, NQuads.iri(d.iri))
          }
          keys.set(key, { kind: "vocab", predicate, values })
          break
        }
        case "node": {
          if (def.type !== undefined && def.type !== "@id") {
            problem(`is coerced to ${def.type}`)
            continue
          }
          // A nested node reverts to the context outside the type-scoped ones: `base`.
          const child = value.shape
          keys.set(key, { kind: "node", predicate, many: value.many, node: () => planFor(child) })
          break
        }
      }
    }
    return { shape: name, types, id: shape.id, keys, required: new Set(shape.required), terms }
  }

  const roots = new Map<string, NodePlan>()
  for (const root of ROOTS) {
    const plan = planFor(root)
    if (plan !== undefined) roots.set(root, plan)
  }
  // Compile every reachable shape now, so that problems are known at load.
  for (const name of Object.keys(SHAPES)) planFor(name)
  return { context: contextList, roots, problems }
}

const isAlias = (def: Term | { readonly unsupported: string } | null | undefined, keyword: string): boolean =>
  isTerm(def) && def.iri === keyword

const isAbsolute = (value: string): boolean => !value.startsWith("@") && !value.startsWith("_:") && value.includes(":")
