/**
 * The one domain error a request body that fails its schema produces, `InvalidInput`, whose
 * `code` is the contract's, and the decoder every input module uses (a failure is reported as
 * the first in document order, with the field's path: `credentials[3].recipient.name`).
 *
 * @since 0.1.0
 */
import { Effect, ParseResult, Schema } from "effect"
import * as Issues from "../internal/inputIssues.js"

/**
 * The contract's codes for a body that fails validation (all HTTP 400).
 *
 * @since 0.1.0
 * @category errors
 */
export const InputErrorCode = Issues.InputErrorCode
/**
 * @since 0.1.0
 * @category errors
 */
export type InputErrorCode = Issues.InputErrorCode

/**
 * A request body failed validation. `field` is the path of the offending member
 * (`credentials[3].recipient.name`, `""` for the body itself); `message` names it.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  code: InputErrorCode,
  field: Schema.String,
  message: Schema.String
}) {}

/**
 * The `InvalidInput` of any decode failure: the first failure in document order. The HTTP layer
 * uses it for the failures of its own decoding, so both report alike.
 *
 * @since 0.1.0
 * @category errors
 */
export const fromParseError = (error: ParseResult.ParseError): InvalidInput =>
  new InvalidInput(Issues.firstFailure(error.issue))

/**
 * Annotation key: the error code of a schema's own failure (default `invalid_field_format`),
 * for schemas outside this module that `fromParseError` should report with another code.
 *
 * @since 0.1.0
 * @category annotations
 */
export const ErrorCodeId: typeof Issues.ErrorCodeId = Issues.ErrorCodeId

/**
 * Annotation key: words for a valid value ("an ISO 8601 UTC date-time…"), which end the message
 * of a failure at that field.
 *
 * @since 0.1.0
 * @category annotations
 */
export const ExpectedId: typeof Issues.ExpectedId = Issues.ExpectedId



/**
 * A decoder from any `unknown` (a parsed JSON body) to `A` or `InvalidInput`; never a defect.
 * Unknown members are dropped; every failure is collected so the first in document order wins.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeUnknown = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(schema, { errors: "all", onExcessProperty: "ignore" })
  return (u: unknown): Effect.Effect<A, InvalidInput> => Effect.mapError(decode(u), fromParseError)
}
