/**
 * The issuer API served: the contract, its handlers, the request pipeline, the OpenAPI document
 * at `GET /v1/openapi.json` and its viewer at `GET /v1/docs`.
 *
 * The server composes either `layer` (served on the `HttpServer` it provides) or `api` (to add
 * routes of its own, e.g. verification pages, with `HttpApiBuilder.Router.use` before
 * `HttpApiBuilder.serve`). Routes added that way pass through the pipeline too: they get a
 * request id and the contract's error bodies, and need no API key outside `/v1`.
 *
 * @since 0.1.0
 */
import type { ChangeFeed } from "@sigil/service/ChangeFeed"
import { type HttpApi, HttpApiBuilder, HttpApiSwagger, type HttpRouter, type HttpServer, HttpServerResponse } from "@effect/platform"
import type { AuditLog } from "@sigil/service/Access/AuditLog"
import type { BatchStore } from "@sigil/service/Batches/BatchStore"
import type { EmailDeliveryStore } from "@sigil/service/Email/EmailDeliveryStore"
import type { EventStore } from "@sigil/service/Events/EventStore"
import type { IdempotencyStore } from "@sigil/service/Access/IdempotencyStore"
import type { JobQueue } from "@sigil/service/Pipeline/JobQueue"
import type { RateLimiter } from "@sigil/service/Access/RateLimiter"
import type { Settings } from "@sigil/service/Settings"
import type { StatusSlotStore } from "@sigil/service/Credentials/StatusSlotStore"
import type { TenantStore } from "@sigil/service/Tenants/TenantStore"
import type { Transactor } from "@sigil/service/Transactor"
import type { WebhookEndpointStore } from "@sigil/service/Webhooks/WebhookEndpointStore"
import type { WebhookSender } from "@sigil/service/Webhooks/WebhookSender"
import { Effect, Layer } from "effect"
import * as Authentication from "./Authentication.js"
import * as BatchesHttp from "./BatchesHttp.js"
import * as CredentialsHttp from "./CredentialsHttp.js"
import * as DocsPage from "./DocsPage.js"
import * as IssuerApi from "./IssuerApi.js"
import * as Pipeline from "./Pipeline.js"
import * as TenantsHttp from "./TenantsHttp.js"
import * as WebhooksHttp from "./WebhooksHttp.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Options = Pipeline.Options

/**
 * What the issuer API needs: the store ports its services and pipeline use, the settings and
 * the webhook transport.
 *
 * @since 0.1.0
 * @category models
 */
export type Requirements =
  | Transactor
  | TenantStore
  | BatchStore
  | EventStore
  | WebhookEndpointStore
  | StatusSlotStore
  | JobQueue
  | IdempotencyStore
  | RateLimiter
  | AuditLog
  | EmailDeliveryStore
  | Settings
  | WebhookSender
  | ChangeFeed

/**
 * `GET /v1/openapi.json`: the same document as `docs/openapi.json`.
 *
 * @since 0.1.0
 * @category layers
 */
export const openApiRoute: Layer.Layer<never> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const document = HttpServerResponse.unsafeJson(IssuerApi.openApi())
    yield* router.get("/v1/openapi.json", Effect.succeed(document))
  })
)

/**
 * `GET /v1/docs`: Swagger UI over the document (its assets are inlined: no CDN needed), served
 * with a Content-Security-Policy (`DocsPage`).
 *
 * @since 0.1.0
 * @category layers
 */
export const docsRoute = HttpApiSwagger.layer({ path: "/v1/docs" })

/**
 * The API with its handlers, pipeline and documentation, ready for `HttpApiBuilder.serve`.
 *
 * @since 0.1.0
 * @category layers
 */
export const api = (options: Options = {}): Layer.Layer<HttpApi.Api, never, Requirements> =>
  Layer.mergeAll(Pipeline.layer(options), openApiRoute, docsRoute, DocsPage.layer).pipe(
    Layer.provideMerge(
      HttpApiBuilder.api(IssuerApi.IssuerApi).pipe(
        Layer.provide([BatchesHttp.layer, CredentialsHttp.layer, TenantsHttp.layer, WebhooksHttp.layer]),
        Layer.provide(Authentication.layer)
      )
    )
  )

/**
 * The issuer API served on the provided `HttpServer`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<never, never, HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices | Requirements> =>
  HttpApiBuilder.serve().pipe(Layer.provide(api(options)))
