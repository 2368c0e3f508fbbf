/**
 * The request pipeline of the issuer API, one HttpApi-level middleware around the router:
 *
 * 1. request id (`req_` + ULID), in `X-Request-Id` on every response;
 * 2. body limit: a declared `Content-Length` over 40 MB is 413 at once, and every read of the
 *    body is capped at 40 MB;
 * 3. authentication (`Auth.authenticate` with the `Authorization` header and the socket's
 *    address) for `/v1` routes except the OpenAPI document and its viewer;
 * 4. rate limit per tenant (`RateLimiter.take`), `RateLimit-Policy` and `RateLimit` on every
 *    authenticated response, 429 `rate_limited` with `Retry-After`; without a key, a limit per
 *    client address (`ClientLimiter`, in the process);
 * 5. idempotency of POSTs (`Idempotency`);
 * 6. the router and the handler (the `Authentication` middleware hands the principal over and
 *    reports the matched route template);
 * 7. the audit record of the call.
 *
 * Every failure on the way, from any step, the router (unknown route) or a handler, is answered
 * here with the contract's body (`Errors.render`), so idempotency stores and audit records the
 * status the client actually receives.
 *
 * Why one middleware around the router rather than HttpApi's per-endpoint middlewares: those
 * run before a handler but cannot wrap it, and idempotency must both short-circuit (replay) and
 * capture the encoded answer; the order auth → rate limit → idempotency then puts all three
 * here. Unknown `/v1` routes are authenticated first, so they reveal nothing to anonymous
 * callers.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { AuditLog } from "@sigil/service/Access/AuditLog"
import * as Auth from "@sigil/service/Access/Auth"
import type * as ClientLimiter from "@sigil/service/Access/ClientLimiter"
import type { IdempotencyStore } from "@sigil/service/Access/IdempotencyStore"
import type { Plan } from "@sigil/service/Tenants/Plans"
import { type Decision, type Policy, RateLimiter } from "@sigil/service/Access/RateLimiter"
import type { TenantStore } from "@sigil/service/Tenants/TenantStore"
import { Effect, Layer, Option } from "effect"
import * as ApiErrors from "./ApiErrors.js"
import * as Audit from "./Audit.js"
import { CurrentHandoff, type Handoff } from "./Authentication.js"
import * as Body from "./Body.js"
import * as Caller from "./Caller.js"
import * as Errors from "./Errors.js"
import * as Idempotency from "./Idempotency.js"
import { IssuerApi } from "./IssuerApi.js"
import * as RateLimitHeaders from "./RateLimitHeaders.js"
import * as RequestHeaders from "./RequestHeaders.js"
import * as RequestId from "./RequestId.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The rate-limit policy of a plan; default `RateLimitHeaders.policyFor` (the plan table). */
  readonly rateLimitPolicy?: ((plan: Plan) => Policy) | undefined
  /**
   * The hosts this server answers for (e.g. the host of `PUBLIC_BASE_URL`): a request whose
   * target names another host in absolute form (`GET http://elsewhere/v1/…`) is an unknown
   * route. Undefined: any host (the path decides).
   */
  readonly hosts?: ReadonlyArray<string> | undefined
  /**
   * The per-client limit of everything callable without a key (pages, public documents, the
   * API's description): a refused request is 429 `rate_limited` with `Retry-After`. Undefined:
   * no limit.
   */
  readonly publicLimit?: ClientLimiter.ClientLimiter | undefined
  /**
   * A reverse proxy in front appends the client's address to `X-Forwarded-For`: take the client
   * from its last entry (the one the proxy wrote; earlier ones are the client's own claims).
   * Off: the socket's peer is the client. Used for the public limit and IP allowlists.
   */
  readonly trustProxy?: boolean | undefined
}

/**
 * The client's address: the socket's peer, or behind a trusted proxy the last entry of
 * `X-Forwarded-For`.
 *
 * @since 0.1.0
 * @category routing
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean | undefined): string | undefined => {
  if (trustProxy === true) {
    const forwarded = request.headers["x-forwarded-for"]
    const last = forwarded?.split(",").at(-1)?.trim()
    if (last !== undefined && last !== "") return last
  }
  return Option.getOrUndefined(request.remoteAddress)
}

/**
 * The path a request targets, whatever the form of its request line: origin form (`/v1/…`) or
 * absolute form (`http://host/v1/…`, which RFC 9112 says a server must accept). Routing,
 * authentication, rate limits and audit all go by this path, so none depends on the form.
 * `foreign` when the absolute form names a host this server does not answer for.
 *
 * @since 0.1.0
 * @category routing
 */
export const target = (
  url: string,
  hosts: ReadonlyArray<string> | undefined
): { readonly path: string; readonly foreign: boolean } => {
  if (url.startsWith("/")) return { path: url.split("?")[0] ?? url, foreign: false }
  try {
    const parsed = new URL(url)
    const foreign = hosts !== undefined && !hosts.some((h) => h.toLowerCase() === parsed.hostname.toLowerCase())
    return { path: parsed.pathname, foreign }
  } catch {
    return { path: url, foreign: true }
  }
}

/**
 * Paths under `/v1` that need no key: the API's own description.
 *
 * @since 0.1.0
 * @category constants
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/v1/openapi.json", "/v1/docs"])

/**
 * The path as the router matches it: percent-encoding decoded, repeated slashes merged, case
 * folded. Whether a request needs a key is decided on this form, so `/V1/…`, `//v1/…` or
 * `/%761/…` (which the router takes for `/v1/…`) are authenticated like `/v1/…`.
 *
 * @since 0.1.0
 * @category routing
 */
export const routed = (path: string): string => {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // Not valid percent-encoding: the router will not match it as a route either.
  }
  return decoded.replace(/\/{2,}/g, "/").toLowerCase()
}

const requiresKey = (raw: string) => {
  const path = routed(raw)
  return (path === "/v1" || path.startsWith("/v1/")) && !PUBLIC_PATHS.has(path)
}

// Audit rows of unmatched routes carry the path; a path can be anything, so only its start.
const routeOf = (handoff: Handoff, path: string) => handoff.route ?? (path.length > 256 ? `${path.slice(0, 256)}…` : path)

type Services = TenantStore | RateLimiter | IdempotencyStore | AuditLog

type App = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>

// 3. The key: its principal, or the contract's 401 / 403.
const authenticate = (request: HttpServerRequest.HttpServerRequest, options: Options) =>
  Errors.refail(Auth.authenticate({
    authorization: request.headers.authorization,
    address: clientAddress(request, options.trustProxy)
  }))

// 4. One token of the tenant's bucket.
const takeToken = (principal: Auth.Principal, policy: Policy, now: Date) =>
  Effect.flatMap(RateLimiter, (limiter) => limiter.take(principal.tenant.id, policy, now))

const refuse = (principal: Auth.Principal, policy: Policy, decision: Decision) =>
  Errors.fail(
    ApiErrors.RateLimited,
    `Too many requests: the ${principal.tenant.plan} plan allows ${policy.limit} per ${policy.windowSeconds} s; retry in ${decision.retryAfterSeconds} s.`
  )

// 7. The audit row.
const audit = (request: HttpServerRequest.HttpServerRequest, path: string, handoff: Handoff, status: number, at: Date) =>
  Effect.flatMap(RequestId.RequestId, (requestId) =>
    Audit.record({ requestId, principal: handoff.principal, method: request.method, route: routeOf(handoff, path), status, at }))

const authenticated = (app: App, request: HttpServerRequest.HttpServerRequest, path: string, options: Options) =>
  Effect.gen(function*() {
    const now = yield* Caller.now
    const principal = yield* authenticate(request, options)
    const policy = (options.rateLimitPolicy ?? RateLimitHeaders.policyFor)(principal.tenant.plan)
    const decision = yield* takeToken(principal, policy, now)
    // 5. Idempotency (POSTs with a key) around 6.
    const handoff: Handoff = { principal, route: undefined }
    // 6. The router and the handler, every failure answered, so that 5 and 7 see the status.
    const handled = Errors.catchAll(Effect.provideService(app, CurrentHandoff, handoff))
    const admitted: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, Services | HttpServerRequest.HttpServerRequest> =
      decision.allowed ? Idempotency.run(request, principal, now, handled) : refuse(principal, policy, decision)
    const response = yield* Errors.catchAll(admitted).pipe(
      Effect.onInterrupt(() => audit(request, path, handoff, Audit.CLIENT_CLOSED, now))
    )
    yield* audit(request, path, handoff, response.status, now)
    return HttpServerResponse.setHeaders(response, {
      ...RateLimitHeaders.headers(policy, decision),
      ...(decision.allowed ? {} : RateLimitHeaders.retryAfter(decision)),
      // A tenant's data: no shared cache may keep it (the contract's answers are never cacheable).
      "cache-control": "no-store"
    })
  })

// Without a key: one token of the client's bucket, or 429 with when to come back.
const anonymous = (app: App, request: HttpServerRequest.HttpServerRequest, limiter: ClientLimiter.ClientLimiter | undefined, options: Options): App =>
  limiter === undefined ? app : Effect.flatMap(Caller.now, (now) => {
    const decision = limiter.take(clientAddress(request, options.trustProxy) ?? "unknown", now)
    if (decision.allowed) return app
    return Effect.map(
      Errors.catchAll(Errors.fail(
        ApiErrors.RateLimited,
        `Too many requests from this address: ${limiter.policy.limit} per minute without an API key; retry in ${decision.retryAfterSeconds} s.`
      )),
      (response) => HttpServerResponse.setHeaders(response, { ...RateLimitHeaders.headers(limiter.policy, decision), ...RateLimitHeaders.retryAfter(decision) })
    )
  })

/**
 * The middleware as a function of the app it wraps.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (options: Options = {}) => (httpApp: HttpApp.Default): HttpApp.Default<never, Services> => {
  // HttpApp.Default claims `never` errors, but the router fails (unknown routes, handler
  // errors, HttpApi's decode errors): this is where they are answered.
  const app = httpApp as App
  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    // 1. The request id, for every answer.
    const requestId = yield* RequestId.make
    const { foreign, path } = target(request.url, options.hosts)
    const routed: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, Services | HttpServerRequest.HttpServerRequest> =
      foreign
        ? Errors.fail(ApiErrors.RouteNotFound, `No operation ${request.method} ${path} on this host.`)
        : requiresKey(path)
        ? authenticated(app, request, path, options)
        : anonymous(app, request, options.publicLimit, options)
    // 2. A declared length over the limit, or a repeated Authorization or Idempotency-Key, is
    // refused before anything else; reads are capped.
    const checked = Effect.zipRight(Errors.refail(Body.checkDeclaredLength(request)), RequestHeaders.checkUnambiguous(request))
    const response = yield* Errors.catchAll(Effect.zipRight(checked, routed)).pipe(
      Body.withLimit,
      Effect.provideService(RequestId.RequestId, requestId)
    )
    return HttpServerResponse.setHeaders(response, { [RequestId.header]: requestId, "x-content-type-options": "nosniff" })
  })
}

/**
 * The pipeline, installed around the issuer API's router.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<never, never, Services> =>
  HttpApiBuilder.middleware(IssuerApi, Effect.succeed(make(options)), { withContext: true })
