/**
 * `/v1/docs`, Swagger UI with its assets inlined (`HttpApiSwagger`), served with a
 * Content-Security-Policy: its one inline script allowed by hash, the page's inline styles (Swagger
 * UI sets `style` attributes as it renders, which no hash can name), images from Sigil itself
 * and `data:` URLs (its icons), requests ("Try it out") to Sigil only, nothing else — no other
 * script, frame, form target or plugin. The OpenAPI document it embeds is JSON in a
 * `type="application/json"` script element, data the policy need not allow.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, type Layer } from "effect"
import { createHash } from "node:crypto"
import { IssuerApi } from "./IssuerApi.js"
import * as Pipeline from "./Pipeline.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const PATH = "/v1/docs"

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

// Script elements without a type, or with a JavaScript one: the ones a browser runs.
const SCRIPTS = /<script(?![^>]*\btype=["']?application\/json)[^>]*>([\s\S]*?)<\/script>/gi

/**
 * The policy of a docs page: its executable inline scripts by hash.
 *
 * @since 0.1.0
 * @category security
 */
export const contentSecurityPolicy = (html: string): string => {
  const scripts = [...html.matchAll(SCRIPTS)].map((m) => sha256(m[1]!))
  return [
    "default-src 'none'",
    `script-src ${scripts.length === 0 ? "'none'" : scripts.join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

const decoder = new TextDecoder()
// The page is the same response every time: its policy is computed once per body.
const policies = new WeakMap<object, string>()

/**
 * The docs page's response with its policy (and `nosniff`, `no-referrer`); other responses as
 * they are.
 *
 * @since 0.1.0
 * @category security
 */
export const secure = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (response.status !== 200 || body._tag !== "Uint8Array") return response
  let policy = policies.get(body.body)
  if (policy === undefined) {
    policy = contentSecurityPolicy(decoder.decode(body.body))
    policies.set(body.body, policy)
  }
  return HttpServerResponse.setHeaders(response, {
    "content-security-policy": policy,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer"
  })
}

/**
 * The middleware that secures `/v1/docs` (installed beside the pipeline).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<never> = HttpApiBuilder.middleware(
  IssuerApi,
  Effect.succeed((app: HttpApp.Default): HttpApp.Default =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Pipeline.target(request.url, undefined).path === PATH ? Effect.map(app, secure) : app)
  )
)
