/**
 * The server composes both APIs in one layer graph, each on its own HttpServer: their routers
 * and pipelines must not leak into each other (HttpApiBuilder memoizes them per build).
 */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import * as MemoryStores from "@sigil/service/MemoryStores"
import * as Settings from "@sigil/service/Settings"
import * as WebhookSender from "@sigil/service/Webhooks/WebhookSender"
import { Deferred, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { createServer } from "node:http"
import { expect, it } from "vitest"
import * as AdminHttp from "../src/AdminHttp.js"
import * as IssuerHttp from "../src/IssuerHttp.js"

const listening = <E, R>(layer: Layer.Layer<never, E, R>, address: Deferred.Deferred<string>) =>
  Layer.mergeAll(
    layer,
    Layer.effectDiscard(HttpServer.addressWith((a) => Deferred.succeed(address, a._tag === "TcpAddress" ? `http://127.0.0.1:${a.port}` : "")))
  ).pipe(Layer.provide(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })))

it("serves the issuer API and the administrative channel side by side, isolated", async () => {
  const program = Effect.gen(function*() {
    const issuer = yield* Deferred.make<string>()
    const admin = yield* Deferred.make<string>()
    const scope = yield* Scope.make()
    const app = Layer.mergeAll(
      listening(IssuerHttp.layer(), issuer),
      listening(AdminHttp.layer({ token: Redacted.make("t0ken") }), admin)
    ).pipe(
      Layer.provide(Layer.mergeAll(
        MemoryStores.layer,
        WebhookSender.layerMemory(),
        Settings.layer({
          publicBaseUrl: "http://localhost:8080",
          chainFor: () => "base-sepolia",
          cursorKey: Redacted.make(new Uint8Array(32)),
          allowPrivateWebhookUrls: true
        })
      ))
    )
    yield* Layer.buildWithScope(app, scope)
    return { issuer: yield* Deferred.await(issuer), admin: yield* Deferred.await(admin), scope }
  })
  const { admin, issuer, scope } = await Effect.runPromise(program)
  try {
    const get = async (url: string, token?: string) => {
      const r = await fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
      return { status: r.status, body: await r.json() as any }
    }
    expect(await get(`${issuer}/v1/tenants/me`)).toMatchObject({ status: 401, body: { error: { code: "api_key_missing" } } })
    expect(await get(`${issuer}/admin/tenants/tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV`, "t0ken")).toMatchObject({
      status: 404,
      body: { error: { code: "route_not_found" } }
    })
    expect(await get(`${admin}/v1/tenants/me`, "t0ken")).toMatchObject({ status: 404, body: { error: { code: "route_not_found" } } })
    expect(await get(`${admin}/v1/openapi.json`, "t0ken")).toMatchObject({ status: 404 })
    expect(await get(`${admin}/admin/tenants/tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV`, "t0ken")).toMatchObject({
      status: 404,
      body: { error: { code: "tenant_not_found" } }
    })
    expect((await get(`${issuer}/v1/openapi.json`)).status).toBe(200)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
})
