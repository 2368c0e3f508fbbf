/**
 * The SSRF guard of webhook deliveries (decisions §5) and the POST itself.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as WebhookSenderLive from "../src/WebhookSenderLive.js"

const resolveTo = (...addresses: ReadonlyArray<string>) => async () =>
  addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))

const listen = (handler: (req: IncomingMessage, body: string) => number | undefined) =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        const status = handler(req, body)
        if (status !== undefined) res.writeHead(status).end()
      })
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }))
  })

describe("WebhookSenderLive", () => {
  it("blocks private, loopback, link-local and reserved addresses, IPv4 and IPv6", () => {
    for (const address of ["127.0.0.1", "10.0.0.8", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::5", "::ffff:127.0.0.1", "::ffff:10.1.1.1", "ff02::1"]) {
      assert.isTrue(WebhookSenderLive.isBlocked(address), address)
    }
    for (const address of ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      assert.isFalse(WebhookSenderLive.isBlocked(address), address)
    }
    assert.isTrue(WebhookSenderLive.isBlocked("not-an-address"))
  })

  it.effect("refuses http, literal internal addresses and names that resolve to them", () =>
    Effect.gen(function*() {
      const transport = WebhookSenderLive.make({ allowPrivate: false, resolve: resolveTo("8.8.8.8") })
      const refused = (url: string) => Effect.flip(transport.checkUrl(url))
      assert.include((yield* refused("http://hooks.example.org/in")).message, "https")
      assert.include((yield* refused("https://127.0.0.1/in")).message, "127.0.0.1")
      assert.include((yield* refused("https://[::1]/in")).message, "::1")
      assert.include((yield* refused("https://169.254.169.254/latest/meta-data")).message, "169.254.169.254")
      yield* transport.checkUrl("https://hooks.example.org/in")
      const internal = WebhookSenderLive.make({ allowPrivate: false, resolve: resolveTo("8.8.8.8", "10.0.0.7") })
      assert.include((yield* Effect.flip(internal.checkUrl("https://mixed.example.org/"))).message, "10.0.0.7")
      const nowhere = WebhookSenderLive.make({ allowPrivate: false, resolve: () => Promise.reject(new Error("ENOTFOUND")) })
      assert.include((yield* Effect.flip(nowhere.checkUrl("https://nowhere.invalid/"))).message, "does not resolve")
    }))

  it.effect("checks again at connect time: a name that rebinds to loopback is refused before any connection", () =>
    Effect.gen(function*() {
      let calls = 0
      const rebinding = async () => [{ address: calls++ === 0 ? "8.8.8.8" : "127.0.0.1", family: 4 }]
      const transport = WebhookSenderLive.make({ allowPrivate: false, resolve: rebinding })
      const error = yield* Effect.flip(transport.post("https://rebind.example.org/in", {}, "{}"))
      assert.strictEqual(error._tag, "DeliveryFailed")
      assert.include(error.message, "refused addresses")
      assert.strictEqual(calls, 2)
    }))

  it.live("with SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS, posts to a local receiver and reports its status", () =>
    Effect.gen(function*() {
      const received: Array<{ headers: IncomingMessage["headers"]; body: string }> = []
      const { server, url } = yield* Effect.promise(() => listen((req, body) => (received.push({ headers: req.headers, body }), 204)))
      const transport = WebhookSenderLive.make({ allowPrivate: true })
      yield* transport.checkUrl(url)
      const response = yield* transport.post(url, { "content-type": "application/json", "webhook-id": "evt_1" }, "{\"a\":1}")
      assert.strictEqual(response.status, 204)
      assert.strictEqual(received[0]!.body, "{\"a\":1}")
      assert.strictEqual(received[0]!.headers["webhook-id"], "evt_1")
      server.close()
    }))

  it.live("gives up after the timeout when the receiver never answers", () =>
    Effect.gen(function*() {
      const { server, url } = yield* Effect.promise(() => listen(() => undefined))
      const transport = WebhookSenderLive.make({ allowPrivate: true, timeoutMs: 300 })
      const error = yield* Effect.flip(transport.post(url, {}, "{}"))
      assert.strictEqual(error._tag, "DeliveryFailed")
      assert.include(error.message, "no answer")
      server.closeAllConnections()
      server.close()
    }))
})
