/**
 * Canonical N-Quads (RDFC-1.0 §4.3 serialization, as rdf-canonize 5 writes it) and the
 * RDFC-1.0 labelling of blank nodes for datasets whose blank nodes all have distinct
 * first-degree hashes — the case of tree-shaped documents. When two blank nodes share a
 * first-degree hash the Hash N-Degree Quads algorithm would be needed: `label` says so
 * (`undefined`) and the caller falls back to jsonld.js.
 *
 * @since 0.1.0
 * @internal
 */
import * as Primitives from "../../Primitives.js"

// rdf-canonize `NQuads.js`: `_stringLiteralEscapeRegex` / `_stringLiteralEscapeMap`.
const LITERAL_SPECIAL = /[\u0000-\u001F\u007F"\\]/
const LITERAL_SPECIAL_ALL = /[\u0000-\u001F\u007F"\\]/g
const LITERAL_ESCAPES: Array<string> = []
for (let n = 0; n <= 0x7f; n++) {
  if (LITERAL_SPECIAL.test(String.fromCharCode(n))) LITERAL_ESCAPES[n] = `\\u${n.toString(16).toUpperCase().padStart(4, "0")}`
}
LITERAL_ESCAPES[0x08] = "\\b"
LITERAL_ESCAPES[0x09] = "\\t"
LITERAL_ESCAPES[0x0a] = "\\n"
LITERAL_ESCAPES[0x0c] = "\\f"
LITERAL_ESCAPES[0x0d] = "\\r"
LITERAL_ESCAPES[0x22] = "\\\""
LITERAL_ESCAPES[0x5c] = "\\\\"

/**
 * The text of a literal between its quotes.
 *
 * @since 0.1.0
 * @internal
 */
export const escapeLiteral = (text: string): string =>
  LITERAL_SPECIAL.test(text) ? text.replace(LITERAL_SPECIAL_ALL, (c) => LITERAL_ESCAPES[c.charCodeAt(0)]!) : text

// rdf-canonize `NQuads.js`: `_iriEscapeRegex` / `_iriEscapeRegexMap`.
const IRI_SPECIAL = /[\u0000-\u0020<>"{}|^`\\]/
const IRI_SPECIAL_ALL = /[\u0000-\u0020<>"{}|^`\\]/g
const iriEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`

/**
 * An IRI as an N-Quads term: `<…>`.
 *
 * @since 0.1.0
 * @internal
 */
export const iri = (value: string): string =>
  IRI_SPECIAL.test(value) ? `<${value.replace(IRI_SPECIAL_ALL, iriEscape)}>` : `<${value}>`

/**
 * A literal as an N-Quads term. `datatype` is the serialized suffix: `""` for xsd:string,
 * else `^^<…>`.
 *
 * @since 0.1.0
 * @internal
 */
export const literal = (text: string, datatype: string): string => `"${escapeLiteral(text)}"${datatype}`

/**
 * The serialized datatype suffix of a literal of this datatype IRI (none for xsd:string, as
 * rdf-canonize omits it).
 *
 * @since 0.1.0
 * @internal
 */
export const datatypeSuffix = (datatype: string | undefined): string =>
  datatype === undefined || datatype === XSD_STRING ? "" : `^^${iri(datatype)}`

/** @since 0.1.0 @internal */
export const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
/** @since 0.1.0 @internal */
export const XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
/** @since 0.1.0 @internal */
export const XSD_DOUBLE = "http://www.w3.org/2001/XMLSchema#double"
/** @since 0.1.0 @internal */
export const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

/**
 * A node of a tree-shaped dataset and its outgoing quads. `subject` and objects are
 * serialized N-Quads terms, or a blank node's index (a number) until blank nodes are labelled.
 * `parent`/`link` are the one quad that points at the node (none for the root).
 *
 * @since 0.1.0
 * @internal
 */
export interface TreeNode {
  readonly subject: string | number
  readonly parent: string | number | undefined
  readonly link: string | undefined
  /** predicate, object, predicate, object, … */
  readonly quads: Array<string | number>
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * RDFC-1.0 over a tree-shaped dataset — every blank node the subject of its own quads and
 * the object of at most one quad (its parent's `link`) — with `blankCount` blank nodes
 * (indices `0 … blankCount-1`): the canonical N-Quads, or `undefined` when this shortcut does
 * not apply.
 *
 * Blank node labels (§4.4.3): the Hash First Degree Quads of every blank node (§4.6); those
 * with a unique hash get `c14n0, c14n1, …` in hash order (step 5). Blank nodes that share a
 * hash go through Hash N-Degree Quads (step 6); when none of them touches another blank node
 * (Sigil's criteria, alignments and identity objects hang off named nodes and hold only
 * literals and IRIs) that algorithm has no related blank nodes to explore: every member gets
 * the same hash and members are labelled, group by group in hash order, in any order — equal
 * first-degree hashes with no blank neighbours mean equal neighbourhoods, so the members are
 * interchangeable and every order gives the same N-Quads. A shared hash on a blank node that
 * touches another blank node returns `undefined`.
 *
 * Several nodes with the same (named) subject are merged as jsonld.js's node map merges
 * them: the union of their quads, each once.
 *
 * The output is sorted node by node: a line is `subject predicate object .`, and no term is a
 * proper prefix of another term of the same position unless it continues with a character
 * above the space (`_:c14n1` / `_:c14n10`, `"x"` / `"x"^^<…>`; `>` is escaped inside IRIs),
 * so ordering subjects, then `predicate object` within a subject, orders the lines exactly as
 * sorting the whole lines would.
 *
 * @since 0.1.0
 * @internal
 */
export const canonicalize = (nodes: ReadonlyArray<TreeNode>, blankCount: number): string | undefined => {
  let labels: Array<string> | undefined
  // A single blank node is c14n0 whatever its hash (a proof configuration's one node).
  if (blankCount === 1) labels = ["_:c14n0"]
  else if (blankCount > 1) {
    // Hash First Degree Quads (§4.6) of each blank node: itself `_:a`, any other `_:z`.
    const hashes: Array<string> = new Array(blankCount)
    const isolated: Array<boolean> = new Array(blankCount)
    for (const node of nodes) {
      const b = node.subject
      if (typeof b !== "number") continue
      const lines: Array<string> = []
      const { quads } = node
      let alone = typeof node.parent !== "number"
      for (let i = 0; i < quads.length; i += 2) {
        const o = quads[i + 1]!
        if (typeof o === "number") alone = false
        lines.push(`_:a ${quads[i] as string} ${typeof o === "number" ? (o === b ? "_:a" : "_:z") : o} .\n`)
      }
      if (node.link !== undefined) {
        lines.push(`${typeof node.parent === "number" ? "_:z" : node.parent!} ${node.link} _:a .\n`)
      }
      lines.sort()
      hashes[b] = Primitives.sha256Utf8Hex(lines.join(""))
      isolated[b] = alone
    }
    const order = Array.from({ length: blankCount }, (_, b) => b)
    order.sort((x, y) => compareStrings(hashes[x]!, hashes[y]!))
    labels = new Array(blankCount)
    let next = 0
    const shared: Array<number> = []
    for (let i = 0; i < blankCount; i++) {
      const b = order[i]!
      const h = hashes[b]!
      if ((i > 0 && hashes[order[i - 1]!] === h) || (i + 1 < blankCount && hashes[order[i + 1]!] === h)) {
        if (!isolated[b]) return undefined
        shared.push(b)
      } else {
        labels[b] = `_:c14n${next++}`
      }
    }
    // `shared` is in hash order, each group together.
    for (const b of shared) labels[b] = `_:c14n${next++}`
  }
  const term = (t: string | number): string => (typeof t === "number" ? labels![t]! : t)
  const blocks = new Map<string, Array<string>>()
  for (const node of nodes) {
    const subject = term(node.subject)
    let lines = blocks.get(subject)
    if (lines === undefined) {
      lines = []
      blocks.set(subject, lines)
    }
    const { quads } = node
    for (let i = 0; i < quads.length; i += 2) lines.push(`${quads[i] as string} ${term(quads[i + 1]!)}`)
  }
  const subjects = [...blocks.keys()].sort(compareStrings)
  const out: Array<string> = []
  for (const subject of subjects) {
    const lines = blocks.get(subject)!
    lines.sort()
    for (let i = 0; i < lines.length; i++) {
      if (i > 0 && lines[i] === lines[i - 1]) continue
      out.push(subject, " ", lines[i]!, " .\n")
    }
  }
  // One flat string (the hash reads it right away).
  return out.join("")
}
