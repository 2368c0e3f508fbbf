/**
 * From a `ParseIssue` tree to the one error the API reports: the first failure in document
 * order, its field path (`credentials[3].recipient.name`), its contract code and a message
 * naming the field and the expected format.
 *
 * @internal
 */
import type { ParseResult } from "effect"
import { Schema, SchemaAST as AST } from "effect"

/**
 * The error codes of a request body that fails validation (issuer-api.md, Errors, 400).
 *
 * @internal
 */
export const InputErrorCode = Schema.Literal(
  "missing_required_field",
  "invalid_field_format",
  "recipient_id_invalid",
  "achievement_too_large",
  "batch_too_large",
  "alignment_framework_unknown"
)
/** @internal */
export type InputErrorCode = typeof InputErrorCode.Type

/**
 * Annotation: the error code of a schema's own failure (default `invalid_field_format`).
 *
 * @internal
 */
export const ErrorCodeId: unique symbol = Symbol.for("@sigil/service/Inputs/ErrorCode")

/**
 * Annotation: what a valid value looks like, in words ("an ISO 8601 UTC date-time…"); it ends
 * the message of a failure at that field. Not `description`: that one is for OpenAPI readers
 * and says what the field means.
 *
 * @internal
 */
export const ExpectedId: unique symbol = Symbol.for("@sigil/service/Inputs/Expected")

/** @internal */
export interface Failure {
  readonly code: InputErrorCode
  readonly field: string
  readonly message: string
}

type Leaf = ParseResult.Type | ParseResult.Missing | ParseResult.Unexpected | ParseResult.Forbidden | ParseResult.Composite

interface Located {
  readonly path: ReadonlyArray<PropertyKey>
  readonly leaf: Leaf
  /** The nodes between the last `Pointer` and the leaf, outermost first: same field, same value. */
  readonly chain: ReadonlyArray<ParseResult.Refinement | ParseResult.Transformation | ParseResult.Composite>
}

const toArray = <A>(a: A | ReadonlyArray<A>): ReadonlyArray<A> => (Array.isArray(a) ? a : [a as A])

/**
 * Where an issue sits among its siblings: array items by index; object members in the order
 * their keys appear in the received object; members that are missing after every present
 * one, since a reader of the JSON text only notices them at the closing brace. Anything
 * else keeps the schema's order (the caller breaks ties by position).
 */
const ranker = (actual: unknown) => {
  let keys: Map<string, number> | undefined
  return (issue: ParseResult.ParseIssue): number => {
    if (issue._tag !== "Pointer") return 0
    const key = toArray(issue.path)[0]
    if (typeof key === "number") return key
    if (typeof key !== "string" || typeof actual !== "object" || actual === null) return 0
    keys ??= new Map(Object.keys(actual).map((k, i) => [k, i]))
    return keys.get(key) ?? keys.size
  }
}

const locate = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  chain: Located["chain"]
): Located => {
  switch (issue._tag) {
    case "Pointer":
      // A new field: annotations of the enclosing value say nothing about this one.
      return locate(issue.issue, [...path, ...toArray(issue.path)], [])
    case "Refinement":
    case "Transformation":
      return locate(issue.issue, path, [...chain, issue])
    case "Composite": {
      // A union failed as a whole (a literal set, "date-time or null"): report it at its own
      // level, with its own annotations, rather than the complaint of one arbitrary member.
      if (AST.isUnion(issue.ast)) return { path, leaf: issue, chain }
      const issues = toArray(issue.issues)
      const rank = ranker(issue.actual)
      let best = issues[0]!
      let bestRank = rank(best)
      for (let i = 1; i < issues.length; i++) {
        const r = rank(issues[i]!)
        if (r < bestRank) {
          best = issues[i]!
          bestRank = r
        }
      }
      return locate(best, path, [...chain, issue])
    }
    default:
      return { path, leaf: issue, chain }
  }
}

const annotation = <A>(ast: AST.Annotated | undefined, id: symbol, guard: (u: unknown) => u is A): A | undefined => {
  const value = ast?.annotations[id]
  return guard(value) ? value : undefined
}

const isCode = (u: unknown): u is InputErrorCode => Schema.is(InputErrorCode)(u)
const isString = (u: unknown): u is string => typeof u === "string"

const leafAst = (leaf: Leaf): AST.AST | undefined => (leaf._tag === "Unexpected" || leaf._tag === "Missing" ? undefined : leaf.ast)

/**
 * The code of a located failure. Only nodes that failed themselves count: the leaf's schema,
 * or an enclosing refinement whose predicate (not its base type) failed, or a transformation
 * whose own function failed. A refinement that merely wraps the failure (kind `From`) does
 * not lend its code: `batch_too_large` must not label "credentials is not an array".
 */
const codeOf = (located: Located): InputErrorCode => {
  if (located.leaf._tag === "Missing") return "missing_required_field"
  const own = annotation(leafAst(located.leaf), ErrorCodeId, isCode)
  if (own !== undefined) return own
  for (let i = located.chain.length - 1; i >= 0; i--) {
    const node = located.chain[i]!
    const failedItself = (node._tag === "Refinement" && node.kind === "Predicate") ||
      (node._tag === "Transformation" && node.kind === "Transformation")
    if (failedItself) {
      const code = annotation(node.ast, ErrorCodeId, isCode)
      if (code !== undefined) return code
    }
  }
  return "invalid_field_format"
}

/** Words for what was expected: the nearest annotation on the same field, else the AST's own. */
const expectedOf = (located: Located): string | undefined => {
  const leaf = leafAst(located.leaf)
  const own = annotation(leaf, ExpectedId, isString)
  if (own !== undefined) return own
  for (let i = located.chain.length - 1; i >= 0; i--) {
    const found = annotation(located.chain[i]!.ast, ExpectedId, isString)
    if (found !== undefined) return found
  }
  if (leaf === undefined) return undefined
  switch (leaf._tag) {
    case "StringKeyword":
      return "a string"
    case "TypeLiteral":
      return "an object"
    case "TupleType":
      return "an array"
    case "Literal":
    case "Union":
      return String(leaf)
    default:
      return undefined
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/**
 * `credentials[3].recipient.name`; the empty string for the body itself.
 *
 * @internal
 */
export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`
    const name = String(key)
    if (IDENTIFIER.test(name)) return out === "" ? name : `${out}.${name}`
    return `${out}[${JSON.stringify(name)}]`
  }, "")

/**
 * The first failure of an issue tree in document order. Messages never quote the received
 * value: it may be personal data (a name, an e-mail) or megabytes long.
 *
 * @internal
 */
export const firstFailure = (issue: ParseResult.ParseIssue): Failure => {
  const located = locate(issue, [], [])
  const field = formatPath(located.path)
  const code = codeOf(located)
  if (code === "missing_required_field") {
    return { code, field, message: `Missing required field ${field}` }
  }
  const label = field === "" ? "request body" : field
  const leaf = located.leaf
  const detail = leaf._tag === "Composite" ? undefined : leaf.message
  const expected = expectedOf(located)
  const parts = [detail, expected === undefined ? undefined : `expected ${expected}`].filter(isString)
  const message = parts.length === 0 ? `Invalid ${label}` : `Invalid ${label}: ${parts.join("; ")}`
  return { code, field, message }
}
