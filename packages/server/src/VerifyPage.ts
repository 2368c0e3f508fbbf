/**
 * The public verification pages (issue #7), outside `/v1` and without an API key:
 *
 * - `GET /c/<id>`: the credential's page, with the server's own verification (the core
 *   verifier over the server's tenants, status lists and chain reader); the page's script then
 *   checks it again in the visitor's browser.
 * - `GET /c/<id>.json`: the signed credential, as a download.
 * - `GET /c/<id>?claim=<token>` and `GET /c/<id>.json?claim=<token>` (issue #10): the page the
 *   recipient's magic link opens — their name, "awarded to you", the download of their full
 *   signed credential — and that download. A wrong or expired token is the 404 page (or the
 *   404 JSON), whatever the credential; the token check always hashes and runs one lookup, so
 *   both answers take the same path. A valid visit is recorded on the delivery record.
 * - `GET /verify`: check a credential file in the browser.
 * - `GET /assets/verify.<hash>.js`: the browser verifier (`BrowserBundle`), cached forever.
 *
 * Every page carries a Content-Security-Policy that allows only its own script, its inline
 * style (by hash), the logos it shows and the JSON-RPC endpoints it reads.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as BatchStore from "@sigil/service/Batches/BatchStore"
import type { CredentialRecord } from "@sigil/service/Batches/BatchStore"
import * as Chains from "@sigil/core/Chains"
import * as Claims from "@sigil/service/Email/Claims"
import type { EmailDeliveryStore } from "@sigil/service/Email/EmailDeliveryStore"
import type { JsonObject } from "@sigil/core/Document"
import * as Ids from "@sigil/core/Ids"
import * as Plans from "@sigil/service/Tenants/Plans"
import * as Settings from "@sigil/service/Settings"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import * as Verifier from "@sigil/core/Verifier"
import { Effect, Layer, Option, Schema } from "effect"
import * as Pipeline from "@sigil/http/Pipeline"
import * as HttpCaching from "./HttpCaching.js"
import * as PublicCache from "./PublicCache.js"
import { createHash } from "node:crypto"
import QRCode from "qrcode"
import { BrowserBundle } from "./BrowserBundle.js"
import { html } from "./Html.js"
import * as VerifyPageHtml from "./VerifyPageHtml.js"
import type { PageAnchor, PageConfig, Revocation } from "./VerifyPageText.js"
import { toVerdict, withRecordedRevocation } from "./VerifyPageText.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly publicBaseUrl: string
  /** The JSON-RPC endpoint browsers read each EVM chain from, by chain id. */
  readonly rpc: PageConfig["rpc"]
  /** How long third parties may cache a credential's public JSON (default `HttpCaching.DEFAULT_FRESHNESS`). */
  readonly credentialMaxAgeSeconds?: number | undefined
}

/**
 * The endpoints browsers read chains from: the embedded devnet's `/devnet/rpc` when it runs,
 * and the public Base endpoints configured for browsers.
 *
 * @since 0.1.0
 * @category configuration
 */
export const browserRpc = (args: {
  readonly publicBaseUrl: string
  readonly devnet: boolean
  readonly baseSepolia: Option.Option<string>
  readonly baseMainnet: Option.Option<string>
}): PageConfig["rpc"] => ({
  ...(args.devnet ? { [Chains.DEVNET_CHAIN_ID]: `${args.publicBaseUrl.replace(/\/+$/, "")}/devnet/rpc` } : {}),
  ...Option.match(args.baseSepolia, { onNone: () => ({}), onSome: (url) => ({ [Chains.byName("base-sepolia").chainId]: url }) }),
  ...Option.match(args.baseMainnet, { onNone: () => ({}), onSome: (url) => ({ [Chains.byName("base-mainnet").chainId]: url }) })
})

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)
const text = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)
const list = (u: unknown): ReadonlyArray<unknown> => (Array.isArray(u) ? u : u === undefined ? [] : [u])
const origin = (url: string | undefined): string | undefined => {
  if (url === undefined) return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * The copy of the credential the public may see. A `plain`-mode document names the recipient
 * in clear; once the recipient's data is erased that name must not be served any more
 * (decisions §2: the stored copy is redacted and no longer verifies; holders' copies do).
 *
 * @since 0.1.0
 * @category documents
 */
export const publicDocument = (record: CredentialRecord): JsonObject | undefined => {
  const document = record.document
  if (document === undefined || !record.erased) return document
  const subject = document.credentialSubject
  if (!isObject(subject) || !("name" in subject)) return document
  const { name: _name, ...rest } = subject
  return { ...document, credentialSubject: rest }
}

/**
 * "Add to LinkedIn profile" (LinkedIn's add-certification link).
 *
 * @since 0.1.0
 * @category links
 */
export const linkedInUrl = (args: {
  readonly name: string
  readonly organizationName: string
  readonly issued: string | undefined
  readonly expires: string | undefined
  readonly certUrl: string
  readonly certId: string
}): string => {
  const query = new URLSearchParams({ startTask: "CERTIFICATION_NAME", name: args.name, organizationName: args.organizationName })
  const issued = args.issued === undefined ? undefined : new Date(args.issued)
  if (issued !== undefined && !Number.isNaN(issued.getTime())) {
    query.set("issueYear", String(issued.getUTCFullYear()))
    query.set("issueMonth", String(issued.getUTCMonth() + 1))
  }
  const expires = args.expires === undefined ? undefined : new Date(args.expires)
  if (expires !== undefined && !Number.isNaN(expires.getTime())) {
    query.set("expirationYear", String(expires.getUTCFullYear()))
    query.set("expirationMonth", String(expires.getUTCMonth() + 1))
  }
  query.set("certUrl", args.certUrl)
  query.set("certId", args.certId)
  return `https://www.linkedin.com/profile/add?${query.toString()}`
}

// QR codes of verify URLs never change: keep the recent ones.
const qrCache = new Map<string, string>()
const qrSvg = (url: string): Effect.Effect<string> => {
  const hit = qrCache.get(url)
  if (hit !== undefined) return Effect.succeed(hit)
  return Effect.promise(() => QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" })).pipe(
    Effect.map((svg) => svg.trim().replace("<svg ", "<svg aria-hidden=\"true\" focusable=\"false\" ")),
    Effect.tap((svg) =>
      Effect.sync(() => {
        if (qrCache.size >= 500) qrCache.delete(qrCache.keys().next().value!)
        qrCache.set(url, svg)
      })
    )
  )
}

/**
 * The page's Content-Security-Policy.
 *
 * @since 0.1.0
 * @category security
 */
export const contentSecurityPolicy = (args: {
  readonly style: string
  readonly script: string | undefined
  readonly images: ReadonlyArray<string>
  readonly connect: ReadonlyArray<string>
}): string => {
  const styleHash = createHash("sha256").update(args.style, "utf8").digest("base64")
  const unique = (xs: ReadonlyArray<string>) => [...new Set(xs)].join(" ")
  return [
    "default-src 'none'",
    // 'wasm-unsafe-eval' lets the script compile WebAssembly (core decodes base58 with it),
    // and nothing else: no eval, no inline script.
    `script-src ${args.script === undefined ? "'none'" : `${args.script} 'wasm-unsafe-eval'`}`,
    `style-src 'sha256-${styleHash}'`,
    `img-src ${unique(["'self'", ...args.images])}`,
    `connect-src ${unique(["'self'", ...args.connect])}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

const page = (
  rendered: VerifyPageHtml.Rendered,
  options: {
    readonly status?: number
    readonly script?: string | undefined
    readonly images?: ReadonlyArray<string>
    readonly connect?: ReadonlyArray<string>
    readonly timing?: string | undefined
    /** A claim page (or its 404): its address carries a token — not cached, not indexed, never sent as a referrer. */
    readonly personal?: boolean | undefined
  } = {}
) : PublicCache.Answer => ({
    status: options.status ?? 200,
    body: rendered.body,
    contentType: "text/html; charset=utf-8",
    tenantId: undefined,
    headers: {
      "content-security-policy": contentSecurityPolicy({
        style: rendered.style,
        script: options.script,
        images: options.images ?? [],
        connect: options.connect ?? []
      }),
      "x-content-type-options": "nosniff",
      ...(options.personal === true
        ? { "referrer-policy": "no-referrer", "cache-control": "no-store", "x-robots-tag": "noindex" }
        : {
          "referrer-policy": "strict-origin-when-cross-origin",
          // The verdict can change (revocation): always revalidate.
          "cache-control": "no-cache"
        }),
      ...(options.timing === undefined ? {} : { "server-timing": options.timing })
    }
  })

const notFound = (detail: string, options: { readonly personal?: boolean } = {}) =>
  page(VerifyPageHtml.notFoundPage({ title: "Credential not found", detail: html`${detail}` }), { status: 404, ...options })

/** A wrong or expired claim link: one answer for both. */
const claimNotFound = () =>
  notFound(
    "This link does not open a credential: it may be mistyped, or it has expired (a claim link works for 30 days) or been withdrawn. Ask the issuer for a new one.",
    { personal: true }
  )

const jsonNotFound = (): PublicCache.Answer => ({
  status: 404,
  body: JSON.stringify({ error: { code: "credential_not_found", message: "No signed credential has this id.", request_id: null } }),
  contentType: "application/json",
  headers: { "access-control-allow-origin": "*", "cache-control": "no-store" },
  tenantId: undefined
})

const CredentialIdFormat = Schema.is(Ids.CredentialId)

/** The achievement, issuer and validity the page shows, from the signed document (or the stored content before signing). */
const describe = (record: CredentialRecord, document: JsonObject | undefined) => {
  if (document === undefined) {
    const content = record.content
    const achievement = isObject(content.achievement) ? content.achievement : {}
    const criteria = isObject(achievement.criteria) ? text(achievement.criteria.narrative) : undefined
    return {
      achievement: {
        name: text(achievement.name) ?? "Credential",
        description: text(achievement.description),
        criteria: criteria ?? text(achievement.description),
        alignments: list(achievement.alignment).filter(isObject).map((a) => ({
          framework: text(a.targetFramework) ?? "",
          code: text(a.targetCode) ?? "",
          name: text(a.targetName) ?? "",
          url: text(a.targetUrl)
        }))
      },
      evidence: list(content.evidence).filter(isObject).map((e) => ({ narrative: text(e.narrative), url: text(e.id) })),
      issuer: undefined,
      validFrom: text(content.issuanceDate),
      validUntil: text(content.expirationDate)
    }
  }
  const subject = isObject(document.credentialSubject) ? document.credentialSubject : {}
  const achievement = isObject(subject.achievement) ? subject.achievement : {}
  const criteria = isObject(achievement.criteria) ? text(achievement.criteria.narrative) : undefined
  const issuer = isObject(document.issuer) ? document.issuer : {}
  const image = isObject(issuer.image) ? text(issuer.image.id) : text(issuer.image)
  return {
    achievement: {
      name: text(achievement.name) ?? text(document.name) ?? "Credential",
      description: text(achievement.description),
      // Sigil fills in the description as the criteria when none is given; do not say it twice.
      criteria: criteria === text(achievement.description) ? undefined : criteria,
      alignments: list(achievement.alignment).filter(isObject).map((a) => ({
        framework: text(a.targetFramework) ?? "",
        code: text(a.targetCode) ?? "",
        name: text(a.targetName) ?? "",
        url: text(a.targetUrl)
      }))
    },
    evidence: list(document.evidence).filter(isObject).map((e) => ({
      narrative: text(e.narrative),
      // Generated ids are urn:uuid:, not links; the page links only http(s) ids.
      url: text(e.id)
    })),
    issuer: { name: text(issuer.name), url: text(issuer.url), image },
    validFrom: text(document.validFrom),
    validUntil: text(document.validUntil)
  }
}

type Requirements =
  | PublicCache.PublicCache
  | BatchStore.BatchStore
  | TenantStore.TenantStore
  | EmailDeliveryStore
  | BrowserBundle
  | Verifier.Requirements

/**
 * The routes.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<never, never, Requirements> =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<Requirements>()
      const base = options.publicBaseUrl.replace(/\/+$/, "")
      const rpcOrigins = Object.values(options.rpc).flatMap((url) => origin(url) ?? [])
      const selfOrigin = origin(base)!

      // A claim token opens the claim of its credential only, until it expires; anything else
      // (unknown, wrong, another credential's, expired, erased — even a malformed id) is one
      // answer by one path: hash, one lookup, 404.
      const validClaim = (id: string, token: string) => Claims.claim(id as Ids.CredentialId, token, new Date())

      const credentialPage = (id: string, claimToken: string | undefined) =>
        Effect.gen(function*() {
          const started = performance.now()
          if (claimToken !== undefined && !(yield* validClaim(id, claimToken))) return claimNotFound()
          if (!CredentialIdFormat(id)) return notFound("A credential id looks like crd_ followed by 26 letters and digits.")
          const store = yield* BatchStore.BatchStore
          const found = yield* store.credentialById(id)
          if (Option.isNone(found)) return notFound("No credential has this id. Check the address you were given.")
          const record = found.value
          // Erasure deletes the tokens; an erased credential never has a claim page.
          if (claimToken !== undefined && record.erased) return claimNotFound()
          const [tenant, recipient, batch] = yield* Effect.all([
            Effect.flatMap(TenantStore.TenantStore, (tenants) => tenants.get(record.tenantId)),
            store.recipient(record.id),
            store.batchById(record.batchId)
          ], { concurrency: "unbounded" })
          const document = publicDocument(record)

          const verifyStarted = performance.now()
          const result = document === undefined ? undefined : yield* Verifier.verifyCredential(document)
          const verifyMs = performance.now() - verifyStarted

          const t = Option.getOrUndefined(tenant)
          const tenantName = t?.displayName ?? t?.name ?? "Sigil"
          const branded = t !== undefined && Plans.limits[t.plan].verifyPageBranding && t.branding !== undefined
          const described = describe(record, document)
          const issuer = {
            name: described.issuer?.name ?? t?.awardingBody?.name ?? tenantName,
            url: described.issuer?.url ?? t?.awardingBody?.url,
            image: described.issuer?.image ?? t?.awardingBody?.logoUrl
          }
          const logoUrl = branded ? t.branding?.logoUrl ?? issuer.image : issuer.image
          // The reason and date come from the issuer's record: a status list says only "revoked".
          const revocation: Revocation | undefined = record.revocation === undefined
            ? undefined
            : { reason: record.revocation.reason, revokedAt: record.revocation.revokedAt.toISOString() }
          const verdict = result === undefined ? undefined : withRecordedRevocation(toVerdict(result), revocation)
          // Integrity failed before the anchor step: still show where the batch was anchored.
          const recorded = Option.getOrUndefined(batch)?.anchor
          const anchor: PageAnchor | undefined = verdict?.anchor ?? (recorded === undefined ? undefined : {
            chainLabel: Chains.byChainId(recorded.chainId)?.label ?? recorded.chain,
            txHash: recorded.txHash,
            explorerUrl: Chains.explorerTxUrl(recorded.chainId, recorded.txHash),
            blockNumber: recorded.blockNumber,
            blockTimestamp: undefined
          })
          const verifyUrl = Settings.verifyUrl(base, record.id)
          const bundle = yield* Effect.flatMap(BrowserBundle, (b) => b.get)
          const qr = yield* qrSvg(verifyUrl)

          const rendered = VerifyPageHtml.credentialPage({
            credentialId: record.id,
            verifyUrl,
            jsonUrl: document === undefined ? undefined : `/c/${record.id}.json`,
            achievement: described.achievement,
            evidence: described.evidence,
            issuer,
            tenant: { name: tenantName, logoUrl, accent: branded ? t.branding?.accentColor : undefined },
            recipient: Option.isSome(recipient)
              ? { _tag: "Named", name: recipient.value.name }
              : record.erased
              ? { _tag: "Erased", storedCopyVerifies: record.erasure?.verificationStatusAfterErasure !== "invalid" }
              : { _tag: "Unknown" },
            validFrom: described.validFrom,
            validUntil: described.validUntil,
            verdict: verdict === undefined ? undefined : { ...verdict, anchor },
            revocation,
            checkedAt: new Date().toISOString(),
            qrSvg: qr,
            linkedInUrl: linkedInUrl({
              name: described.achievement.name,
              organizationName: issuer.name,
              issued: described.validFrom,
              expires: described.validUntil,
              certUrl: verifyUrl,
              certId: record.id
            }),
            ogImage: logoUrl,
            script: bundle?.path === undefined ? undefined : `${base}${bundle.path}`,
            publicBaseUrl: base,
            rpc: options.rpc,
            claim: claimToken === undefined || document === undefined
              ? undefined
              : { downloadUrl: `/c/${record.id}.json?claim=${encodeURIComponent(claimToken)}` }
          })
          const total = performance.now() - started
          const validUntil = described.validUntil === undefined ? Number.NaN : Date.parse(described.validUntil)
          const answer = page(rendered, {
            script: bundle === undefined ? undefined : `${base}${bundle.path}`,
            images: [logoUrl, issuer.image].flatMap((u) => origin(u) ?? []),
            connect: [selfOrigin, ...rpcOrigins],
            timing: `verify;dur=${verifyMs.toFixed(1)}, total;dur=${total.toFixed(1)}`,
            personal: claimToken !== undefined
          })
          // The verdict is the tenant's to change (revocation, erasure, anchoring, branding: the
          // change feed), and it changes by itself when the credential expires.
          return { ...answer, tenantId: record.tenantId, changesAt: Number.isFinite(validUntil) ? validUntil : undefined }
        })

      const credentialJson = (id: string, claimToken: string | undefined) =>
        Effect.gen(function*() {
          if (claimToken !== undefined && !(yield* validClaim(id, claimToken))) return jsonNotFound()
          const found = CredentialIdFormat(id)
            ? yield* Effect.flatMap(BatchStore.BatchStore, (store) => store.credentialById(id))
            : Option.none()
          // The recipient's download is the document as signed (a valid claim means the
          // recipient's data is not erased); the public one is the public copy.
          const document = Option.isNone(found)
            ? undefined
            : claimToken !== undefined
            ? (found.value.erased ? undefined : found.value.document)
            : publicDocument(found.value)
          if (document === undefined) return jsonNotFound()
          if (claimToken === undefined) {
            // The public copy: an ETag (it changes on erasure and once anchored) and a freshness.
            return HttpCaching.answer(JSON.stringify(document, null, 2), {
              contentType: "application/ld+json",
              maxAgeSeconds: options.credentialMaxAgeSeconds ?? HttpCaching.DEFAULT_FRESHNESS.credentialSeconds,
              tenantId: Option.isSome(found) ? found.value.tenantId : undefined,
              headers: { "content-disposition": `attachment; filename="${id}.json"`, "access-control-allow-origin": "*" }
            })
          }
          return {
            status: 200,
            body: JSON.stringify(document, null, 2),
            contentType: "application/ld+json",
            tenantId: undefined,
            headers: {
              "content-disposition": `attachment; filename="${id}.json"`,
              "x-content-type-options": "nosniff",
              "cache-control": "no-store",
              "referrer-policy": "no-referrer",
              "x-robots-tag": "noindex"
            }
          } satisfies PublicCache.Answer
        })

      yield* router.get(
        "/c/:id",
        Effect.gen(function*() {
          const { id } = yield* HttpRouter.params
          const value = id ?? ""
          const request = yield* HttpServerRequest.HttpServerRequest
          const claim = new URL(request.url, "http://sigil.invalid").searchParams.get("claim") ?? undefined
          const answer = value.endsWith(".json")
            ? credentialJson(value.slice(0, -".json".length), claim)
            : credentialPage(value, claim)
          // A claim visit is the recipient's own (and is recorded): never kept. The public
          // page and JSON are, by path (`PublicCache`).
          return yield* (claim === undefined
            ? PublicCache.serve(Pipeline.target(request.url, undefined).path, answer)
            : Effect.flatMap(answer, PublicCache.respond))
        }).pipe(Effect.provide(context))
      )

      yield* router.get(
        "/verify",
        Effect.gen(function*() {
          const bundle = yield* Effect.flatMap(BrowserBundle, (b) => b.get)
          const rendered = VerifyPageHtml.filePage({
            script: bundle === undefined ? undefined : `${base}${bundle.path}`,
            publicBaseUrl: base,
            rpc: options.rpc
          })
          // A dropped file may come from any issuer: its DID documents and status lists live
          // anywhere on https.
          return yield* PublicCache.respond(page(rendered, {
            script: bundle === undefined ? undefined : `${base}${bundle.path}`,
            connect: [selfOrigin, ...rpcOrigins, "https:"]
          }))
        }).pipe(Effect.provide(context))
      )

      const favicon = HttpServerResponse.text(VerifyPageHtml.FAVICON_SVG, {
        contentType: "image/svg+xml",
        headers: { "cache-control": "public, max-age=86400" }
      })
      yield* router.get("/favicon.svg", Effect.succeed(favicon))
      yield* router.get("/favicon.ico", Effect.succeed(favicon))

      yield* router.get(
        "/assets/:file",
        Effect.gen(function*() {
          const { file } = yield* HttpRouter.params
          const bundle = yield* Effect.flatMap(BrowserBundle, (b) => b.get)
          if (bundle === undefined || `/assets/${file}` !== bundle.path) {
            return HttpServerResponse.text("Not found", { status: 404 })
          }
          const request = yield* HttpServerRequest.HttpServerRequest
          const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
          return HttpServerResponse.uint8Array(gzip ? bundle.gzip : bundle.code, {
            contentType: "text/javascript; charset=utf-8",
            headers: {
              "cache-control": "public, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
              vary: "accept-encoding",
              ...(gzip ? { "content-encoding": "gzip" } : {})
            }
          })
        }).pipe(Effect.provide(context))
      )
    })
  )
