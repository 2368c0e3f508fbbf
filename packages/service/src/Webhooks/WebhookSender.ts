/**
 * Port: the network side of webhooks — the SSRF policy on endpoint URLs (decisions §5: https
 * only, never a private, loopback or link-local address after DNS resolution, checked again
 * when connecting) and the POST of a delivery. The server implements it with node's DNS and
 * HTTP; tests can use `layerMemory`.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"

/**
 * The URL is not acceptable as a webhook endpoint; `message` says why.
 *
 * @since 0.1.0
 * @category errors
 */
export class WebhookUrlRefused extends Schema.TaggedError<WebhookUrlRefused>()("WebhookUrlRefused", {
  url: Schema.String,
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Response {
  readonly status: number
}

/**
 * The request did not get an HTTP answer (refused address, timeout, connection error).
 *
 * @since 0.1.0
 * @category errors
 */
export class DeliveryFailed extends Schema.TaggedError<DeliveryFailed>()("DeliveryFailed", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Refuses URLs the policy forbids (scheme, literal or resolved private addresses). */
  readonly checkUrl: (url: string) => Effect.Effect<void, WebhookUrlRefused>
  /** POSTs the JSON body with the headers; any HTTP status is a `Response`. */
  readonly post: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string
  ) => Effect.Effect<Response, DeliveryFailed | WebhookUrlRefused>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class WebhookSender extends Context.Tag("@sigil/core/WebhookSender")<WebhookSender, Service>() {}

/**
 * A transport that records requests and answers with `respond` (tests).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (respond: (url: string) => number = () => 200) => {
  const sent: Array<{ readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body: string }> = []
  const service: Service = {
    checkUrl: (url) =>
      /^https?:\/\//.test(url) ? Effect.void : Effect.fail(new WebhookUrlRefused({ url, message: "not an http(s) URL" })),
    post: (url, headers, body) =>
      Effect.sync(() => {
        sent.push({ url, headers, body })
        return { status: respond(url) }
      })
  }
  return { service, sent: sent as ReadonlyArray<(typeof sent)[number]> }
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (respond?: (url: string) => number): Layer.Layer<WebhookSender> =>
  Layer.succeed(WebhookSender, makeMemory(respond).service)
