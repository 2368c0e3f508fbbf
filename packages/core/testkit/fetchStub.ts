/**
 * An offline replacement for `globalThis.fetch`, for third-party verifiers that load everything
 * (contexts, DID documents, issuer profiles, status lists, schemas) through the global fetch.
 *
 * Only the given routes and Sigil's own JSON-LD contexts are served. Any other request is recorded
 * in `unexpected` and answered 404, so a test can assert that nothing unexpected was fetched and no
 * request ever reaches the network. The original fetch is restored afterwards, even on failure.
 *
 * Belt and braces: a library that bypassed `fetch` (node:http, undici's own client) would still
 * need a socket, so during the run `net.Socket#connect` is blocked too: the attempt is recorded in
 * `unexpected` as `socket <host>:<port>` and the socket fails with an error.
 */
import { Socket } from "node:net"
import { getContext } from "./contexts.js"

/** A route's body: any JSON value (served as JSON), or a factory for a custom response. */
export type RouteBody = unknown
export type Routes = Readonly<Record<string, RouteBody>>

export interface FetchLog {
  /** Every URL requested, in order, served or not. */
  readonly fetched: ReadonlyArray<string>
  /** The requests that matched neither a route nor a context (answered 404). */
  readonly unexpected: ReadonlyArray<string>
}

export interface StubbedRun<A> extends FetchLog {
  readonly value: A
}

let active = false

const requestUrl = (input: string | URL | Request): string =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url

const describeConnect = (args: ReadonlyArray<unknown>): string => {
  // net.connect/tls.connect pass Node's normalized `[options, callback]` array as the first argument.
  const [first, second] = Array.isArray(args[0]) ? (args[0] as ReadonlyArray<unknown>) : args
  if (typeof first === "object" && first !== null) {
    const o = first as { host?: unknown; port?: unknown; path?: unknown }
    return typeof o.path === "string" ? o.path : `${String(o.host ?? "localhost")}:${String(o.port)}`
  }
  return typeof first === "string" ? first : `${typeof second === "string" ? second : "localhost"}:${String(first)}`
}

const withoutFragment = (url: string): string => url.split("#")[0] ?? url
const withoutQuery = (url: string): string => withoutFragment(url).split("?")[0] ?? url

const jsonResponse = (body: unknown, contentType: string): Response =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status: 200,
    headers: { "content-type": contentType }
  })

interface Hit {
  readonly found: boolean
  readonly body?: RouteBody
  readonly contentType?: string
}

/**
 * Looks `url` up the way a server would see it: without its `#fragment` (never sent over HTTP),
 * then also without its `?query` (cert-verifier-js appends `?assertionId=…` to revocation lists),
 * then among Sigil's contexts. Route keys therefore never contain a fragment.
 */
const lookup = (routes: Routes, url: string): Hit => {
  for (const key of [withoutFragment(url), withoutQuery(url)]) {
    if (Object.prototype.hasOwnProperty.call(routes, key)) {
      return { found: true, body: routes[key], contentType: "application/json" }
    }
  }
  const context = getContext(withoutFragment(url))
  return context === undefined ? { found: false } : { found: true, body: context, contentType: "application/ld+json" }
}

/**
 * Runs `run` with `globalThis.fetch` answering only from `routes` and Sigil's contexts.
 * Route values are JSON (served with status 200) or a `() => Response` for anything else.
 * Stubs do not nest: the verifiers mutate process-wide state, so runs must be sequential.
 */
export const withFetchStub = async <A>(routes: Routes, run: () => Promise<A>): Promise<StubbedRun<A>> => {
  if (active) throw new Error("withFetchStub: already active; third-party verifier runs must be sequential")
  const withHash = Object.keys(routes).filter((k) => k.includes("#"))
  if (withHash.length > 0) throw new Error(`withFetchStub: route keys cannot carry a #fragment: ${withHash.join(", ")}`)
  active = true
  const fetched: Array<string> = []
  const unexpected: Array<string> = []
  const original = globalThis.fetch
  const originalConnect = Socket.prototype.connect
  Socket.prototype.connect = function (this: Socket, ...args: Array<unknown>): Socket {
    const target = describeConnect(args)
    unexpected.push(`socket ${target}`)
    process.nextTick(() => this.destroy(new Error(`offline test harness: blocked network connection to ${target}`)))
    return this
  } as typeof Socket.prototype.connect
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = requestUrl(input)
    fetched.push(url)
    const method = init?.method ?? (input instanceof Request ? input.method : "GET")
    const hit: Hit = method === "GET" ? lookup(routes, url) : { found: false }
    if (!hit.found) {
      unexpected.push(method === "GET" ? url : `${method} ${url}`)
      return new Response(`offline test harness: no route for ${url}`, { status: 404, statusText: "Not Found" })
    }
    return typeof hit.body === "function" ? (hit.body as () => Response)()
      : jsonResponse(hit.body, hit.contentType ?? "application/json")
  }
  try {
    const value = await run()
    return { value, fetched, unexpected }
  } finally {
    globalThis.fetch = original
    Socket.prototype.connect = originalConnect
    active = false
  }
}
