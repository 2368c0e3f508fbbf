/**
 * Authentication as the contract declares it and as handlers receive it.
 *
 * The key is checked by the request pipeline (`Pipeline`), before rate limiting and
 * idempotency, which need the tenant. This middleware is the hand-over inside the router: it
 * declares the bearer scheme (so OpenAPI documents it on every operation), gives handlers the
 * pipeline's principal as `Caller`, and tells the pipeline which route template matched (the
 * audit log records templates, not paths).
 *
 * @since 0.1.0
 */
import { HttpApiMiddleware, HttpApiSecurity, HttpRouter, OpenApi } from "@effect/platform"
import type { Principal } from "@sigil/service/Access/Auth"
import { Context, Effect, Layer, Option } from "effect"
import { Caller } from "./Caller.js"

/**
 * What the pipeline knows about an authenticated request, shared with the router's side.
 *
 * @since 0.1.0
 * @category models
 */
export interface Handoff {
  readonly principal: Principal
  /** The route template the router matched (`/v1/batches/:id`); set by the middleware. */
  route: string | undefined
}

/**
 * @since 0.1.0
 * @category tags
 */
export class CurrentHandoff extends Context.Tag("@sigil/http/Authentication/Handoff")<CurrentHandoff, Handoff>() {}

/**
 * The bearer scheme: `Authorization: Bearer sigil_test_…` or `sigil_live_…`.
 *
 * @since 0.1.0
 * @category security
 */
export const bearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(OpenApi.Format, "sigil_test_… | sigil_live_…"),
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "An API key: `sigil_test_` (test environment) or `sigil_live_` (live environment) followed by base58 of 32 random bytes. Each key belongs to one tenant and one environment, which scope every request. Keys are created and revoked through the administrative channel."
  )
)

/**
 * @since 0.1.0
 * @category tags
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@sigil/http/Authentication", {
  provides: Caller,
  security: { bearer }
}) {}

/**
 * The middleware: hands the pipeline's principal to the handler. The key itself was checked
 * already; reaching a route without the pipeline is a wiring defect.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Authentication> = Layer.succeed(Authentication, {
  bearer: () =>
    Effect.gen(function*() {
      const handoff = yield* Effect.serviceOption(CurrentHandoff)
      if (Option.isNone(handoff)) {
        return yield* Effect.dieMessage("The issuer API was served without its request pipeline (IssuerHttp.layer).")
      }
      handoff.value.route = (yield* HttpRouter.RouteContext).route.path
      return handoff.value.principal
    })
})
