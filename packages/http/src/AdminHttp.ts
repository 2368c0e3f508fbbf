/**
 * The administrative channel served (decisions §7): its handlers (each one call into core's
 * `Tenants`), the admin token check, and a pipeline of request id, 40 MB body limit and the
 * contract's error bodies. No rate limit, no idempotency, no audit: the channel is the
 * operator's, on loopback.
 *
 * @since 0.1.0
 */
import type { ChangeFeed } from "@sigil/service/ChangeFeed"
import {
  type HttpApi,
  HttpApiBuilder,
  type HttpApp,
  type HttpRouter,
  type HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import type { AuditLog } from "@sigil/service/Access/AuditLog"
import * as InputErrors from "@sigil/service/Inputs/InputErrors"
import type { KeyVault } from "@sigil/service/Tenants/KeyVault"
import type { Settings } from "@sigil/service/Settings"
import * as Tenants from "@sigil/service/Tenants"
import type { TenantStore } from "@sigil/service/Tenants/TenantStore"
import type { Transactor } from "@sigil/service/Transactor"
import { Effect, Layer, Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import { AdminApi, AdminAuthentication, CreateApiKeyRequest, CreateTenantRequest, UpdateTenantRequest } from "./AdminApi.js"
import * as ApiErrors from "./ApiErrors.js"
import * as Body from "./Body.js"
import * as Caller from "./Caller.js"
import * as Errors from "./Errors.js"
import * as PathIds from "./PathIds.js"
import * as RequestHeaders from "./RequestHeaders.js"
import * as RequestId from "./RequestId.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The admin token (`ADMIN_TOKEN`). */
  readonly token: Redacted.Redacted<string>
}

/**
 * What the channel needs.
 *
 * @since 0.1.0
 * @category models
 */
export type Requirements = Transactor | TenantStore | KeyVault | AuditLog | Settings | ChangeFeed

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest()

/**
 * Equal strings, compared in time independent of where they differ (digests have one length).
 *
 * @since 0.1.0
 * @category security
 */
export const tokensEqual = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b))

/**
 * @since 0.1.0
 * @category layers
 */
export const authentication = (options: Options): Layer.Layer<AdminAuthentication> => {
  const expected = Redacted.value(options.token)
  return Layer.succeed(AdminAuthentication, {
    bearer: (token) =>
      expected !== "" && tokensEqual(Redacted.value(token), expected)
        ? Effect.void
        : Errors.fail(ApiErrors.AdminTokenInvalid, "The admin token is missing or wrong: send `Authorization: Bearer <ADMIN_TOKEN>`.")
  })
}

const decodeCreateTenant = InputErrors.decodeUnknown(CreateTenantRequest)
const decodeUpdateTenant = InputErrors.decodeUnknown(UpdateTenantRequest)
const decodeCreateApiKey = InputErrors.decodeUnknown(CreateApiKeyRequest)

const bodyCodes = Errors.inputCodes("missing_required_field", "invalid_field_format")

/**
 * @since 0.1.0
 * @category layers
 */
export const handlers = HttpApiBuilder.group(AdminApi, "Admin", (handlers) =>
  handlers
    .handleRaw("createTenant", ({ request }) =>
      Body.decode(request, decodeCreateTenant).pipe(
        Effect.zip(Caller.now),
        Effect.flatMap(([tenant, now]) => Tenants.create(tenant, now)),
        bodyCodes,
        Errors.refail
      ))
    .handle("getTenant", ({ path }) => PathIds.tenant(path.id).pipe(Effect.flatMap(Tenants.get), Errors.refail))
    .handleRaw("updateTenant", ({ path, request }) =>
      Body.decode(request, decodeUpdateTenant).pipe(
        Effect.zip(PathIds.tenant(path.id)),
        Effect.flatMap(([update, id]) => Tenants.adminUpdate(id, update)),
        bodyCodes,
        Errors.refail
      ))
    .handleRaw("createApiKey", ({ path, request }) =>
      Body.decode(request, decodeCreateApiKey).pipe(
        Effect.zip(PathIds.tenant(path.id)),
        Effect.zip(Caller.now),
        Effect.flatMap(([[key, id], now]) => Tenants.createKey(id, key.environment, now)),
        bodyCodes,
        Errors.refail
      ))
    .handle("revokeApiKey", ({ path }) =>
      PathIds.apiKey(path.key_id).pipe(
        Effect.zip(Caller.now),
        Effect.flatMap(([id, now]) => Tenants.revokeKey(id, now)),
        Errors.refail
      ))
    .handle("listAudit", ({ path, urlParams }) =>
      PathIds.tenant(path.id).pipe(
        Effect.flatMap((id) =>
          Tenants.audit(id, {
            since: urlParams.since === undefined ? undefined : new Date(urlParams.since),
            limit: urlParams.limit
          })
        ),
        Effect.map((data) => ({ data })),
        Errors.refail
      )))

/**
 * Request id, body limit, one `Authorization` header and the contract's error bodies around the
 * admin router. Every answer is `nosniff` and `no-store` (tenants' data and fresh API keys).
 *
 * @since 0.1.0
 * @category middleware
 */
export const pipeline = (httpApp: HttpApp.Default): HttpApp.Default => {
  const app = httpApp as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = yield* RequestId.make
    const checked = Effect.zipRight(Errors.refail(Body.checkDeclaredLength(request)), RequestHeaders.checkUnambiguous(request))
    const response = yield* Errors.catchAll(Effect.zipRight(checked, app)).pipe(
      Body.withLimit,
      Effect.provideService(RequestId.RequestId, requestId)
    )
    return HttpServerResponse.setHeaders(response, {
      [RequestId.header]: requestId,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store"
    })
  })
}

/**
 * The channel's API with its handlers, token check and pipeline, for `HttpApiBuilder.serve`.
 *
 * @since 0.1.0
 * @category layers
 */
export const api = (options: Options): Layer.Layer<HttpApi.Api, never, Requirements> =>
  HttpApiBuilder.middleware(AdminApi, pipeline).pipe(
    Layer.provideMerge(
      HttpApiBuilder.api(AdminApi).pipe(Layer.provide(handlers), Layer.provide(authentication(options)))
    )
  )

/**
 * The channel served on the provided `HttpServer` (bind it to loopback on `ADMIN_PORT`).
 *
 * `Layer.fresh`: HttpApiBuilder keeps its router and middleware in layers that are memoized
 * per build; without a fresh build of its own, the channel would share them with the issuer
 * API served by the same process (its routes and pipeline would leak into each other).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<never, never, HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices | Requirements> =>
  Layer.fresh(HttpApiBuilder.serve().pipe(Layer.provide(api(options))))
