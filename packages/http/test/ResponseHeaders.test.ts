/**
 * Headers and pages (issue #18, defect 7):
 *
 * - a URL over 16 KB, and any request Node's parser refuses, is answered with the contract's
 *   error body and an `X-Request-Id` (Node's own answer is an empty 431 or 400);
 * - `/v1/docs` carries a Content-Security-Policy that allows its one inline script by hash and
 *   nothing from elsewhere (its rendering under that policy in Chromium:
 *   packages/server/test/browser/DocsPage.test.ts);
 * - every issuer-API answer is `nosniff`; authenticated ones `no-store`.
 */
import { createHash } from "node:crypto"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { expectError } from "../testkit/blackbox/issuerApiSuite.js"
import { forFile, type Reply } from "../testkit/blackbox/harness.js"

/** Writes `text` on a new connection and parses the one answer (the server closes after it). */
const rawRequest = (baseUrl: string, text: string) =>
  new Promise<Reply>((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname)
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", reject)
    socket.on("close", () => {
      const answer = Buffer.concat(chunks).toString("utf8")
      const [head = "", body = ""] = answer.split("\r\n\r\n")
      const [statusLine, ...lines] = head.split("\r\n")
      const headers = new Headers()
      for (const line of lines) {
        const i = line.indexOf(":")
        headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim())
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? "")?.[1]), headers, text: body, body: body === "" ? undefined : JSON.parse(body) })
    })
    socket.write(text)
  })

describe("headers and pages", () => {
  const file = forFile()

  it("a URL over 16 KB: 431 request_header_fields_too_large with the error body, on both channels", async () => {
    for (const base of [file.h.baseUrl, file.h.adminUrl]) {
      const reply = await rawRequest(base, `GET /v1/batches?cursor=${"x".repeat(17 * 1024)} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${file.tenant.key}\r\n\r\n`)
      expectError(reply, 431, "request_header_fields_too_large")
      expect(reply.headers.get("x-content-type-options")).toBe("nosniff")
    }
    // Through an ordinary client too, with a long query.
    const fetched = await file.h.request("GET", `/v1/batches?status=${"p".repeat(20_000)}`, { key: file.tenant.key })
    expectError(fetched, 431, "request_header_fields_too_large")
    // Under the limit, the API answers as usual.
    const fine = await file.h.request("GET", `/v1/batches?cursor=${"x".repeat(8 * 1024)}`, { key: file.tenant.key })
    expect(fine.status).toBe(400)
  })

  it("a request that is not HTTP: 400 malformed_request with the error body", async () => {
    for (const garbage of ["HELLO\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", "GET /v1/batches HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"]) {
      const reply = await rawRequest(file.h.baseUrl, garbage)
      expectError(reply, 400, "malformed_request")
    }
  })

  it("/v1/docs: a Content-Security-Policy allowing its inline script by hash, and nothing from elsewhere", async () => {
    const docs = await file.h.request("GET", "/v1/docs")
    expect(docs.status).toBe(200)
    const policy = docs.headers.get("content-security-policy")
    expect(policy).not.toBeNull()
    const directives = new Map(policy!.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/)
      return [name!, values] as const
    }))
    expect(directives.get("default-src")).toEqual(["'none'"])
    expect(directives.get("frame-ancestors")).toEqual(["'none'"])
    expect(directives.get("connect-src")).toEqual(["'self'"])
    // Exactly the page's executable inline scripts, by hash; no 'unsafe-inline', no other origin.
    const scripts = [...docs.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) =>
      `'sha256-${createHash("sha256").update(m[1]!, "utf8").digest("base64")}'`
    )
    expect(scripts.length).toBeGreaterThan(0)
    expect(directives.get("script-src")).toEqual(scripts)
    expect(docs.headers.get("x-content-type-options")).toBe("nosniff")
  })

  it("nosniff on every answer; no-store on authenticated ones", async () => {
    const authenticated = await file.h.request("GET", "/v1/tenants/me", { key: file.tenant.key })
    expect(authenticated.headers.get("x-content-type-options")).toBe("nosniff")
    expect(authenticated.headers.get("cache-control")).toBe("no-store")
    const refused = await file.h.request("GET", "/v1/tenants/me")
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff")
    const spec = await file.h.request("GET", "/v1/openapi.json")
    expect(spec.headers.get("x-content-type-options")).toBe("nosniff")
  })
})
