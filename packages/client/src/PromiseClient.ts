/**
 * The client for code that does not use Effect: the same calls as `SigilClient`, returning
 * Promises, rejecting with a `SigilError`.
 *
 * ```ts
 * import { createClient } from "@sigil/client/PromiseClient"
 *
 * const sigil = createClient({ baseUrl: "http://localhost:8080", apiKey: process.env.SIGIL_API_KEY! })
 * const { batch } = await sigil.batches.create({ credentials: [...] })
 * const anchored = await sigil.batches.waitFor(batch.id)
 * ```
 *
 * @since 0.1.0
 */
import { FetchHttpClient } from "@effect/platform"
import type * as InputErrors from "@sigil/service/Inputs/InputErrors"
import * as ApiErrors from "@sigil/http/ApiErrors"
import { Cause, Effect, Exit, Option, Stream } from "effect"
import type * as Retry from "./Retry.js"
import * as SigilClient from "./SigilClient.js"
import type * as Webhooks from "./Webhooks.js"

/**
 * Every failure of a call.
 *
 * - `code`: the contract's error code (`rate_limited`, `batch_not_found`, …) when the server
 *   answered one; a local validation error carries the contract's code too (nothing was sent,
 *   `status` undefined); otherwise `request_failed`, `batch_failed` or `wait_timeout`.
 *
 * @since 0.1.0
 * @category errors
 */
export class SigilError extends Error {
  override readonly name = "SigilError"
  constructor(
    message: string,
    readonly code: string,
    readonly status: number | undefined,
    readonly requestId: string | undefined,
    /** The field a validation error names (`credentials[3].recipient.id`). */
    readonly field: string | undefined,
    /** `batch_failed`: the failed batch; `wait_timeout`: the last state seen. */
    readonly batch: SigilClient.Batch | undefined,
    override readonly cause: unknown
  ) {
    super(message)
  }
}

const toSigilError = (error: unknown): SigilError => {
  if (ApiErrors.isApiError(error)) {
    return new SigilError(
      `${error.error.code}: ${error.error.message}`,
      error.error.code,
      ApiErrors.statusOf(error),
      error.error.request_id,
      undefined,
      undefined,
      error
    )
  }
  const tagged = error as { readonly _tag?: string }
  switch (tagged._tag) {
    case "InvalidInput": {
      const e = error as InputErrors.InvalidInput
      return new SigilError(`${e.code}: ${e.message}`, e.code, undefined, undefined, e.field, undefined, e)
    }
    case "RequestFailed": {
      const e = error as SigilClient.RequestFailed
      return new SigilError(e.message, "request_failed", e.status, undefined, undefined, undefined, e)
    }
    case "BatchFailed": {
      const e = error as SigilClient.BatchFailed
      return new SigilError(e.message, "batch_failed", undefined, undefined, undefined, e.batch, e)
    }
    case "WaitTimeout": {
      const e = error as SigilClient.WaitTimeout
      return new SigilError(e.message, "wait_timeout", undefined, undefined, undefined, e.last, e)
    }
  }
  return new SigilError(String(error), "request_failed", undefined, undefined, undefined, undefined, error)
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ClientOptions {
  /** The service's address, e.g. `http://localhost:8080` (a trailing `/v1` is fine). */
  readonly baseUrl: string
  readonly apiKey: string
  /** The retry policy; defaults follow the contract (1 s → 30 s, 8 retries). */
  readonly retry?: Retry.Options | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface WaitOptions {
  readonly until?: "signed" | "anchored" | undefined
  /** Milliseconds. Default 10 minutes. */
  readonly timeoutMs?: number | undefined
  /** First polling interval in ms (doubling). Default 500. */
  readonly intervalMs?: number | undefined
  /** Largest polling interval in ms. Default 10 000 (60 000 with `webhooks`). */
  readonly maxIntervalMs?: number | undefined
  /** A webhook receiver (`WebhookReceiver.start`): its events end the wait at once. */
  readonly webhooks?: { readonly onEvent: (listener: (event: Webhooks.Event) => void) => () => void } | undefined
  readonly onProgress?: ((batch: SigilClient.Batch) => void) | undefined
  readonly signal?: AbortSignal | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Client {
  readonly batches: {
    readonly create: (
      request: SigilClient.CreateBatchRequest,
      options?: SigilClient.PostOptions
    ) => Promise<SigilClient.CreatedBatch>
    readonly get: (id: string) => Promise<SigilClient.Batch>
    /** One page. */
    readonly list: (params?: SigilClient.ListBatchesParams) => Promise<SigilClient.BatchPage>
    /** Every batch, newest first, across pages: `for await (const batch of sigil.batches.iterate())`. */
    readonly iterate: (params?: Omit<SigilClient.ListBatchesParams, "cursor">) => AsyncIterable<SigilClient.Batch>
    /** Resolves once the batch is anchored (or `until`); rejects `batch_failed` / `wait_timeout`. */
    readonly waitFor: (id: string, options?: WaitOptions) => Promise<SigilClient.Batch>
  }
  readonly credentials: {
    readonly get: (id: string) => Promise<SigilClient.Credential>
    readonly revoke: (
      id: string,
      request: SigilClient.RevocationRequest,
      options?: SigilClient.PostOptions
    ) => Promise<SigilClient.RevocationResponse>
    readonly erase: (
      id: string,
      request: SigilClient.ErasureRequest,
      options?: SigilClient.PostOptions
    ) => Promise<SigilClient.ErasureResponse>
  }
  readonly tenant: {
    readonly get: () => Promise<SigilClient.Tenant>
    readonly update: (update: SigilClient.TenantUpdate) => Promise<SigilClient.Tenant>
  }
  readonly webhooks: {
    readonly create: (
      request: SigilClient.CreateWebhookRequest,
      options?: SigilClient.PostOptions
    ) => Promise<SigilClient.CreatedWebhookEndpoint>
    readonly list: () => Promise<ReadonlyArray<SigilClient.WebhookEndpoint>>
    readonly delete: (id: string) => Promise<void>
    readonly test: (id: string) => Promise<SigilClient.WebhookTestResult>
  }
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const createClient = (options: ClientOptions): Client => {
  const service = SigilClient.make({ baseUrl: options.baseUrl, apiKey: options.apiKey, retry: options.retry }).pipe(
    Effect.provide(FetchHttpClient.layer),
    Effect.runSync
  )
  const run = async <A, E>(effect: Effect.Effect<A, E>, signal?: AbortSignal): Promise<A> => {
    const exit = await Effect.runPromiseExit(effect, signal === undefined ? undefined : { signal })
    if (Exit.isSuccess(exit)) return exit.value
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) throw toSigilError(failure.value)
    if (Cause.isInterruptedOnly(exit.cause)) throw new SigilError("aborted", "aborted", undefined, undefined, undefined, undefined, exit.cause)
    throw Cause.squash(exit.cause)
  }
  return {
    batches: {
      create: (request, post) => run(service.createBatch(request, post)),
      get: (id) => run(service.getBatch(id)),
      list: (params) => run(service.listBatches(params)),
      iterate: (params) => ({
        [Symbol.asyncIterator]: () => {
          // One page at a time, fetched when the consumer gets there.
          let page: Promise<SigilClient.BatchPage> | undefined
          let buffer: Array<SigilClient.Batch> = []
          let cursor: string | undefined
          let done = false
          return {
            next: async (): Promise<IteratorResult<SigilClient.Batch>> => {
              while (buffer.length === 0 && !done) {
                page = run(service.listBatches({ ...params, cursor }))
                const p = await page
                buffer = [...p.data]
                cursor = p.next_cursor ?? undefined
                done = !p.has_more || p.next_cursor === null
              }
              const value = buffer.shift()
              return value === undefined ? { done: true, value: undefined } : { done: false, value }
            }
          }
        }
      }),
      waitFor: (id, wait = {}) => {
        const receiver = wait.webhooks
        const events = receiver === undefined
          ? undefined
          : Stream.async<Webhooks.Event>((emit) => {
            const remove = receiver.onEvent((event) => void emit.single(event))
            return Effect.sync(remove)
          })
        return run(
          service.waitForBatch(id, {
            until: wait.until,
            timeout: wait.timeoutMs,
            interval: wait.intervalMs,
            maxInterval: wait.maxIntervalMs,
            events,
            onProgress: wait.onProgress
          }),
          wait.signal
        )
      }
    },
    credentials: {
      get: (id) => run(service.getCredential(id)),
      revoke: (id, request, post) => run(service.revokeCredential(id, request, post)),
      erase: (id, request, post) => run(service.eraseCredential(id, request, post))
    },
    tenant: {
      get: () => run(service.getTenant),
      update: (update) => run(service.updateTenant(update))
    },
    webhooks: {
      create: (request, post) => run(service.createWebhook(request, post)),
      list: () => run(service.listWebhooks),
      delete: (id) => run(service.deleteWebhook(id)),
      test: (id) => run(service.testWebhook(id))
    }
  }
}
