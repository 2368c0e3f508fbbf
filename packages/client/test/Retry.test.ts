/**
 * The retry rules of the contract's guidance, against a local server that answers from a
 * script: 429 waits `Retry-After`, 5xx / network failures back off, other 4xx are final, the
 * retries are bounded, and a POST keeps one Idempotency-Key across its retries.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createClient, SigilError } from "../src/PromiseClient.js"
import type * as Retry from "../src/Retry.js"

interface Seen {
  readonly method: string
  readonly url: string
  readonly key: string | undefined
  readonly authorization: string | undefined
  readonly at: number
  readonly body: string
}

type Answer =
  | { readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string> }
  | "hang-up"

let server: Server
let baseUrl: string
let script: Array<Answer> = []
let fallback: Answer
let seen: Array<Seen> = []

const requestId = () => `req_${Math.random().toString(36).slice(2)}`
const errorBody = (code: string, message = code) => ({ error: { code, message, request_id: requestId() } })

const batch = (id = "bat_01HZZZZZZZZZZZZZZZZZZZZZZZ") => ({
  id,
  status: "pending",
  credentials_count: 1,
  created_at: "2026-06-30T00:00:00.000Z",
  environment: "test",
  anchored_at: null,
  merkle_root: null,
  anchor_transaction: null,
  credentials: null,
  error: null
})

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (c) => (text += c))
    request.on("end", () => resolve(text))
  })

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await read(request)
    seen.push({
      method: request.method!,
      url: request.url!,
      key: request.headers["idempotency-key"] as string | undefined,
      authorization: request.headers.authorization,
      at: Date.now(),
      body
    })
    const answer = script.shift() ?? fallback
    if (answer === "hang-up") {
      request.socket.destroy()
      return
    }
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
    response.end(answer.body === undefined ? "" : JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

beforeEach(() => {
  script = []
  seen = []
  fallback = { status: 200, body: batch() }
})

const credential = {
  recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name: "Ada Lovelace" },
  achievement: { name: "Certificate", description: "Completed." },
  issuanceDate: "2026-06-30T00:00:00Z"
}

const fast = (retries: Array<Retry.RetryInfo>, extra: Retry.Options = {}): Retry.Options => ({
  base: 20,
  cap: 100,
  jitter: false,
  onRetry: (r) => retries.push(r),
  ...extra
})

describe("retry policy", () => {
  it("5xx: retries with exponential backoff and answers the eventual success", async () => {
    script = [
      { status: 503, body: { message: "unavailable" } },
      { status: 500, body: errorBody("internal_error") },
      { status: 502 },
      { status: 202, body: batch() }
    ]
    const retries: Array<Retry.RetryInfo> = []
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast(retries) })
    const created = await sigil.batches.create({ credentials: [credential] })
    expect(created.batch.id).toBe(batch().id)
    expect(seen).toHaveLength(4)
    expect(retries.map((r) => [r.reason, r.status, r.delayMillis])).toEqual([
      ["server_error", 503, 20],
      ["server_error", 500, 40],
      ["server_error", 502, 80]
    ])
    // The waits really happened, and grew.
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i]!.at)
    expect(gaps[0]).toBeGreaterThanOrEqual(18)
    expect(gaps[2]).toBeGreaterThanOrEqual(75)
    expect(seen.every((s) => s.authorization === "Bearer sigil_test_x")).toBe(true)
  })

  it("a POST keeps one Idempotency-Key (and one body) across its retries; each logical POST gets its own", async () => {
    script = [{ status: 503 }, "hang-up", { status: 202, body: batch() }, { status: 202, body: batch() }]
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast([]) })
    const first = await sigil.batches.create({ credentials: [credential] })
    const second = await sigil.batches.create({ credentials: [credential] })
    expect(seen).toHaveLength(4)
    const keys = seen.map((s) => s.key)
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
    expect(keys[2]).toBe(keys[0])
    expect(new Set(seen.slice(0, 3).map((s) => s.body)).size).toBe(1)
    expect(keys[3]).not.toBe(keys[0])
    expect(first.idempotencyKey).toBe(keys[0])
    expect(second.idempotencyKey).toBe(keys[3])
  })

  it("a caller's Idempotency-Key is sent as given", async () => {
    script = [{ status: 500, body: errorBody("internal_error") }, { status: 202, body: batch() }]
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast([]) })
    await sigil.batches.create({ credentials: [credential] }, { idempotencyKey: "file-1-chunk-0" })
    expect(seen.map((s) => s.key)).toEqual(["file-1-chunk-0", "file-1-chunk-0"])
  })

  it("429: waits at least Retry-After before retrying", async () => {
    script = [
      { status: 429, body: errorBody("rate_limited"), headers: { "retry-after": "1" } },
      { status: 200, body: batch() }
    ]
    const retries: Array<Retry.RetryInfo> = []
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast(retries) })
    await sigil.batches.get(batch().id)
    expect(seen).toHaveLength(2)
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990)
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ reason: "rate_limited", status: 429, delayMillis: 1000 })
  })

  it("429 then 429: Retry-After is a floor under the exponential backoff", async () => {
    script = [
      { status: 429, body: errorBody("rate_limited"), headers: { "retry-after": "0" } },
      { status: 429, body: errorBody("rate_limited"), headers: { "retry-after": "0" } },
      { status: 200, body: batch() }
    ]
    const retries: Array<Retry.RetryInfo> = []
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast(retries) })
    await sigil.batches.get(batch().id)
    expect(retries.map((r) => r.delayMillis)).toEqual([20, 40])
  })

  it("4xx other than 429 are final: one request, the contract's error", async () => {
    script = [{ status: 404, body: errorBody("batch_not_found", "No batch bat_… in this tenant.") }]
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast([]) })
    const error = await sigil.batches.get(batch().id).catch((e) => e)
    expect(error).toBeInstanceOf(SigilError)
    expect(error).toMatchObject({ code: "batch_not_found", status: 404 })
    expect(seen).toHaveLength(1)
  })

  it("409 idempotency_key_reused is final; 409 idempotency_key_in_use is waited out", async () => {
    script = [{ status: 409, body: errorBody("idempotency_key_reused") }]
    const retries: Array<Retry.RetryInfo> = []
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast(retries) })
    await expect(sigil.batches.create({ credentials: [credential] })).rejects.toMatchObject({ code: "idempotency_key_reused", status: 409 })
    expect(seen).toHaveLength(1)

    seen = []
    script = [{ status: 409, body: errorBody("idempotency_key_in_use") }, { status: 202, body: batch() }]
    await sigil.batches.create({ credentials: [credential] })
    expect(seen).toHaveLength(2)
    expect(seen[1]!.key).toBe(seen[0]!.key)
    expect(retries.map((r) => r.reason)).toEqual(["idempotency_key_in_use"])
  })

  it("retries are bounded: the last answer is the caller's error", async () => {
    fallback = { status: 500, body: errorBody("internal_error", "boom") }
    const retries: Array<Retry.RetryInfo> = []
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast(retries, { maxRetries: 3 }) })
    const error = await sigil.batches.list().catch((e) => e)
    expect(error).toMatchObject({ code: "internal_error", status: 500 })
    expect(seen).toHaveLength(4)
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3])
  })

  it("network failures are retried, and reported once the retries are spent", async () => {
    script = ["hang-up", { status: 200, body: batch() }]
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast([]) })
    await sigil.batches.get(batch().id)
    expect(seen).toHaveLength(2)

    seen = []
    fallback = "hang-up"
    const error = await sigil.batches.get(batch().id).catch((e) => e)
    expect(error).toMatchObject({ code: "request_failed", status: undefined })
    expect(seen).toHaveLength(9) // the first attempt and 8 retries (the default bound)
  })

  it("an attempt that gets no answer in time is retried", async () => {
    let first = true
    const slow = createServer((_, response) => {
      if (first) {
        first = false
        return // never answers
      }
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(batch()))
    })
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve))
    try {
      const retries: Array<Retry.RetryInfo> = []
      const sigil = createClient({
        baseUrl: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
        apiKey: "sigil_test_x",
        retry: fast(retries, { attemptTimeout: 200 })
      })
      const got = await sigil.batches.get(batch().id)
      expect(got.id).toBe(batch().id)
      expect(retries.map((r) => r.reason)).toEqual(["network"])
    } finally {
      slow.closeAllConnections()
      await new Promise<void>((resolve) => slow.close(() => resolve()))
    }
  })

  it("the default backoff: 1 s doubling to a 30 s cap, each with jitter in [0.8, 1.2] and never above the cap", async () => {
    fallback = { status: 503 }
    const retries: Array<Retry.RetryInfo> = []
    // Same schedule, scaled down 1000×: base 1 ms, cap 30 ms.
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: { base: 1, cap: 30, maxRetries: 7, onRetry: (r) => retries.push(r) } })
    await sigil.batches.get(batch().id).catch(() => undefined)
    const nominal = [1, 2, 4, 8, 16, 30, 30]
    expect(retries).toHaveLength(7)
    retries.forEach((r, i) => {
      expect(r.delayMillis).toBeGreaterThanOrEqual(nominal[i]! * 0.8 - 1e-9)
      expect(r.delayMillis).toBeLessThanOrEqual(Math.min(nominal[i]! * 1.2, 30) + 1e-9)
    })
  })

  it("local validation: an invalid batch is refused before any request, with the contract's code and field", async () => {
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast([]) })
    const error = await sigil.batches
      .create({ credentials: [{ ...credential, recipient: { id: "urn:uuid:not-a-uuid", name: "Ada" } }] })
      .catch((e) => e)
    expect(error).toMatchObject({ code: "recipient_id_invalid", field: "credentials[0].recipient.id", status: undefined })
    expect(seen).toHaveLength(0)
  })

  it("iterate follows next_cursor until has_more is false", async () => {
    script = [
      { status: 200, body: { data: [batch("bat_0000000000000000000000000A"), batch("bat_0000000000000000000000000B")], next_cursor: "c1", has_more: true } },
      { status: 200, body: { data: [batch("bat_0000000000000000000000000C")], next_cursor: null, has_more: false } }
    ]
    const sigil = createClient({ baseUrl, apiKey: "sigil_test_x", retry: fast([]) })
    const ids: Array<string> = []
    for await (const b of sigil.batches.iterate({ limit: 2, status: "anchored" })) ids.push(b.id)
    expect(ids).toEqual(["bat_0000000000000000000000000A", "bat_0000000000000000000000000B", "bat_0000000000000000000000000C"])
    const queries = seen.map((s) => Object.fromEntries(new URL(s.url, baseUrl).searchParams))
    expect(seen.map((s) => new URL(s.url, baseUrl).pathname)).toEqual(["/v1/batches", "/v1/batches"])
    expect(queries).toEqual([{ limit: "2", status: "anchored" }, { limit: "2", status: "anchored", cursor: "c1" }])
  })
})
