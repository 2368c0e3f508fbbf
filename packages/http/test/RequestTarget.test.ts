/**
 * Authentication, rate limits and audit do not depend on the form of the request line
 * (issue #18, defect 1): a request target in absolute form (`GET http://host/v1/… HTTP/1.1`,
 * which RFC 9112 says a server must accept) goes through the same pipeline as the origin form,
 * and one naming a host the server does not answer for is an unknown route.
 */
import * as MemoryStores from "@sigil/service/MemoryStores"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Harness, start, type Tenant } from "../testkit/blackbox/harness.js"
import * as Pipeline from "../src/Pipeline.js"

/** Sends one request with a hand-written request line; resolves with the status and the body. */
const raw = (baseUrl: string, requestLine: string, headers: Record<string, string>) =>
  new Promise<{ readonly status: number; readonly body: any }>((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname === "localhost" ? "127.0.0.1" : hostname)
    let text = ""
    socket.on("data", (chunk) => (text += chunk))
    socket.on("error", reject)
    socket.on("end", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
      const body = text.slice(text.indexOf("\r\n\r\n") + 4)
      resolve({ status, body: body.startsWith("{") ? JSON.parse(body) : body })
    })
    const lines = [requestLine, ...Object.entries({ ...headers, connection: "close" }).map(([k, v]) => `${k}: ${v}`)]
    socket.end(`${lines.join("\r\n")}\r\n\r\n`)
  })

describe("the request target's form", () => {
  let h: Harness
  let tenant: Tenant
  beforeAll(async () => {
    h = await start(MemoryStores.layer, { issuer: { hosts: ["localhost", "127.0.0.1"] } })
    tenant = await h.tenant("starter")
  })
  afterAll(() => h.close())

  it("absolute form: authenticated like the origin form, never served without the pipeline", async () => {
    const port = new URL(h.baseUrl).port
    const anonymous = await raw(h.baseUrl, `GET http://localhost:${port}/v1/batches HTTP/1.1`, { host: `localhost:${port}` })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error.code).toBe("api_key_missing")
    const keyed = await raw(h.baseUrl, `GET http://localhost:${port}/v1/batches?limit=5 HTTP/1.1`, {
      host: `localhost:${port}`,
      authorization: `Bearer ${tenant.key}`
    })
    expect(keyed.status).toBe(200)
    expect(keyed.body.data).toEqual([])
    expect(h.logs.filter((line) => line.includes("without its request pipeline"))).toEqual([])
  })

  it("absolute form naming another host: an unknown route, before anything else", async () => {
    const answer = await raw(h.baseUrl, "GET http://elsewhere.example/v1/batches HTTP/1.1", {
      host: "elsewhere.example",
      authorization: `Bearer ${tenant.key}`
    })
    expect(answer.status).toBe(404)
    expect(answer.body.error.code).toBe("route_not_found")
  })

  it("target: the path of either form, and whether the host is foreign", () => {
    expect(Pipeline.target("/v1/batches?limit=2", ["a.example"])).toEqual({ path: "/v1/batches", foreign: false })
    expect(Pipeline.target("http://A.example:8080/v1/x?y", ["a.example"])).toEqual({ path: "/v1/x", foreign: false })
    expect(Pipeline.target("http://b.example/v1/x", ["a.example"])).toEqual({ path: "/v1/x", foreign: true })
    expect(Pipeline.target("http://b.example/v1/x", undefined)).toEqual({ path: "/v1/x", foreign: false })
    expect(Pipeline.target("*", ["a.example"]).foreign).toBe(true)
  })
})
