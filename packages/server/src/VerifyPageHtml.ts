/**
 * The verification pages as HTML: a credential's page (`/c/<id>`), the file-check page
 * (`/verify`) and the not-found page. Pure functions of a model; every issuer-supplied string
 * goes through the `html` template (escaped) and every issuer-supplied URL through
 * `Html.safeUrl`. The markup's ids and classes are the ones `browser/dom.ts` updates.
 *
 * @since 0.1.0
 */
import type { StepName } from "@sigil/core/Verifier"
import { STEPS } from "@sigil/core/Verifier"
import * as Contrast from "./Contrast.js"
import type { Html as HtmlT, Interpolation } from "./Html.js"
import { html, jsonScript, raw, safeUrl } from "./Html.js"
import type { PageAnchor, PageConfig, PageStep, Revocation, Verdict } from "./VerifyPageText.js"
import { banner, formatDate, formatDateTime, ICONS, STEP_LABELS } from "./VerifyPageText.js"

/**
 * The page's fixed colours. Each text/background pair is held to WCAG AA by a test.
 *
 * @since 0.1.0
 * @category constants
 */
export const PALETTE = {
  text: "#1b1f24",
  muted: "#4f5863",
  page: "#f3f5f8",
  card: "#ffffff",
  line: "#d9dee5",
  banner: {
    ok: { background: "#e6f4ea", text: "#0f5230", border: "#2f8a52" },
    warn: { background: "#fff3dc", text: "#6b3d00", border: "#c77700" },
    bad: { background: "#fde7e7", text: "#8f1717", border: "#c53030" },
    info: { background: "#e8f0fb", text: "#1d4478", border: "#3f6fb5" }
  }
} as const

const CSS = (accent: string) => `
:root{--accent:${accent};--text:${PALETTE.text};--muted:${PALETTE.muted};--page:${PALETTE.page};--card:${PALETTE.card};--line:${PALETTE.line}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--page);color:var(--text);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent);text-underline-offset:2px}
a:focus-visible,button:focus-visible,textarea:focus-visible,input:focus-visible,.dropzone:focus-within{outline:3px solid var(--accent);outline-offset:2px}
h1,h2,h3{line-height:1.25;margin:0}
.wrap{max-width:1080px;margin:0 auto;padding:0 20px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.topbar{background:var(--card);border-top:4px solid var(--accent);border-bottom:1px solid var(--line)}
.topbar .wrap{display:flex;align-items:center;gap:14px;min-height:64px;flex-wrap:wrap;padding-top:8px;padding-bottom:8px}
.topbar img{max-height:40px;max-width:160px;object-fit:contain}
.tenant{font-weight:650;font-size:1.05rem}
.product{color:var(--muted);font-size:.9rem;margin-left:auto}
main.wrap{padding-top:24px;padding-bottom:40px}
.banner{border:1px solid;border-left-width:6px;border-radius:10px;padding:16px 20px;margin-bottom:24px}
.banner--ok{background:${PALETTE.banner.ok.background};color:${PALETTE.banner.ok.text};border-color:${PALETTE.banner.ok.border}}
.banner--warn{background:${PALETTE.banner.warn.background};color:${PALETTE.banner.warn.text};border-color:${PALETTE.banner.warn.border}}
.banner--bad{background:${PALETTE.banner.bad.background};color:${PALETTE.banner.bad.text};border-color:${PALETTE.banner.bad.border}}
.banner--info{background:${PALETTE.banner.info.background};color:${PALETTE.banner.info.text};border-color:${PALETTE.banner.info.border}}
.banner-source{margin:0 0 4px;font-size:.85rem}
.banner-title{font-size:1.6rem;font-weight:750;line-height:1.25;margin:0}
.banner-label{font-weight:500;font-size:1rem;margin-right:4px}
.banner-detail{margin:6px 0 0;white-space:pre-line;overflow-wrap:anywhere}
.grid{display:grid;grid-template-columns:minmax(0,1.7fr) minmax(0,1fr);gap:24px;align-items:start}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:24px}
aside{display:grid;gap:24px}
aside h2,.section-title{font-size:1rem;font-weight:650;margin-bottom:12px}
.eyebrow{margin:0 0 8px;color:var(--muted);font-size:.8rem;letter-spacing:.06em;text-transform:uppercase}
.credential h1{font-size:2rem;font-weight:750;overflow-wrap:anywhere}
.awarded{margin:20px 0 0;color:var(--muted);font-size:.9rem}
.recipient{margin:2px 0 0;font-size:1.35rem;font-weight:650;overflow-wrap:anywhere}
.recipient--erased{font-style:italic;color:var(--muted);font-weight:500}
.note{margin:4px 0 0;color:var(--muted);font-size:.9rem}
.issuer{display:flex;gap:12px;align-items:center;margin:20px 0 0;padding:12px 0;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}
.issuer img{width:48px;height:48px;object-fit:contain;flex:none}
.issuer-name{font-weight:650;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px 16px;margin:16px 0 0}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.credential section{margin-top:24px}
.credential section h2{font-size:1.05rem;margin-bottom:6px}
.prose{margin:0;white-space:pre-line;overflow-wrap:anywhere}
.alignments,.evidence{list-style:none;margin:0;padding:0;display:grid;gap:8px}
.alignments li,.evidence li{overflow-wrap:anywhere}
.tag{display:inline-block;border:1px solid var(--line);border-radius:999px;padding:0 8px;font-size:.8rem;color:var(--muted);margin-right:6px}
.steps{list-style:none;margin:0;padding:0;display:grid;gap:10px}
.step{display:flex;gap:10px;align-items:flex-start}
.step-icon{flex:none;width:24px;height:24px;border-radius:50%;display:inline-flex;align-items:center;justify-content:center;font-size:.85rem;font-weight:700;border:2px solid}
.step--passed .step-icon{color:${PALETTE.banner.ok.text};border-color:${PALETTE.banner.ok.border};background:${PALETTE.banner.ok.background}}
.step--failed .step-icon{color:${PALETTE.banner.bad.text};border-color:${PALETTE.banner.bad.border};background:${PALETTE.banner.bad.background}}
.step--skipped .step-icon{color:var(--muted);border-color:var(--line)}
.step--pending .step-icon{color:var(--muted);border-color:var(--line);border-top-color:var(--accent);animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.step--pending .step-icon{animation:none}}
.step-text{display:flex;flex-direction:column;min-width:0}
.step-label{font-weight:600}
.step-message{color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.hash{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;overflow-wrap:anywhere;word-break:break-all}
.qr{display:flex;flex-direction:column;align-items:center;gap:8px;margin:0}
.qr svg{width:168px;height:168px}
.qr figcaption{font-size:.8rem;color:var(--muted);text-align:center;overflow-wrap:anywhere}
.actions{display:grid;gap:10px;margin-top:16px}
.button{display:block;text-align:center;padding:10px 14px;border-radius:8px;font-weight:600;text-decoration:none;border:2px solid var(--accent);color:var(--accent);background:var(--card);font-size:1rem;cursor:pointer}
.button--primary{background:var(--accent);color:#fff}
.dropzone{display:block;border:2px dashed var(--line);border-radius:12px;padding:32px 20px;text-align:center;background:var(--card);cursor:pointer}
.dropzone--over{border-color:var(--accent);background:${PALETTE.banner.info.background}}
.dropzone strong{display:block;font-size:1.1rem;margin-bottom:4px}
textarea{width:100%;min-height:140px;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;border:1px solid var(--line);border-radius:8px;padding:10px;color:var(--text);background:var(--card)}
.paste{margin-top:20px;display:grid;gap:10px}
.or{margin:16px 0 0;color:var(--muted);text-align:center}
.page-title{font-size:1.6rem;font-weight:750;margin-bottom:8px}
.result{margin-top:24px}
footer{color:var(--muted);font-size:.85rem;padding:0 20px 40px}
footer p{margin:4px 0}
@media (max-width:800px){.grid{grid-template-columns:minmax(0,1fr)}.credential h1{font-size:1.6rem}.product{margin-left:0;width:100%}.card{padding:18px}}
@media print{
  body{background:#fff;font-size:11pt}
  .topbar{border:0;border-bottom:1px solid #999}
  .controls,.no-print,.product{display:none!important}
  .card{border:1px solid #bbb;break-inside:avoid}
  .grid{grid-template-columns:minmax(0,1.6fr) minmax(0,1fr)}
  a{color:#000}
  .banner{break-inside:avoid}
  .step--pending .step-icon{animation:none}
}
`

/**
 * The backgrounds the accent colour is shown on (as text, and behind white text).
 *
 * @since 0.1.0
 * @category constants
 */
export const ACCENT_BACKGROUNDS: ReadonlyArray<string> = [PALETTE.card, PALETTE.page]

/**
 * The accent a page uses for a tenant's requested colour (AA on every background it meets).
 *
 * @since 0.1.0
 * @category constants
 */
export const accentFor = (requested: string | undefined): string => Contrast.readableAccent(requested, ACCENT_BACKGROUNDS)

/**
 * The favicon: a seal in Sigil's accent.
 *
 * @since 0.1.0
 * @category constants
 */
export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="${Contrast.DEFAULT_ACCENT}"/><path d="M9.5 16.5l4.5 4.5 8.5-9" fill="none" stroke="#fff" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`

/**
 * A rendered page and the exact text of its inline `<style>` (for the CSP hash).
 *
 * @since 0.1.0
 * @category models
 */
export interface Rendered {
  readonly body: string
  readonly style: string
}

interface Shell {
  readonly title: string
  readonly accent: string
  readonly head?: HtmlT | undefined
  readonly header: HtmlT
  readonly main: HtmlT
  readonly footer?: HtmlT | undefined
  readonly config?: PageConfig | undefined
  readonly script?: string | undefined
}

const shell = (page: Shell): Rendered => {
  const style = CSS(page.accent)
  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${page.head}
<style>${raw(style)}</style>
</head>
<body>
${page.header}
<main class="wrap" id="main">
${page.main}
</main>
${page.footer}
${page.config === undefined ? undefined : html`<script type="application/json" id="sigil-page">${jsonScript(page.config)}</script>`}
${page.script === undefined ? undefined : html`<script type="module" src="${page.script}"></script>`}
</body>
</html>
`
  return { body: body.value, style }
}

const topbar = (tenant: { readonly name: string; readonly logoUrl?: string | undefined } | undefined) => {
  const logo = safeUrl(tenant?.logoUrl)
  return html`<header class="topbar"><div class="wrap">
${logo === undefined ? undefined : html`<img src="${logo}" alt="${tenant?.name ?? ""} logo">`}
${tenant === undefined ? html`<span class="tenant">Sigil</span>` : html`<span class="tenant">${tenant.name}</span>`}
<span class="product">Credential verification</span>
</div></header>`
}

/**
 * The status banner: the `Status: …` line every verdict shows.
 *
 * @since 0.1.0
 * @category components
 */
export const bannerHtml = (
  view: { readonly tone: string; readonly title: string; readonly detail: string; readonly outcome: string },
  source: { readonly kind: "server" | "browser" | "checking"; readonly text: string }
): HtmlT =>
  html`<section id="status" class="banner banner--${view.tone}" data-source="${source.kind}" data-outcome="${view.outcome}" role="status" aria-live="polite" aria-atomic="true">
<p class="banner-source" id="status-source">${source.text}</p>
<p class="banner-title" id="status-title"><span class="banner-label">Status:</span> <span id="status-word">${view.title}</span></p>
<p class="banner-detail" id="status-detail">${view.detail}</p>
</section>`

const stepsHtml = (steps: ReadonlyArray<PageStep>): HtmlT =>
  html`<ol class="steps" id="steps">${
    steps.map((s) =>
      html`<li class="step step--${s.status}" data-step="${s.name}" data-status="${s.status}"><span class="step-icon" aria-hidden="true">${
        ICONS[s.status]
      }</span><div class="step-text"><span class="step-label">${STEP_LABELS[s.name]}</span><span class="sr-only"> ${s.status}: </span><span class="step-message">${s.message}</span></div></li>`
    )
  }</ol>`

const anchorHtml = (anchor: PageAnchor | undefined, none = "No blockchain record yet."): HtmlT => {
  if (anchor === undefined) return html`<div id="anchor-body"><p class="muted">${none}</p></div>`
  const explorer = safeUrl(anchor.explorerUrl)
  return html`<div id="anchor-body"><dl class="facts">
<dt>Chain</dt><dd>${anchor.chainLabel}</dd>
<dt>Transaction</dt><dd>${
    explorer === undefined
      ? html`<code class="hash">${anchor.txHash}</code>`
      : html`<a class="hash" href="${explorer}" rel="noopener noreferrer">${anchor.txHash}</a>`
  }</dd>
${anchor.blockNumber === undefined ? undefined : html`<dt>Block</dt><dd>${anchor.blockNumber}</dd>`}
${anchor.blockTimestamp === undefined ? undefined : html`<dt>Time</dt><dd>${formatDateTime(anchor.blockTimestamp)}</dd>`}
</dl></div>`
}

const footerHtml = (credentialId: string | undefined): HtmlT =>
  html`<footer class="wrap">
<p>Checked with open standards: W3C Verifiable Credentials 2.0, Open Badges 3.0 and Blockcerts v3. The check in your browser reads the issuer's keys, the revocation list and the blockchain itself; it does not take Sigil's word for it.</p>
${credentialId === undefined ? undefined : html`<p>Credential <code class="hash">${credentialId}</code></p>`}
</footer>`

/**
 * Everything the credential page shows.
 *
 * @since 0.1.0
 * @category models
 */
export interface CredentialPage {
  readonly credentialId: string
  readonly verifyUrl: string
  /** `/c/<id>.json`; undefined while the credential is not signed. */
  readonly jsonUrl: string | undefined
  readonly achievement: {
    readonly name: string
    readonly description: string | undefined
    readonly criteria: string | undefined
    readonly alignments: ReadonlyArray<{ readonly framework: string; readonly code: string; readonly name: string; readonly url: string | undefined }>
  }
  readonly evidence: ReadonlyArray<{ readonly narrative: string | undefined; readonly url: string | undefined }>
  /** The awarding body, as the credential names it. */
  readonly issuer: { readonly name: string; readonly url: string | undefined; readonly image: string | undefined }
  readonly tenant: { readonly name: string; readonly logoUrl: string | undefined; readonly accent: string | undefined }
  readonly recipient:
    | { readonly _tag: "Named"; readonly name: string }
    /** `storedCopyVerifies`: false when the name was in clear in the document (decisions §2). */
    | { readonly _tag: "Erased"; readonly storedCopyVerifies: boolean }
    | { readonly _tag: "Unknown" }
  readonly validFrom: string | undefined
  readonly validUntil: string | undefined
  /** The server's verdict; undefined while the credential is not signed. */
  readonly verdict: Verdict | undefined
  readonly revocation: Revocation | undefined
  readonly checkedAt: string
  readonly qrSvg: string
  readonly linkedInUrl: string
  readonly ogImage: string | undefined
  /** The browser bundle's URL; undefined when it could not be built. */
  readonly script: string | undefined
  readonly publicBaseUrl: string
  readonly rpc: PageConfig["rpc"]
  /**
   * Opened through the recipient's claim link (issue #10): the page says the credential is
   * theirs and the download is `downloadUrl` (`/c/<id>.json?claim=…`). The public page has none.
   */
  readonly claim?: { readonly downloadUrl: string } | undefined
}

const PENDING_STEPS = (message: string): ReadonlyArray<PageStep> =>
  STEPS.map((name: StepName) => ({ name, status: "skipped", message }))

/**
 * `/c/<id>`.
 *
 * @since 0.1.0
 * @category pages
 */
export const credentialPage = (page: CredentialPage): Rendered => {
  const { achievement, issuer, recipient } = page
  const context = { revocation: page.revocation, validFrom: page.validFrom, validUntil: page.validUntil }
  const view = page.verdict === undefined
    ? {
      tone: "warn",
      title: "Not yet anchored",
      detail: "The issuer has issued this credential; it is being signed and anchored. Check again in a minute.",
      outcome: "not_anchored"
    }
    : { ...banner(page.verdict, context), outcome: page.verdict.outcome }
  const willRecheck = page.script !== undefined && page.jsonUrl !== undefined
  const source = {
    kind: "server" as const,
    text: `Checked by Sigil's server at ${formatDateTime(page.checkedAt)}.`
  }
  const description = (achievement.description ?? "").slice(0, 300)
  const ogImage = safeUrl(page.ogImage)
  const head = html`<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${achievement.name}">
<meta property="og:description" content="${`${achievement.name}, awarded by ${issuer.name}.${description === "" ? "" : ` ${description}`}`}">
<meta property="og:url" content="${page.verifyUrl}">
<meta property="og:site_name" content="${page.tenant.name}">
${ogImage === undefined ? undefined : html`<meta property="og:image" content="${ogImage}">`}
<meta name="twitter:card" content="summary">
<link rel="canonical" href="${page.verifyUrl}">${page.claim === undefined ? undefined : html`
<meta name="robots" content="noindex">`}`
  const issuerUrl = safeUrl(issuer.url)
  const issuerImage = safeUrl(issuer.image)
  const recipientHtml = recipient._tag === "Named"
    ? html`<p class="awarded">Awarded to</p><p class="recipient" id="recipient">${recipient.name}</p>${
      page.claim === undefined
        ? undefined
        : html`<p class="note" id="claim">This credential was awarded to you. Download the signed file below and keep it: it verifies anywhere, with or without this site. This page's address is personal; share the public one (${page.verifyUrl}).</p>`
    }`
    : recipient._tag === "Erased"
    ? html`<p class="awarded">Awarded to</p><p class="recipient recipient--erased" id="recipient">Recipient data erased</p>
<p class="note">${
      recipient.storedCopyVerifies
        ? "The issuer erased the recipient's personal data on request. The credential itself is unchanged and still verifiable; its holder can show their own copy."
        : "The issuer erased the recipient's personal data on request. The name was written in this credential, so the copy kept here was redacted and no longer verifies; the holder's own copy still does."
    }</p>`
    : undefined
  const main = html`${bannerHtml(view, source)}
<div class="grid">
<article class="card credential" aria-labelledby="achievement-name">
<p class="eyebrow">Open Badge · Verifiable Credential</p>
<h1 id="achievement-name">${achievement.name}</h1>
${recipientHtml}
<div class="issuer">
${issuerImage === undefined ? undefined : html`<img src="${issuerImage}" alt="">`}
<div><div class="muted">Issued by</div><div class="issuer-name">${
    issuerUrl === undefined ? issuer.name : html`<a href="${issuerUrl}" rel="noopener noreferrer">${issuer.name}</a>`
  }</div>${issuer.name === page.tenant.name ? undefined : html`<div class="muted">via ${page.tenant.name}</div>`}</div>
</div>
<dl class="facts">
<dt>Issued</dt><dd>${page.validFrom === undefined ? "—" : formatDate(page.validFrom)}</dd>
<dt>Valid until</dt><dd>${page.validUntil === undefined ? "No expiry" : formatDate(page.validUntil)}</dd>
</dl>
${
    achievement.description === undefined
      ? undefined
      : html`<section><h2>Description</h2><p class="prose">${achievement.description}</p></section>`
  }
${achievement.criteria === undefined ? undefined : html`<section><h2>Criteria</h2><p class="prose">${achievement.criteria}</p></section>`}
${
    achievement.alignments.length === 0 ? undefined : html`<section><h2>Alignments</h2><ul class="alignments">${
      achievement.alignments.map((a) => {
        const url = safeUrl(a.url)
        return html`<li><span class="tag">${a.framework}</span>${
          url === undefined ? a.name : html`<a href="${url}" rel="noopener noreferrer">${a.name}</a>`
        } <code class="hash">${a.code}</code></li>`
      })
    }</ul></section>`
  }
${
    page.evidence.length === 0 ? undefined : html`<section><h2>Evidence</h2><ul class="evidence">${
      page.evidence.map((e) => {
        const url = safeUrl(e.url)
        return html`<li>${e.narrative === undefined ? undefined : html`<span class="prose">${e.narrative}</span> `}${
          url === undefined ? undefined : html`<a href="${url}" rel="noopener noreferrer">${url}</a>`
        }</li>`
      })
    }</ul></section>`
  }
</article>
<aside>
<section class="card" aria-labelledby="steps-title">
<h2 id="steps-title">Verification</h2>
${stepsHtml(page.verdict?.steps ?? PENDING_STEPS("not signed yet"))}
</section>
<section class="card" aria-labelledby="anchor-title">
<h2 id="anchor-title">Blockchain record</h2>
${anchorHtml(page.verdict?.anchor)}
</section>
<section class="card" aria-labelledby="share-title">
<h2 id="share-title">Share</h2>
<figure class="qr" role="group" aria-label="QR code of this page's address">${raw(page.qrSvg)}<figcaption>${page.verifyUrl}</figcaption></figure>
<div class="actions controls">
${
    page.claim !== undefined
      ? html`<a class="button button--primary" id="download" href="${page.claim.downloadUrl}" download>Download your credential (JSON)</a>`
      : page.jsonUrl === undefined
      ? undefined
      : html`<a class="button button--primary" id="download" href="${page.jsonUrl}" download>Download credential (JSON)</a>`
  }
<a class="button" id="linkedin" href="${page.linkedInUrl}" rel="noopener noreferrer" target="_blank">Add to LinkedIn profile</a>
<a class="button" href="/verify">Verify a credential file</a>
</div>
</section>
</aside>
</div>`
  const config: PageConfig | undefined = willRecheck
    ? {
      mode: "credential",
      credentialUrl: page.jsonUrl,
      publicBaseUrl: page.publicBaseUrl,
      rpc: page.rpc,
      revocation: page.revocation,
      server: page.verdict,
      validFrom: page.validFrom,
      validUntil: page.validUntil
    }
    : undefined
  return shell({
    title: `${achievement.name} — ${issuer.name}`,
    accent: accentFor(page.tenant.accent),
    head,
    header: topbar(page.tenant),
    main,
    footer: footerHtml(page.credentialId),
    config,
    script: willRecheck ? page.script : undefined
  })
}

/**
 * `/verify`: drop, choose or paste a credential JSON; the browser checks it.
 *
 * @since 0.1.0
 * @category pages
 */
export const filePage = (
  page: { readonly script: string | undefined; readonly publicBaseUrl: string; readonly rpc: PageConfig["rpc"] }
): Rendered => {
  const main = html`<div class="card">
<h1 class="page-title">Verify a credential file</h1>
<p class="muted">Check a credential JSON yourself: your copy of a credential issued with Sigil (it still verifies after the issuer erased your personal data), or any Blockcerts v3 / Open Badges 3.0 credential. The file never leaves your browser; only public documents are fetched (the issuer's keys, the revocation list, the blockchain transaction).</p>
<label class="dropzone controls" id="dropzone" for="file">
<strong>Drop a credential file here</strong>
<span class="muted">or click to choose a .json file</span>
<input class="sr-only" type="file" id="file" accept=".json,application/json,application/ld+json">
</label>
<p class="or controls">or paste it</p>
<div class="paste controls">
<label class="sr-only" for="paste">Credential JSON</label>
<textarea id="paste" spellcheck="false" placeholder='{"@context": ["https://www.w3.org/ns/credentials/v2", …], …}'></textarea>
<button class="button button--primary" type="button" id="check">Verify</button>
</div>
${page.script === undefined ? html`<p class="muted">The verifier could not be loaded; try again later.</p>` : undefined}
</div>
<div id="result" class="result" hidden>
${
    bannerHtml({ tone: "info", title: "Checking…", detail: "", outcome: "checking" }, {
      kind: "checking",
      text: "Checking in your browser…"
    })
  }
<div class="grid">
<section class="card" aria-labelledby="summary-title"><h2 id="summary-title" class="section-title">The credential</h2><div id="summary"></div></section>
<aside>
<section class="card" aria-labelledby="steps-title"><h2 id="steps-title">Verification</h2>${
    stepsHtml(STEPS.map((name) => ({ name, status: "pending", message: "Waiting…" })))
  }</section>
<section class="card" aria-labelledby="anchor-title"><h2 id="anchor-title">Blockchain record</h2>${anchorHtml(undefined, "Not read yet.")}</section>
</aside>
</div>
</div>`
  return shell({
    title: "Verify a credential — Sigil",
    accent: Contrast.DEFAULT_ACCENT,
    header: topbar(undefined),
    main,
    footer: footerHtml(undefined),
    config: { mode: "file", publicBaseUrl: page.publicBaseUrl, rpc: page.rpc },
    script: page.script
  })
}

/**
 * The not-found page (unknown or malformed credential id, unknown asset).
 *
 * @since 0.1.0
 * @category pages
 */
export const notFoundPage = (what: { readonly title: string; readonly detail: Interpolation }): Rendered =>
  shell({
    title: `${what.title} — Sigil`,
    accent: Contrast.DEFAULT_ACCENT,
    header: topbar(undefined),
    main: html`<div class="card"><h1 class="page-title">${what.title}</h1><p>${what.detail}</p><p><a href="/verify">Verify a credential file</a></p></div>`,
    footer: footerHtml(undefined)
  })
