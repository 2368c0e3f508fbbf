/**
 * Request bodies: the 40 MB limit (decisions §6) and JSON bodies decoded with core's decoders.
 *
 * Handlers read their bodies here rather than through HttpApi's payload decoding: HttpApi turns
 * malformed JSON into a defect and a schema failure into `HttpApiDecodeError`, whose flattened
 * issues lose the annotations that carry the contract's codes (`recipient_id_invalid`,
 * `batch_too_large`…). Core's decoders report the first failure in document order with its
 * field path and code, exactly as the contract asks.
 *
 * @since 0.1.0
 */
import { FileSystem, HttpIncomingMessage, type HttpServerRequest } from "@effect/platform"
import type { InvalidInput } from "@sigil/service/Inputs/InputErrors"
import { Data, Effect, Option, Stream } from "effect"

/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_BYTES = 40 * 1024 * 1024

/**
 * The body is not JSON (or could not be read).
 *
 * @since 0.1.0
 * @category errors
 */
export class MalformedJson extends Data.TaggedError("MalformedJson")<{ readonly message: string }> {}

/**
 * The body is over `MAX_BYTES`.
 *
 * @since 0.1.0
 * @category errors
 */
export class TooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly message: string }> {}

/**
 * The body is not declared `application/json` (in UTF-8).
 *
 * @since 0.1.0
 * @category errors
 */
export class UnsupportedMediaType extends Data.TaggedError("UnsupportedMediaType")<{ readonly message: string }> {}

/**
 * Whether a `Content-Type` declares JSON in UTF-8: `application/json`, any case, with any
 * parameters but a `charset` other than UTF-8 (JSON is UTF-8, RFC 8259).
 *
 * @since 0.1.0
 * @category media types
 */
export const isJsonMediaType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const [type, ...parameters] = contentType.split(";")
  if (type!.trim().toLowerCase() !== "application/json") return false
  return parameters.every((p) => {
    const [name, value] = p.split("=")
    return name!.trim().toLowerCase() !== "charset" || /^"?utf-8"?$/i.test((value ?? "").trim())
  })
}

const unsupported = () =>
  new UnsupportedMediaType({ message: "The body must be sent as Content-Type: application/json (UTF-8)." })

const tooLarge = () => new TooLarge({ message: `The body is over ${MAX_BYTES / 1024 / 1024} MB.` })

/**
 * Refuses a body whose declared `Content-Length` is over the limit, before anything reads it.
 *
 * @since 0.1.0
 * @category limits
 */
export const checkDeclaredLength = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<void, TooLarge> => {
  const declared = request.headers["content-length"]
  return declared !== undefined && Number(declared) > MAX_BYTES ? Effect.fail(tooLarge()) : Effect.void
}

/**
 * Caps every other read of the body (the platform's own readers, e.g. routes the server adds)
 * at the limit; they end the connection past it. `text` below answers 413 instead.
 *
 * @since 0.1.0
 * @category limits
 */
export const withLimit = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  HttpIncomingMessage.withMaxBodySize(effect, Option.some(FileSystem.Size(MAX_BYTES)))

const MALFORMED = () => new MalformedJson({ message: "The body could not be read." })

type Read =
  | { readonly _tag: "Read"; readonly text: string }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "NotUtf8" }

// Strict: a body that is not UTF-8 is refused rather than read with replacement characters
// (which would sign something the client never sent). A byte-order mark is kept, as before, so
// JSON.parse refuses it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

const decodeUtf8 = (bytes: Uint8Array): Read => {
  try {
    return { _tag: "Read", text: utf8.decode(bytes) }
  } catch {
    return { _tag: "NotUtf8" }
  }
}

// One read per request, shared by the idempotency fingerprint and the handler. Keyed by the
// platform's own request object, which stays the same however the request is wrapped.
const reads = new WeakMap<object, Effect.Effect<Read, MalformedJson>>()

/**
 * Reads the whole body, keeping at most `MAX_BYTES`. Past the limit the rest is still read and
 * dropped rather than the connection torn down (what the platform's own limit does), so that
 * the client, still sending, receives the 413; the server's request timeout bounds the drain.
 */
const read = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Read, MalformedJson> =>
  Stream.runFold(
    request.stream,
    { chunks: [] as Array<Uint8Array>, bytes: 0 },
    (acc, chunk) => {
      acc.bytes += chunk.length
      if (acc.bytes <= MAX_BYTES) acc.chunks.push(chunk)
      return acc
    }
  ).pipe(
    Effect.map(({ bytes, chunks }): Read =>
      bytes > MAX_BYTES ? { _tag: "TooLarge" } : decodeUtf8(Buffer.concat(chunks))
    ),
    Effect.mapError(MALFORMED)
  )

/**
 * The raw body, read once per request. A body that is not empty must be declared
 * `application/json` (415 otherwise, after the size and before the encoding is looked at); an
 * empty one may come without a type (its handler then says what is missing).
 *
 * @since 0.1.0
 * @category reading
 */
export const text = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<string, MalformedJson | TooLarge | UnsupportedMediaType> =>
  Effect.suspend(() => {
    const key = typeof request.source === "object" && request.source !== null ? request.source : request
    let cached = reads.get(key)
    if (cached === undefined) {
      cached = Effect.runSync(Effect.cached(read(request)))
      reads.set(key, cached)
    }
    const json = isJsonMediaType(request.headers["content-type"])
    return Effect.flatMap(cached, (result): Effect.Effect<string, MalformedJson | TooLarge | UnsupportedMediaType> =>
      result._tag === "TooLarge"
        ? Effect.fail(tooLarge())
        : !json && !(result._tag === "Read" && result.text === "")
        ? Effect.fail(unsupported())
        : result._tag === "NotUtf8"
        ? Effect.fail(new MalformedJson({ message: "The body is not valid UTF-8: send JSON encoded as UTF-8." }))
        : Effect.succeed(result.text))
  })

/**
 * The body parsed as JSON.
 *
 * @since 0.1.0
 * @category reading
 */
export const json = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<unknown, MalformedJson | TooLarge | UnsupportedMediaType> =>
  Effect.flatMap(text(request), (body) => {
    if (body.trim() === "") return Effect.fail(new MalformedJson({ message: "The body is empty: send a JSON object." }))
    try {
      return Effect.succeed(JSON.parse(body) as unknown)
    } catch {
      return Effect.fail(new MalformedJson({ message: "The body is not valid JSON." }))
    }
  })

/**
 * The body parsed as JSON and decoded with one of core's `Inputs.decodeX`.
 *
 * @since 0.1.0
 * @category reading
 */
export const decode = <A>(
  request: HttpServerRequest.HttpServerRequest,
  decoder: (u: unknown) => Effect.Effect<A, InvalidInput>
): Effect.Effect<A, MalformedJson | TooLarge | UnsupportedMediaType | InvalidInput> =>
  Effect.flatMap(json(request), decoder)
