/**
 * Port: reads revocation status documents for the verifier — status-list credentials
 * (`statusListCredential` URLs) and Blockcerts issuer-profile revocation lists.
 *
 * `layerMemory` serves given documents (tests, offline replays).
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import type { JsonObject } from "./Document.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class StatusListUnavailable extends Schema.TaggedError<StatusListUnavailable>()("StatusListUnavailable", {
  url: Schema.String,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** The JSON document at a status-list or revocation-list URL; `None` when there is none. */
  readonly read: (url: string) => Effect.Effect<Option.Option<JsonObject>, StatusListUnavailable>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class StatusListReader extends Context.Tag("@sigil/core/StatusListReader")<StatusListReader, Service>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (documents: Iterable<readonly [string, JsonObject]> = []) => {
  const byUrl = new Map(documents)
  const service: Service = {
    read: (url) => Effect.sync(() => Option.fromNullable(byUrl.get(url.split("?")[0]!)))
  }
  return { service, put: (url: string, document: JsonObject) => void byUrl.set(url, document) }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (documents: Iterable<readonly [string, JsonObject]> = []): Layer.Layer<StatusListReader> =>
  Layer.succeed(StatusListReader, makeMemory(documents).service)
