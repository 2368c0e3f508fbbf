/**
 * The public documents a verifier fetches, outside `/v1` and without an API key: each tenant's
 * DID document and Blockcerts issuer profile (decisions §3), its signed status lists
 * (decisions §1), and the embedded devnet's JSON-RPC (decisions §7). They are served with
 * `Access-Control-Allow-Origin: *` so verifiers in browsers can read them, with an ETag and a
 * freshness (`HttpCaching`): a verifier that asks again gets an empty 304.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type * as Canonicalizer from "@sigil/core/Canonicalizer"
import type { TenantId } from "@sigil/core/Ids"
import * as Issuers from "@sigil/service/Tenants/Issuers"
import type { KeyVault } from "@sigil/service/Tenants/KeyVault"
import { Settings } from "@sigil/service/Settings"
import type { StatusSlotStore } from "@sigil/service/Credentials/StatusSlotStore"
import * as StatusListPublisher from "@sigil/service/Credentials/StatusListPublisher"
import type { TenantStore } from "@sigil/service/Tenants/TenantStore"
import { Effect, Layer, Option } from "effect"
import * as Pipeline from "@sigil/http/Pipeline"
import * as HttpCaching from "./HttpCaching.js"
import * as PublicCache from "./PublicCache.js"

const cors = { "access-control-allow-origin": "*", "cache-control": "no-cache" }

const json = (body: unknown, contentType = "application/json") =>
  HttpServerResponse.unsafeJson(body, { headers: { ...cors, "content-type": contentType } })

/** A public document with its ETag and freshness, kept by `PublicCache` under its tenant. */
const document = (tenantId: TenantId, body: unknown, maxAgeSeconds: number, contentType = "application/json") =>
  HttpCaching.answer(JSON.stringify(body), { contentType, maxAgeSeconds, tenantId, headers: { "access-control-allow-origin": "*" } })

const notFound = (what: string): PublicCache.Answer => ({
  status: 404,
  body: JSON.stringify({ error: { code: "route_not_found", message: `No ${what} here.`, request_id: null } }),
  contentType: "application/json",
  headers: cors,
  tenantId: undefined
})

/** The tenant a DID suffix names (26 lowercase ULID characters), if it is one. */
const tenantOf = (suffix: string | undefined): TenantId | undefined =>
  suffix !== undefined && /^[0-9a-z]{26}$/.test(suffix) ? `tnt_${suffix.toUpperCase()}` as TenantId : undefined

/** The request's path: what the cache files an answer under. */
const pathOf = Effect.map(HttpServerRequest.HttpServerRequest, (request) => Pipeline.target(request.url, undefined).path)

/**
 * `/tenants/:suffix/did.json`, `/tenants/:suffix/profile.json`, `/tenants/:suffix/status/:listId`.
 *
 * @since 0.1.0
 * @category layers
 */
export const identity = (
  freshness: HttpCaching.Freshness = HttpCaching.DEFAULT_FRESHNESS
): Layer.Layer<never, never, TenantStore | KeyVault | StatusSlotStore | Settings | Canonicalizer.Canonicalizer | PublicCache.PublicCache> =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<TenantStore | KeyVault | StatusSlotStore | Settings | Canonicalizer.Canonicalizer | PublicCache.PublicCache>()
      const identityDocument = (
        what: string,
        pick: (d: { readonly didDocument: unknown; readonly profile: unknown; readonly tenant: { readonly id: TenantId } }) => PublicCache.Answer
      ) =>
        Effect.gen(function*() {
          const { suffix } = yield* HttpRouter.params
          const tenantId = tenantOf(suffix)
          return yield* PublicCache.serve(
            yield* pathOf,
            tenantId === undefined ? Effect.succeed(notFound(what)) : Effect.gen(function*() {
              const settings = yield* Settings
              const found = yield* Issuers.documents(settings.publicBaseUrl, suffix ?? "").pipe(Effect.orDie)
              return Option.match(found, { onNone: () => notFound(what), onSome: pick })
            })
          )
        }).pipe(Effect.provide(context))
      yield* router.get(
        "/tenants/:suffix/did.json",
        identityDocument("DID document", (d) => document(d.tenant.id, d.didDocument, freshness.identitySeconds, "application/did+ld+json"))
      )
      yield* router.get(
        "/tenants/:suffix/profile.json",
        identityDocument("issuer profile", (d) => document(d.tenant.id, d.profile, freshness.identitySeconds))
      )
      yield* router.get(
        "/tenants/:suffix/status/:listId",
        Effect.gen(function*() {
          const { listId } = yield* HttpRouter.params
          const tenantId = tenantOf((yield* HttpRouter.params).suffix)
          return yield* PublicCache.serve(
            yield* pathOf,
            tenantId === undefined || listId === undefined || !/^\d{1,9}$/.test(listId)
              ? Effect.succeed(notFound("status list"))
              : Effect.map(
                StatusListPublisher.credential(tenantId, Number(listId)).pipe(Effect.orDie),
                Option.match({
                  onNone: () => notFound("status list"),
                  onSome: (doc) => document(tenantId, doc, freshness.statusListSeconds)
                })
              )
          )
        }).pipe(Effect.provide(context))
      )
    })
  )

/**
 * `POST /devnet/rpc`: standard Ethereum JSON-RPC of the embedded devnet (read methods and
 * `eth_sendRawTransaction`; the devnet refuses the rest).
 *
 * @since 0.1.0
 * @category layers
 */
export const devnetRpc = (handle: (body: unknown) => Effect.Effect<unknown>): Layer.Layer<never> =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const respond = Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const body = yield* Effect.orElseSucceed(request.json, () => undefined)
        if (body === undefined) {
          return json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })
        }
        const answer = yield* handle(body)
        return answer === undefined ? HttpServerResponse.empty({ status: 204, headers: cors }) : json(answer)
      })
      yield* router.post("/devnet/rpc", respond)
      yield* router.options(
        "/devnet/rpc",
        Effect.succeed(HttpServerResponse.empty({
          status: 204,
          headers: { ...cors, "access-control-allow-methods": "POST", "access-control-allow-headers": "content-type" }
        }))
      )
    })
  )
