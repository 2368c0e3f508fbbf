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
import * as HttpCaching from "./HttpCaching.js"

const cors = { "access-control-allow-origin": "*", "cache-control": "no-cache" }

const json = (body: unknown, contentType = "application/json") =>
  HttpServerResponse.unsafeJson(body, { headers: { ...cors, "content-type": contentType } })

/** A public document with its ETag and freshness: 304 when the caller holds this version. */
const document = (body: unknown, maxAgeSeconds: number, contentType = "application/json") =>
  HttpCaching.respond(JSON.stringify(body), { contentType, maxAgeSeconds, headers: { "access-control-allow-origin": "*" } })

const notFound = (what: string) =>
  HttpServerResponse.unsafeJson(
    { error: { code: "route_not_found", message: `No ${what} here.`, request_id: null } },
    { status: 404, headers: cors }
  )

/**
 * `/tenants/:suffix/did.json`, `/tenants/:suffix/profile.json`, `/tenants/:suffix/status/:listId`.
 *
 * @since 0.1.0
 * @category layers
 */
export const identity = (
  freshness: HttpCaching.Freshness = HttpCaching.DEFAULT_FRESHNESS
): Layer.Layer<never, never, TenantStore | KeyVault | StatusSlotStore | Settings | Canonicalizer.Canonicalizer> =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<TenantStore | KeyVault | StatusSlotStore | Settings | Canonicalizer.Canonicalizer>()
      const documents = Effect.gen(function*() {
        const { suffix } = yield* HttpRouter.params
        const settings = yield* Settings
        return yield* Issuers.documents(settings.publicBaseUrl, suffix ?? "").pipe(Effect.orDie)
      }).pipe(Effect.provide(context))
      yield* router.get(
        "/tenants/:suffix/did.json",
        Effect.flatMap(documents, Option.match({
          onNone: () => Effect.succeed(notFound("DID document")),
          onSome: (d) => document(d.didDocument, freshness.identitySeconds, "application/did+ld+json")
        }))
      )
      yield* router.get(
        "/tenants/:suffix/profile.json",
        Effect.flatMap(documents, Option.match({
          onNone: () => Effect.succeed(notFound("issuer profile")),
          onSome: (d) => document(d.profile, freshness.identitySeconds)
        }))
      )
      yield* router.get(
        "/tenants/:suffix/status/:listId",
        Effect.gen(function*() {
          const { listId, suffix } = yield* HttpRouter.params
          if (suffix === undefined || !/^[0-9a-z]{26}$/.test(suffix) || listId === undefined || !/^\d{1,9}$/.test(listId)) {
            return notFound("status list")
          }
          const list = yield* StatusListPublisher.credential(`tnt_${suffix.toUpperCase()}` as TenantId, Number(listId)).pipe(
            Effect.orDie,
            Effect.provide(context)
          )
          return yield* Option.match(list, {
            onNone: () => Effect.succeed(notFound("status list")),
            onSome: (doc) => document(doc, freshness.statusListSeconds)
          })
        })
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
