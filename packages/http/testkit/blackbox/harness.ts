/**
 * A real Sigil HTTP stack for black-box tests: the issuer API and the administrative channel,
 * each on its own random loopback port, over one store layer (memory here; PGlite or Postgres
 * from packages/server), driven with `fetch`.
 */
import { type HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import * as MemoryStores from "@sigil/service/MemoryStores"
import * as Settings from "@sigil/service/Settings"
import * as WebhookSender from "@sigil/service/Webhooks/WebhookSender"
import { Context, Effect, Exit, Layer, Logger, LogLevel, ManagedRuntime, Redacted, Scope } from "effect"
import { randomBytes } from "node:crypto"
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll } from "vitest"
import * as AdminHttp from "../../src/AdminHttp.js"
import * as ClientErrors from "../../src/ClientErrors.js"
import * as IssuerHttp from "../../src/IssuerHttp.js"

/** The store ports the HTTP layers use (the issuer API's, and the key vault of the admin channel). */
export type Stores = Exclude<
  IssuerHttp.Requirements | AdminHttp.Requirements,
  Settings.Settings | WebhookSender.WebhookSender
>

/** A suite runs against any layer of the store ports (`MemoryStores.layer`, a Postgres one…). */
export type StoreLayer = Layer.Layer<Stores, unknown, never>

/** What the servers' services see: the stores, the settings and the webhook transport. */
export type Services = Stores | Settings.Settings | WebhookSender.WebhookSender

export interface Delivery {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The body parsed as JSON (`undefined` when empty or not JSON). */
  readonly body: any
}

export interface Tenant {
  readonly id: string
  readonly key: string
  readonly keyId: string
  readonly plan: string
}

export interface Harness {
  readonly baseUrl: string
  readonly adminUrl: string
  readonly adminToken: string
  /**
   * What the webhook transport was asked to deliver. Endpoint URLs steer it: `fail` answers
   * 500, `die` throws (a defect), `slow` waits for `hold().release()`; anything else answers 200.
   */
  readonly sent: ReadonlyArray<Delivery>
  /** Holds `slow` deliveries until released; `entered` resolves when one is waiting. */
  readonly hold: () => { readonly entered: Promise<void>; readonly release: () => void }
  /** Lines the servers logged (logfmt), errors only. */
  readonly logs: ReadonlyArray<string>
  /** A request with raw control over headers and body chunks (for the body limit). */
  readonly raw: (
    method: string,
    path: string,
    headers: Record<string, string>,
    chunks: AsyncIterable<Uint8Array> | ReadonlyArray<Uint8Array>
  ) => Promise<Reply>
  /** Runs an effect against the same stores and settings as the servers. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>
  readonly request: (
    method: string,
    path: string,
    options?: {
      readonly key?: string | undefined
      readonly body?: unknown
      readonly raw?: string | undefined
      readonly headers?: Record<string, string> | undefined
    }
  ) => Promise<Reply>
  readonly admin: (method: string, path: string, body?: unknown, token?: string) => Promise<Reply>
  /** An administrative request with a raw body. */
  readonly adminRaw: (method: string, path: string, raw: string) => Promise<Reply>
  /** Another issuer server over the same stores, with other options; its `request`. */
  readonly issuer: (options: IssuerHttp.Options) => Promise<Harness["request"]>
  /** A new tenant with a key in `environment`, through the administrative channel. */
  readonly tenant: (
    plan?: "developer" | "starter" | "institution" | "industry",
    environment?: "test" | "live"
  ) => Promise<Tenant>
  readonly close: () => Promise<void>
}

const reply = async (response: Response): Promise<Reply> => {
  const text = await response.text()
  let body: unknown
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, text, body }
}

const serve = (
  layer: Layer.Layer<never, never, HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices | Services>,
  context: Context.Context<Services>,
  scope: Scope.Scope
): Effect.Effect<string> =>
  Effect.gen(function*() {
    const built = yield* Layer.buildWithScope(
      // As the server does: parser errors answered with the contract's body (`ClientErrors`).
      Layer.provideMerge(layer, NodeHttpServer.layer(() => ClientErrors.createServer(), { port: 0, host: "127.0.0.1" })).pipe(
        Layer.provide(Layer.succeedContext(context))
      ),
      scope
    )
    const address = Context.get(built, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    return `http://127.0.0.1:${address.port}`
  }).pipe(Effect.orDie)

export interface Options {
  readonly issuer?: IssuerHttp.Options | undefined
}

const makeTransport = () => {
  const sent: Array<Delivery> = []
  let gate: { entered: () => void; released: Promise<void> } | undefined
  const service: WebhookSender.WebhookSender["Type"] = {
    checkUrl: (url) =>
      /^https?:\/\//.test(url)
        ? Effect.void
        : Effect.fail(new WebhookSender.WebhookUrlRefused({ url, message: "not an http(s) URL" })),
    post: (url, headers, body) =>
      Effect.gen(function*() {
        sent.push({ url, headers, body })
        if (url.includes("die")) {
          // A defect whose text holds secrets: the log must not.
          return yield* Effect.die(new Error("transport exploded near sigil_test_3mJr7AoUXx2Wqd and Bearer s3cr3t-token"))
        }
        if (url.includes("slow") && gate !== undefined) {
          const current = gate
          current.entered()
          yield* Effect.promise(() => current.released)
        }
        return { status: url.includes("fail") ? 500 : 200 }
      })
  }
  const hold = () => {
    let entered!: () => void
    let release!: () => void
    const enteredPromise = new Promise<void>((resolve) => (entered = resolve))
    const released = new Promise<void>((resolve) => (release = resolve))
    gate = { entered, released }
    return {
      entered: enteredPromise,
      release: () => {
        gate = undefined
        release()
      }
    }
  }
  return { sent, service, hold }
}

export const start = async (stores: StoreLayer, options: Options = {}): Promise<Harness> => {
  const transport = makeTransport()
  const logs: Array<string> = []
  const settings = Settings.layer({
    publicBaseUrl: "http://localhost:8080",
    chainFor: (environment) => (environment === "test" ? "base-sepolia" : "base-mainnet"),
    cursorKey: Redacted.make(new Uint8Array(randomBytes(32))),
    allowPrivateWebhookUrls: true
  })
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(stores, settings, Layer.succeed(WebhookSender.WebhookSender, transport.service)).pipe(
      // The servers log defects; the tests read what they logged.
      Layer.provideMerge(Layer.mergeAll(
        Logger.minimumLogLevel(LogLevel.Error),
        Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => logs.push(line)))
      ))
    )
  )
  const context = await runtime.runPromise(Effect.context<Services>())
  const scope = Effect.runSync(Scope.make())
  const adminToken = `admin-${randomBytes(16).toString("hex")}`
  const baseUrl = await runtime.runPromise(serve(IssuerHttp.layer(options.issuer), context, scope))
  const adminUrl = await runtime.runPromise(
    serve(AdminHttp.layer({ token: Redacted.make(adminToken) }), context, scope)
  )

  const requestTo = (base: string): Harness["request"] => async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`
    let body: string | undefined
    if (opts.raw !== undefined) body = opts.raw
    else if (opts.body !== undefined) body = JSON.stringify(opts.body)
    if (body !== undefined && headers["content-type"] === undefined) headers["content-type"] = "application/json"
    return reply(await fetch(`${base}${path}`, { method, headers, body: body ?? null }))
  }
  const request = requestTo(baseUrl)
  const issuer: Harness["issuer"] = async (issuerOptions) =>
    requestTo(await runtime.runPromise(serve(IssuerHttp.layer(issuerOptions), context, scope)))

  const admin: Harness["admin"] = async (method, path, body, token = adminToken) =>
    reply(
      await fetch(`${adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? null : JSON.stringify(body)
      })
    )

  const adminRaw: Harness["adminRaw"] = async (method, path, raw) =>
    reply(
      await fetch(`${adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: raw
      })
    )

  const tenant: Harness["tenant"] = async (plan = "developer", environment = "test") => {
    const created = await admin("POST", "/admin/tenants", { name: `Tenant ${randomBytes(4).toString("hex")}`, plan })
    if (created.status !== 201) throw new Error(`tenant: ${created.status} ${created.text}`)
    const key = await admin("POST", `/admin/tenants/${created.body.id}/keys`, { environment })
    if (key.status !== 201) throw new Error(`key: ${key.status} ${key.text}`)
    return { id: created.body.id, key: key.body.key, keyId: key.body.id, plan }
  }

  const raw: Harness["raw"] = (method, path, headers, chunks) =>
    new Promise((resolve, reject) => {
      const url = new URL(`${baseUrl}${path}`)
      // A fresh connection each time: the server may leave this one with an unread body.
      const req = httpRequest({ method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers, agent: false })
      let answered = false
      req.on("response", (res) => {
        answered = true
        const parts: Array<Buffer> = []
        res.on("data", (c: Buffer) => parts.push(c))
        res.on("end", () => {
          const text = Buffer.concat(parts).toString("utf8")
          let body: unknown
          try {
            body = text === "" ? undefined : JSON.parse(text)
          } catch {
            body = undefined
          }
          const h = new Headers()
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v)
          resolve({ status: res.statusCode ?? 0, headers: h, text, body })
          req.destroy()
        })
      })
      // The server may answer (413) and close before the whole body is sent.
      req.on("error", (error) => {
        if (!answered) reject(error)
      })
      void (async () => {
        try {
          let sent = 0
          for await (const chunk of chunks) {
            if (answered || req.destroyed) return
            sent += chunk.length
            if (!req.write(chunk)) await new Promise((r) => req.once("drain", r))
          }
          // A declared length longer than what was sent: wait for the answer, never end short.
          if (headers["content-length"] === undefined || Number(headers["content-length"]) === sent) req.end()
        } catch {
          // the socket closed under us after the answer
        }
      })()
    })

  return {
    baseUrl,
    adminUrl,
    adminToken,
    sent: transport.sent,
    hold: transport.hold,
    logs,
    raw,
    run: (effect) => runtime.runPromise(effect),
    request,
    admin,
    adminRaw,
    issuer,
    tenant,
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await runtime.dispose()
    }
  }
}

/**
 * Servers over memory stores and one tenant of `plan`, started before the file's tests and
 * closed after them: what most black-box test files need. Read `file.h` and `file.tenant` in
 * the tests (they are set once `beforeAll` has run).
 */
export const forFile = (
  plan: "developer" | "starter" | "institution" | "industry" = "industry"
): { readonly h: Harness; readonly tenant: Tenant } => {
  const file = {} as { h: Harness; tenant: Tenant }
  beforeAll(async () => {
    file.h = await start(MemoryStores.layer)
    file.tenant = await file.h.tenant(plan)
  })
  afterAll(() => file.h?.close())
  return file
}
