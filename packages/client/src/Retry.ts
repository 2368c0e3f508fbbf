/**
 * The retry policy of the issuer API's guidance (issuer-api.md "Errors"), as an HttpClient
 * transformation every call of the client goes through:
 *
 * - 2xx: done. 4xx other than 429: never retried (the answer is final), except
 *   409 `idempotency_key_in_use`, which means *our own* earlier attempt with the same key is
 *   still running: we wait and retry to get its answer.
 * - 429: wait at least `Retry-After` seconds, and back off exponentially from there.
 * - 5xx, network errors and attempts that time out: exponential backoff from `base` (1 s) to
 *   `cap` (30 s), with jitter.
 * - Bounded: at most `maxRetries` retries (8); the last answer is then returned as it is (the
 *   caller sees the contract's error), or the last network error.
 *
 * Every POST carries an `Idempotency-Key`: the caller's, or one generated **once per logical
 * call** and reused on each retry, so a retried POST can never act twice.
 *
 * @since 0.1.0
 */
import { HttpClient, HttpClientError, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Data, Duration, Effect, Either, Option, Random, Schedule } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Retries after the first attempt; 0 turns retrying off. Default 8. */
  readonly maxRetries?: number | undefined
  /** The first backoff delay. Default 1 second. */
  readonly base?: Duration.DurationInput | undefined
  /** The largest backoff delay. Default 30 seconds. */
  readonly cap?: Duration.DurationInput | undefined
  /** Multiply each backoff delay by a random factor in [0.8, 1.2] (then cap it). Default true. */
  readonly jitter?: boolean | undefined
  /** How long one attempt may take before it counts as a network failure. Default 60 seconds. */
  readonly attemptTimeout?: Duration.DurationInput | undefined
  /** Called before each retry (logging, tests). */
  readonly onRetry?: ((retry: RetryInfo) => void) | undefined
}

/**
 * What a retry is about to do.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryInfo {
  readonly method: string
  readonly url: string
  /** 1 for the first retry. */
  readonly attempt: number
  readonly reason: Reason
  readonly status: number | undefined
  readonly delayMillis: number
  readonly idempotencyKey: string | undefined
}

/**
 * Why an attempt is retried.
 *
 * @since 0.1.0
 * @category models
 */
export type Reason = "rate_limited" | "server_error" | "idempotency_key_in_use" | "network"

/**
 * A retryable outcome of one attempt: an answer to retry, or a network failure.
 *
 * @since 0.1.0
 * @category models
 */
export class Retryable extends Data.TaggedError("Retryable")<{
  readonly reason: Reason
  readonly response: HttpClientResponse.HttpClientResponse | undefined
  readonly error: HttpClientError.HttpClientError | undefined
  /** The `Retry-After` of a 429, when it carried one. */
  readonly retryAfter: Duration.Duration | undefined
}> {}

/**
 * The defaults of the contract's guidance.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  maxRetries: 8,
  base: Duration.seconds(1),
  cap: Duration.seconds(30),
  jitter: true,
  attemptTimeout: Duration.seconds(60)
} as const

/**
 * `Retry-After`: delay-seconds or an HTTP date.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseRetryAfter = (value: string | undefined, now: number = Date.now()): Duration.Duration | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Duration.seconds(Number(trimmed))
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Duration.millis(Math.max(0, at - now))
}

/**
 * The backoff delays alone: `base · 2ⁿ`, capped, with jitter (factor in [0.8, 1.2], then
 * capped again so the cap holds).
 *
 * @since 0.1.0
 * @category schedules
 */
export const backoff = (options: Options = {}): Schedule.Schedule<Duration.Duration> => {
  const base = Duration.decode(options.base ?? defaults.base)
  const cap = Duration.decode(options.cap ?? defaults.cap)
  const jitter = options.jitter ?? defaults.jitter
  return Schedule.exponential(base, 2).pipe(
    Schedule.modifyDelayEffect((_, delay) =>
      Effect.map(jitter ? Random.nextRange(0.8, 1.2) : Effect.succeed(1), (factor) =>
        Duration.min(Duration.millis(Duration.toMillis(Duration.min(delay, cap)) * factor), cap))
    )
  )
}

/**
 * The retry schedule, driven by what each attempt gave: the backoff, raised to the
 * `Retry-After` of a 429, for at most `maxRetries` retries.
 *
 * @since 0.1.0
 * @category schedules
 */
export const schedule = (options: Options = {}): Schedule.Schedule<[Retryable, Duration.Duration, number], Retryable> =>
  Schedule.identity<Retryable>().pipe(
    Schedule.intersect(backoff(options)),
    Schedule.intersect(Schedule.recurs(options.maxRetries ?? defaults.maxRetries)),
    Schedule.map(([[retryable, delay], n]) => [retryable, delay, n] as [Retryable, Duration.Duration, number]),
    Schedule.modifyDelay(([retryable], delay) =>
      retryable.retryAfter === undefined ? delay : Duration.max(delay, retryable.retryAfter)
    )
  )

const IDEMPOTENCY_HEADER = "idempotency-key"

/** The retryable reason of an answer, if any; reads the body only for a 409. */
const classify = (
  response: HttpClientResponse.HttpClientResponse
): Effect.Effect<Option.Option<Retryable>> => {
  const retryable = (reason: Reason, retryAfter?: Duration.Duration) =>
    Effect.succeed(Option.some(new Retryable({ reason, response, error: undefined, retryAfter })))
  if (response.status === 429) return retryable("rate_limited", parseRetryAfter(response.headers["retry-after"]))
  if (response.status >= 500) return retryable("server_error")
  if (response.status === 409) {
    // Read as an ArrayBuffer: that is what HttpApiClient decodes from (each reading is cached
    // once, so the answer stays readable for it).
    return response.arrayBuffer.pipe(
      Effect.map((buffer) => {
        try {
          return JSON.parse(new TextDecoder().decode(buffer)) as unknown
        } catch {
          return null
        }
      }),
      Effect.map((body) =>
        (body as { error?: { code?: unknown } } | null)?.error?.code === "idempotency_key_in_use"
          ? Option.some(new Retryable({ reason: "idempotency_key_in_use", response, error: undefined, retryAfter: undefined }))
          : Option.none()
      ),
      Effect.orElseSucceed(() => Option.none())
    )
  }
  return Effect.succeed(Option.none())
}

/**
 * Adds an `Idempotency-Key` to a POST that has none, once per logical call.
 *
 * @since 0.1.0
 * @category transformations
 */
export const withIdempotencyKeys = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  HttpClient.mapRequest(client, (request) =>
    request.method === "POST" && request.headers[IDEMPOTENCY_HEADER] === undefined
      ? HttpClientRequest.setHeader(request, IDEMPOTENCY_HEADER, crypto.randomUUID())
      : request)

/**
 * The retry policy around every request of `client`. Apply it before `withIdempotencyKeys`
 * (`client.pipe(withRetries(options), withIdempotencyKeys)`), so the key is generated before
 * the first attempt and the same request, key included, is sent on every retry.
 *
 * @since 0.1.0
 * @category transformations
 */
export const withRetries = (options: Options = {}) => (client: HttpClient.HttpClient): HttpClient.HttpClient => {
  const attemptTimeout = options.attemptTimeout ?? defaults.attemptTimeout
  const maxRetries = options.maxRetries ?? defaults.maxRetries
  return HttpClient.transform(client, (attempt, request) => {
    let count = 0
    // One attempt: an answer to keep (Right), a final error (Left), or a Retryable failure.
    const once: Effect.Effect<Either.Either<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>, Retryable> =
      attempt.pipe(
        Effect.timeoutFail({
          duration: attemptTimeout,
          onTimeout: () =>
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              description: `no answer within ${Duration.format(attemptTimeout)}`
            })
        }),
        Effect.either,
        Effect.flatMap((result): Effect.Effect<Either.Either<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>, Retryable> => {
          if (Either.isLeft(result)) {
            const error = result.left
            return error._tag === "RequestError" && error.reason === "Transport"
              ? Effect.fail(new Retryable({ reason: "network", response: undefined, error, retryAfter: undefined }))
              : Effect.succeed(result)
          }
          const response = result.right
          return Effect.flatMap(classify(response), (retryable) =>
            Option.match(retryable, {
              onNone: () => Effect.succeed(result),
              // The answer will not be read: drop its body before trying again.
              onSome: (r) => Effect.zipRight(Effect.ignore(response.arrayBuffer), Effect.fail(r))
            }))
        })
      )
    let last: Retryable | undefined
    const policy = schedule(options).pipe(
      Schedule.tapInput((retryable: Retryable) => Effect.sync(() => (last = retryable))),
      Schedule.delays,
      Schedule.tapOutput((delay) =>
        Effect.sync(() => {
          // The schedule's last step (out of retries) outputs too: no retry follows it.
          if (count >= maxRetries) return
          count += 1
          options.onRetry?.({
            method: request.method,
            url: request.url,
            attempt: count,
            reason: last!.reason,
            status: last!.response?.status,
            delayMillis: Duration.toMillis(delay),
            idempotencyKey: request.headers[IDEMPOTENCY_HEADER]
          })
        })
      )
    )
    return once.pipe(
      Effect.retry(policy),
      // Out of retries: the last answer goes to the caller as it is, or the last network error.
      Effect.catchAll((e) => Effect.succeed(e.response !== undefined ? Either.right(e.response) : Either.left(e.error!))),
      Effect.flatMap((result) => Either.isRight(result) ? Effect.succeed(result.right) : Effect.fail(result.left))
    )
  })
}
