/**
 * Building blocks of the request-body schemas in `Inputs`: checked strings, guards that run
 * before a schema, plain-object checks.
 *
 * @internal
 */
import { ParseResult, Schema, SchemaAST as AST } from "effect"
import * as Formats from "./inputFormats.js"
import type { InputErrorCode } from "./inputIssues.js"
import { ErrorCodeId, ExpectedId } from "./inputIssues.js"

/**
 * Annotations attaching an error code and/or the words for what is expected.
 *
 * @internal
 */
export const rule = (options: { readonly code?: InputErrorCode; readonly expected?: string }) => {
  const out: Record<symbol, string> = {}
  if (options.code !== undefined) out[ErrorCodeId] = options.code
  if (options.expected !== undefined) out[ExpectedId] = options.expected
  return out
}

const withCount = (n: number): string => n.toLocaleString("en-US")

/**
 * A string that is not blank after trimming and has at most `max` code points (no bound
 * when `max` is undefined: the caller bounds it some other way). The value is kept as
 * received, not trimmed.
 *
 * @internal
 */
export const text = (max?: number) => {
  const expected = max === undefined ? "a non-empty string" : `a non-empty string of at most ${withCount(max)} characters`
  const nonBlank = Schema.String.pipe(
    Schema.filter((s) => s.trim().length > 0 || "must not be empty", { jsonSchema: { minLength: 1 } }),
    Schema.filter((s) => Formats.wellFormed(s) || "must be well-formed Unicode text (it has a lone surrogate)"),
    Schema.filter((s) =>
      !Formats.hasControlCharacters(s) || "must not contain control characters (U+0000–U+001F but tab, line feed and carriage return; U+007F–U+009F)"
    )
  )
  const bounded = max === undefined ? nonBlank : nonBlank.pipe(
    Schema.filter((s) => Formats.codePointsAtMost(s, max) || `must be at most ${withCount(max)} characters long`, {
      jsonSchema: { maxLength: max }
    })
  )
  return bounded.annotations(rule({ expected }))
}

/**
 * An absolute URI with a scheme (`https://…`, `urn:uuid:…`).
 *
 * @internal
 */
export const uri = Schema.String.pipe(
  Schema.filter(Formats.isAbsoluteUri, {
    jsonSchema: { format: "uri", maxLength: Formats.MAX_URI_LENGTH }
  })
).annotations(rule({
  expected: `an absolute URI with a scheme, such as https://example.org/x or urn:uuid:…, at most ${
    withCount(Formats.MAX_URI_LENGTH)
  } characters`
}))

/**
 * An absolute `http(s)` URL.
 *
 * @internal
 */
export const httpUrl = Schema.String.pipe(
  Schema.filter(Formats.isHttpUrl, {
    jsonSchema: { format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://", maxLength: Formats.MAX_URI_LENGTH }
  })
).annotations(rule({
  expected: `an absolute http or https URL, at most ${withCount(Formats.MAX_URI_LENGTH)} characters`
}))

/**
 * The instants a date-time field accepts: from `from` (inclusive) to `before` (exclusive), both
 * `YYYY-MM-DDTHH:MM:SS` in UTC.
 *
 * @internal
 */
export interface DateRange {
  readonly from: string
  readonly before: string
}

const DEFAULT_DATE_EXPECTED = "an ISO 8601 UTC date-time such as 2025-06-30T12:00:00Z (fraction of up to 9 digits allowed; Z or +00:00)"

/**
 * An ISO 8601 UTC date-time, decoded to its normalized form (`Z` for `+00:00`); within `range`
 * when one is given (a sort key `YYYY-MM-DDTHH:MM:SS.fffffffff` compares with the bounds as a
 * string).
 *
 * @internal
 */
export const utcDateTimeIn = (range?: DateRange, expected = DEFAULT_DATE_EXPECTED) =>
  Schema.transform(
    Schema.String.pipe(
      Schema.filter((s) => {
        const parsed = Formats.parseUtcDateTime(s)
        if ("reason" in parsed) return parsed.reason
        if (range !== undefined && (parsed.sortKey < range.from || parsed.sortKey >= range.before)) {
          return `must be from ${range.from}Z and before ${range.before}Z`
        }
        return true
      }, { jsonSchema: { format: "date-time" } })
    ),
    Schema.String,
    {
      strict: true,
      decode: (s) => {
        const parsed = Formats.parseUtcDateTime(s)
        return "normalized" in parsed ? parsed.normalized : s
      },
      encode: (s) => s
    }
  ).annotations(rule({ expected }))

/**
 * An ISO 8601 UTC date-time of any year the format allows (0000–9999).
 *
 * @internal
 */
export const utcDateTime = utcDateTimeIn()

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Runs `guard` on the received value before `schema` sees it, for checks that must come first
 * (a 10,000-item batch is refused before any item is looked at; an oversized achievement
 * before its fields). The result keeps `schema`'s Type and Encoded types: the guard only
 * refines `unknown`. JSON Schema and OpenAPI describe `doc` (default `schema`) through the
 * surrogate annotation, the one Effect's own classes use; the guard alone would document as
 * "anything".
 *
 * @internal
 */
export const precheck = <G, A, I>(
  guard: Schema.Schema<G, unknown>,
  schema: Schema.Schema<A, I>,
  doc: Schema.Schema.Any = schema
): Schema.Schema<A, I> =>
  Schema.compose(guard, schema, { strict: false }).annotations({
    [AST.SurrogateAnnotationId]: doc.ast
  }) as unknown as Schema.Schema<A, I>

const objectGuard = Schema.Unknown.pipe(Schema.filter(isRecord)).annotations(rule({ expected: "an object" }))

/**
 * A struct that accepts only a JSON object: without this, Effect's struct would take an array
 * and report its fields as missing (or, with only optional fields, accept it).
 *
 * @internal
 */
export const object = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, I> => precheck(objectGuard, schema)

/**
 * A guard on the UTF-8 size of `JSON.stringify` of the value as received (the achievement's
 * 64 KB rule). Only the size failure carries `code`: the failure is reported on an AST that
 * holds the code, so that a value with no JSON form (impossible in a parsed body) stays
 * `invalid_field_format`.
 *
 * @internal
 */
export const maxJsonBytes = (limit: number, code: InputErrorCode) => {
  const tooLarge = Schema.Unknown.annotations(rule({ code })).ast
  return Schema.Unknown.pipe(
    Schema.filter((u) => {
      const size = Formats.jsonUtf8Length(u, limit)
      if (size === undefined) return "is not a JSON value"
      return size <= limit || new ParseResult.Type(tooLarge, u, `serialized size exceeds ${withCount(limit)} bytes`)
    })
  )
}

/** @internal "one of a, b, c", for an enumeration's expected values. */
export const oneOf = (values: ReadonlyArray<string>) => `one of ${values.join(", ")}`

/** @internal An optional member that, when present, is never `undefined`. */
export const optional = <A, I>(schema: Schema.Schema<A, I>) => Schema.optionalWith(schema, { exact: true })
