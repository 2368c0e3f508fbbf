/**
 * The typed client of the issuer API, for Effect programs. It is derived from the HttpApi
 * contract (`HttpApiClient.make(IssuerApi)`), so every request and answer is the contract's,
 * with the contract's error classes; around it:
 *
 * - authentication (`Authorization: Bearer <key>`);
 * - the retry policy of the contract's guidance (`Retry`): 429 after `Retry-After`, 5xx and
 *   network errors with exponential backoff and jitter, bounded;
 * - an `Idempotency-Key` on every POST, generated once per logical call and reused on retries;
 * - request bodies validated locally with core's `Inputs` before anything is sent;
 * - cursor iteration (`batches`), and `waitForBatch` (polling with backoff, or woken by webhook
 *   events).
 *
 * For code without Effect, `PromiseClient.createClient` wraps this.
 *
 * @since 0.1.0
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform"
import * as BatchInputs from "@sigil/service/Inputs/BatchInputs"
import * as CredentialInputs from "@sigil/service/Inputs/CredentialInputs"
import * as InputErrors from "@sigil/service/Inputs/InputErrors"
import * as TenantInputs from "@sigil/service/Inputs/TenantInputs"
import * as WebhookInputs from "@sigil/service/Inputs/WebhookInputs"
import * as ApiErrors from "@sigil/http/ApiErrors"
import { IssuerApi } from "@sigil/http/IssuerApi"
import type * as Resources from "@sigil/http/Resources"
import { Chunk, Context, Data, Duration, Effect, Either, Layer, Option, ParseResult, Redacted, Schedule, Stream } from "effect"
import * as Retry from "./Retry.js"
import type * as Webhooks from "./Webhooks.js"

// ---------------------------------------------------------------------------------------------
// models
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export type Batch = typeof Resources.Batch.Type
/**
 * @since 0.1.0
 * @category models
 */
export type BatchPage = typeof Resources.BatchPage.Type
/**
 * @since 0.1.0
 * @category models
 */
export type BatchStatus = Batch["status"]
/**
 * @since 0.1.0
 * @category models
 */
export type Credential = typeof Resources.Credential.Type
/**
 * @since 0.1.0
 * @category models
 */
export type RevocationResponse = typeof Resources.RevocationResponse.Type
/**
 * @since 0.1.0
 * @category models
 */
export type ErasureResponse = typeof Resources.ErasureResponse.Type
/**
 * @since 0.1.0
 * @category models
 */
export type Tenant = typeof Resources.Tenant.Type
/**
 * @since 0.1.0
 * @category models
 */
export type WebhookEndpoint = typeof Resources.WebhookEndpoint.Type
/**
 * @since 0.1.0
 * @category models
 */
export type CreatedWebhookEndpoint = typeof Resources.CreatedWebhookEndpoint.Type
/**
 * @since 0.1.0
 * @category models
 */
export type WebhookTestResult = typeof Resources.WebhookTestResult.Type

/**
 * Request bodies as sent on the wire (the contract's JSON).
 *
 * @since 0.1.0
 * @category models
 */
export type CreateBatchRequest = typeof BatchInputs.CreateBatchRequest.Encoded
/**
 * @since 0.1.0
 * @category models
 */
export type CredentialInput = CreateBatchRequest["credentials"][number]
/**
 * @since 0.1.0
 * @category models
 */
export type RevocationRequest = typeof CredentialInputs.RevocationRequest.Encoded
/**
 * @since 0.1.0
 * @category models
 */
export type ErasureRequest = typeof CredentialInputs.ErasureRequest.Encoded
/**
 * @since 0.1.0
 * @category models
 */
export type TenantUpdate = typeof TenantInputs.TenantUpdate.Encoded
/**
 * @since 0.1.0
 * @category models
 */
export type CreateWebhookRequest = typeof WebhookInputs.CreateWebhookRequest.Encoded

/**
 * @since 0.1.0
 * @category models
 */
export interface ListBatchesParams {
  readonly cursor?: string | undefined
  readonly limit?: number | undefined
  readonly status?: BatchStatus | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The service's address, e.g. `http://localhost:8080`; a trailing `/v1` is accepted. */
  readonly baseUrl: string
  readonly apiKey: string | Redacted.Redacted<string>
  readonly retry?: Retry.Options | undefined
}

/**
 * A POST's options.
 *
 * @since 0.1.0
 * @category models
 */
export interface PostOptions {
  /** The `Idempotency-Key` (1–255 characters). Default: a new UUID for this call, reused on its retries. */
  readonly idempotencyKey?: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface CreatedBatch {
  readonly batch: Batch
  /** The server answered with the stored first response of this `Idempotency-Key`. */
  readonly replayed: boolean
  readonly idempotencyKey: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface WaitOptions {
  /** `anchored` (default) or `signed`. */
  readonly until?: "signed" | "anchored" | undefined
  /** Give up after this long. Default 10 minutes. */
  readonly timeout?: Duration.DurationInput | undefined
  /** First polling interval (doubling up to `maxInterval`). Default 500 ms. */
  readonly interval?: Duration.DurationInput | undefined
  /** Default 10 s; 60 s when `events` is given (the webhook does the waking). */
  readonly maxInterval?: Duration.DurationInput | undefined
  /** Webhook events (e.g. from a `WebhookReceiver`): a matching event ends the wait at once. */
  readonly events?: Stream.Stream<Webhooks.Event> | undefined
  /** Called with each state seen while waiting. */
  readonly onProgress?: ((batch: Batch) => void) | undefined
}

// ---------------------------------------------------------------------------------------------
// errors
// ---------------------------------------------------------------------------------------------

/**
 * The request could not be made or its answer was not the contract's: network failure after
 * the retries, an answer that does not decode, a status the contract does not declare.
 *
 * @since 0.1.0
 * @category errors
 */
export class RequestFailed extends Data.TaggedError("RequestFailed")<{
  readonly message: string
  readonly status: number | undefined
  readonly cause: unknown
}> {}

/**
 * The batch failed (`status: "failed"`) while we were waiting for it.
 *
 * @since 0.1.0
 * @category errors
 */
export class BatchFailed extends Data.TaggedError("BatchFailed")<{ readonly batch: Batch }> {
  override get message() {
    return `batch ${this.batch.id} failed: ${this.batch.error ?? "no reason given"}`
  }
}

/**
 * The batch did not reach the awaited state in time.
 *
 * @since 0.1.0
 * @category errors
 */
export class WaitTimeout extends Data.TaggedError("WaitTimeout")<{ readonly batchId: string; readonly last: Batch | undefined }> {
  override get message() {
    return `batch ${this.batchId} is still ${this.last?.status ?? "unknown"}; stopped waiting`
  }
}

/**
 * What a call can fail with: an error of the contract (`{error: {code, message, request_id}}`,
 * one class per code), or a `RequestFailed`.
 *
 * @since 0.1.0
 * @category errors
 */
export type Error = ApiErrors.ApiError | RequestFailed

const normalize = (error: unknown): Error => {
  if (ApiErrors.isApiError(error)) return error
  if (error instanceof RequestFailed) return error
  if (ParseResult.isParseError(error)) {
    return new RequestFailed({ message: `unexpected answer: ${error.message}`, status: undefined, cause: error })
  }
  const e = error as HttpClientError.HttpClientError
  if (e?._tag === "ResponseError") {
    return new RequestFailed({ message: `HTTP ${e.response.status}: ${e.message}`, status: e.response.status, cause: e })
  }
  if (e?._tag === "RequestError") return new RequestFailed({ message: e.message, status: undefined, cause: e })
  return new RequestFailed({ message: String(error), status: undefined, cause: error })
}

// ---------------------------------------------------------------------------------------------
// the service
// ---------------------------------------------------------------------------------------------

/**
 * The raw contract client (every operation as HttpApi declares it), with the retry policy and
 * authentication applied.
 *
 * @since 0.1.0
 * @category models
 */
export type Api = Effect.Effect.Success<ReturnType<typeof makeApi>>

const makeApi = (options: Options) =>
  HttpApiClient.make(IssuerApi, {
    baseUrl: apiBaseUrl(options.baseUrl),
    transformClient: (client) =>
      client.pipe(
        HttpClient.mapRequest(HttpClientRequest.bearerToken(options.apiKey)),
        HttpClient.mapRequest(HttpClientRequest.setHeader("user-agent", "sigil-client/0.1.0")),
        Retry.withRetries(options.retry),
        Retry.withIdempotencyKeys
      )
  })

/**
 * The origin and path prefix the contract's `/v1/...` paths are appended to.
 *
 * @since 0.1.0
 * @category constructors
 */
export const apiBaseUrl = (baseUrl: string): string => baseUrl.trim().replace(/\/+$/, "").replace(/\/v1$/, "")

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly api: Api
  readonly baseUrl: string

  readonly createBatch: (
    request: CreateBatchRequest,
    options?: PostOptions
  ) => Effect.Effect<CreatedBatch, Error | InputErrors.InvalidInput>
  readonly getBatch: (id: string) => Effect.Effect<Batch, Error>
  readonly listBatches: (params?: ListBatchesParams) => Effect.Effect<BatchPage, Error>
  /** Every batch, newest first, following `next_cursor` until `has_more` is false. */
  readonly batches: (params?: Omit<ListBatchesParams, "cursor">) => Stream.Stream<Batch, Error>
  readonly waitForBatch: (id: string, options?: WaitOptions) => Effect.Effect<Batch, Error | BatchFailed | WaitTimeout>

  readonly getCredential: (id: string) => Effect.Effect<Credential, Error>
  readonly revokeCredential: (
    id: string,
    request: RevocationRequest,
    options?: PostOptions
  ) => Effect.Effect<RevocationResponse, Error | InputErrors.InvalidInput>
  readonly eraseCredential: (
    id: string,
    request: ErasureRequest,
    options?: PostOptions
  ) => Effect.Effect<ErasureResponse, Error | InputErrors.InvalidInput>

  readonly getTenant: Effect.Effect<Tenant, Error>
  readonly updateTenant: (update: TenantUpdate) => Effect.Effect<Tenant, Error | InputErrors.InvalidInput>

  readonly createWebhook: (
    request: CreateWebhookRequest,
    options?: PostOptions
  ) => Effect.Effect<CreatedWebhookEndpoint, Error | InputErrors.InvalidInput>
  readonly listWebhooks: Effect.Effect<ReadonlyArray<WebhookEndpoint>, Error>
  readonly deleteWebhook: (id: string) => Effect.Effect<void, Error>
  readonly testWebhook: (id: string, options?: PostOptions) => Effect.Effect<WebhookTestResult, Error>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class SigilClient extends Context.Tag("@sigil/client/SigilClient")<SigilClient, Service>() {}

const REPLAYED = "idempotent-replayed"

const TERMINAL: Record<"signed" | "anchored", ReadonlyArray<BatchStatus>> = {
  signed: ["signed", "anchored"],
  anchored: ["anchored"]
}

/**
 * Builds the client over the `HttpClient` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const api = yield* makeApi(options)
    const run = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Error, R> =>
      Effect.mapError(effect, normalize)
    const keyOf = (post?: PostOptions) => post?.idempotencyKey ?? crypto.randomUUID()

    const createBatch: Service["createBatch"] = (request, post) =>
      Effect.gen(function*() {
        const payload = yield* BatchInputs.decodeCreateBatchRequest(request)
        const idempotencyKey = keyOf(post)
        const [batch, response] = yield* run(
          api.Batches.createBatch({ payload, headers: { "idempotency-key": idempotencyKey }, withResponse: true })
        )
        return { batch, replayed: response.headers[REPLAYED] === "true", idempotencyKey }
      })

    const getBatch: Service["getBatch"] = (id) => run(api.Batches.getBatch({ path: { id } }))

    const listBatches: Service["listBatches"] = (params = {}) =>
      run(api.Batches.listBatches({
        urlParams: {
          limit: params.limit ?? 25,
          ...(params.cursor === undefined ? {} : { cursor: params.cursor }),
          ...(params.status === undefined ? {} : { status: params.status })
        }
      }))

    const batches: Service["batches"] = (params = {}) =>
      Stream.paginateChunkEffect(undefined as string | undefined, (cursor) =>
        Effect.map(listBatches({ ...params, cursor }), (page) =>
          [
            Chunk.fromIterable(page.data),
            page.has_more && page.next_cursor !== null ? Option.some(page.next_cursor) : Option.none()
          ] as const))

    const waitForBatch: Service["waitForBatch"] = (id, wait = {}) => {
      const until = wait.until ?? "anchored"
      const done = (batch: Batch) => TERMINAL[until].includes(batch.status) || batch.status === "failed"
      let last: Batch | undefined
      const check = Effect.tap(getBatch(id), (batch) =>
        Effect.sync(() => {
          last = batch
          wait.onProgress?.(batch)
        }))
      const polling = Effect.repeat(
        check,
        Schedule.identity<Batch>().pipe(
          Schedule.intersect(
            Schedule.exponential(wait.interval ?? Duration.millis(500), 2).pipe(
              Schedule.modifyDelay((_, d) =>
                Duration.min(d, wait.maxInterval ?? (wait.events === undefined ? Duration.seconds(10) : Duration.seconds(60))))
            )
          ),
          Schedule.map(([batch]) => batch),
          Schedule.whileInput((batch: Batch) => !done(batch))
        )
      )
      const woken = wait.events === undefined ? Effect.never : wait.events.pipe(
        Stream.filter((event) =>
          (event.data as { batch_id?: unknown }).batch_id === id &&
          (event.type === "batch.failed" || event.type === "batch.anchored" || (until === "signed" && event.type === "batch.signed"))),
        Stream.runHead,
        Effect.zipRight(check),
        Effect.filterOrElse(done, () => polling)
      )
      return Effect.raceFirst(polling, woken).pipe(
        Effect.timeoutFail({
          duration: wait.timeout ?? Duration.minutes(10),
          onTimeout: () => new WaitTimeout({ batchId: id, last })
        }),
        Effect.flatMap((batch) => (batch.status === "failed" ? Effect.fail(new BatchFailed({ batch })) : Effect.succeed(batch)))
      )
    }

    const getCredential: Service["getCredential"] = (id) => run(api.Credentials.getCredential({ path: { id } }))

    const revokeCredential: Service["revokeCredential"] = (id, request, post) =>
      Effect.flatMap(CredentialInputs.decodeRevocationRequest(request), (payload) =>
        run(api.Credentials.revokeCredential({ path: { id }, payload, headers: { "idempotency-key": keyOf(post) } })))

    const eraseCredential: Service["eraseCredential"] = (id, request, post) =>
      Effect.flatMap(CredentialInputs.decodeErasureRequest(request), (payload) =>
        run(api.Credentials.eraseCredential({ path: { id }, payload, headers: { "idempotency-key": keyOf(post) } })))

    const getTenant = run(api.Tenants.getCurrentTenant())

    const updateTenant: Service["updateTenant"] = (update) =>
      Effect.flatMap(TenantInputs.decodeTenantUpdate(update), (payload) => run(api.Tenants.updateCurrentTenant({ payload })))

    const createWebhook: Service["createWebhook"] = (request, post) =>
      Effect.flatMap(WebhookInputs.decodeCreateWebhookRequest(request), (payload) =>
        run(api.Webhooks.createWebhook({ payload, headers: { "idempotency-key": keyOf(post) } })))

    const listWebhooks = Effect.map(run(api.Webhooks.listWebhooks()), (list) => list.data)

    const deleteWebhook: Service["deleteWebhook"] = (id) => Effect.asVoid(run(api.Webhooks.deleteWebhook({ path: { id } })))

    const testWebhook: Service["testWebhook"] = (id, post) =>
      run(api.Webhooks.testWebhook({ path: { id }, headers: { "idempotency-key": keyOf(post) } }))

    return {
      api,
      baseUrl: apiBaseUrl(options.baseUrl),
      createBatch,
      getBatch,
      listBatches,
      batches,
      waitForBatch,
      getCredential,
      revokeCredential,
      eraseCredential,
      getTenant,
      updateTenant,
      createWebhook,
      listWebhooks,
      deleteWebhook,
      testWebhook
    } satisfies Service
  })

/**
 * The client over `fetch`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<SigilClient> =>
  Layer.effect(SigilClient, make(options)).pipe(Layer.provide(FetchHttpClient.layer))

/**
 * The options from `SIGIL_BASE_URL` (default `http://localhost:8080`) and `SIGIL_API_KEY`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const optionsFromEnv = (
  env: { readonly [name: string]: string | undefined } = process.env
): Either.Either<Options, string> => {
  const apiKey = env.SIGIL_API_KEY?.trim()
  if (apiKey === undefined || apiKey === "") return Either.left("SIGIL_API_KEY is not set")
  const baseUrl = env.SIGIL_BASE_URL?.trim()
  return Either.right({ baseUrl: baseUrl === undefined || baseUrl === "" ? DEFAULT_BASE_URL : baseUrl, apiKey: Redacted.make(apiKey) })
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_BASE_URL = "http://localhost:8080"
