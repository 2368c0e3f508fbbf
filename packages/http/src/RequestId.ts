/**
 * Request ids: `req_` + ULID, generated once per request, answered in `X-Request-Id` on every
 * response (errors included) and in `error.request_id`.
 *
 * @since 0.1.0
 */
import * as Ids from "@sigil/core/Ids"
import { Context, type Effect } from "effect"

/**
 * The current request's id. A `Context.Reference`, so that anything running inside a request
 * (handlers, error mapping, logging) can read it without declaring it; outside a request it is
 * `req_unknown`.
 *
 * @since 0.1.0
 * @category tags
 */
export class RequestId extends Context.Reference<RequestId>()("@sigil/http/RequestId", {
  defaultValue: (): string => "req_unknown"
}) {}

/**
 * @since 0.1.0
 * @category constants
 */
export const header = "x-request-id"

/**
 * A fresh request id.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<string> = Ids.make("req")
