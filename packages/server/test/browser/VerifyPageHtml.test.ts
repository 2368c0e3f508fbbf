/**
 * The verification page without a browser: the escaping helper, WCAG AA contrast of every
 * colour pair the page uses (the tenant's accent included), the banner wording, the LinkedIn
 * link, the CSP, and a page rendered from hostile issuer strings.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import * as Contrast from "../../src/Contrast.js"
import { html, jsonScript, raw, safeUrl } from "../../src/Html.js"
import * as VerifyPage from "../../src/VerifyPage.js"
import * as VerifyPageHtml from "../../src/VerifyPageHtml.js"
import { PALETTE } from "../../src/VerifyPageHtml.js"
import type { Verdict } from "../../src/VerifyPageText.js"
import { banner, withRecordedRevocation } from "../../src/VerifyPageText.js"

const EVIL = `<script>alert("x")</script><img src=x onerror='alert(1)'>&amp;`

describe("Html", () => {
  it("escapes interpolated text, in content and attributes, but not nested markup", () => {
    const inner = html`<b>${EVIL}</b>`
    const out = html`<p title="${EVIL}">${inner}${[EVIL, 1, undefined, null, false]}</p>`.value
    expect(out).not.toContain("<script>")
    expect(out).not.toContain("<img")
    expect(out).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
    expect(out).toContain("onerror=&#39;alert(1)&#39;")
    expect(out).toContain("&amp;amp;")
    expect(out.startsWith("<p title=\"&lt;script&gt;")).toBe(true)
    expect(out).toContain("<b>&lt;script&gt;")
    expect(html`${raw("<hr>")}`.value).toBe("<hr>")
  })

  it("lets only http(s) URLs into href and src", () => {
    expect(safeUrl("https://example.org/a?b=c")).toBe("https://example.org/a?b=c")
    expect(safeUrl("http://127.0.0.1:8080/logo.svg")).toBe("http://127.0.0.1:8080/logo.svg")
    for (const bad of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<script>", "urn:uuid:1234", "/relative", "vbscript:x", 42, undefined]) {
      expect(safeUrl(bad)).toBeUndefined()
    }
  })

  it("writes JSON data blocks that cannot close their script element", () => {
    const out = jsonScript({ reason: "</script><script>alert(1)</script><!--", line: "\u2028" }).value
    expect(out).not.toMatch(/<|>/)
    expect(JSON.parse(out)).toEqual({ reason: "</script><script>alert(1)</script><!--", line: "\u2028" })
  })
})

describe("contrast (WCAG AA, 4.5:1)", () => {
  it("computes the WCAG ratio", () => {
    expect(Contrast.ratio("#000000", "#ffffff")).toBeCloseTo(21, 5)
    expect(Contrast.ratio("#ffffff", "#ffffff")).toBeCloseTo(1, 5)
    expect(Contrast.ratio("#767676", "#ffffff")).toBeCloseTo(4.54, 2)
  })

  it("holds every text colour of the page to AA on the backgrounds it is used on", () => {
    const pairs: Array<[string, string, string]> = [
      ["text on card", PALETTE.text, PALETTE.card],
      ["text on page", PALETTE.text, PALETTE.page],
      ["muted on card", PALETTE.muted, PALETTE.card],
      ["muted on page", PALETTE.muted, PALETTE.page],
      ["white on the default accent", "#ffffff", Contrast.DEFAULT_ACCENT],
      ["default accent on page", Contrast.DEFAULT_ACCENT, PALETTE.page],
      ["text on the drop zone's hover", PALETTE.text, PALETTE.banner.info.background]
    ]
    for (const [tone, colours] of Object.entries(PALETTE.banner)) {
      pairs.push([`${tone} banner text`, colours.text, colours.background])
      pairs.push([`${tone} step mark`, colours.text, colours.background])
    }
    for (const [what, foreground, background] of pairs) {
      expect(Contrast.ratio(foreground, background), what).toBeGreaterThanOrEqual(Contrast.AA)
    }
  })

  it("keeps a tenant accent that passes, and darkens one that fails until it passes, keeping its hue", () => {
    expect(VerifyPageHtml.accentFor("#1a4d8f")).toBe("#1a4d8f")
    for (const light of ["#F5B700", "#ffff00", "#ffffff", "#00c2ff", "#ff6b6b", "#7fbf7f"]) {
      const accent = VerifyPageHtml.accentFor(light)
      expect(accent).not.toBe(light.toLowerCase())
      for (const background of VerifyPageHtml.ACCENT_BACKGROUNDS) {
        expect(Contrast.ratio(accent, background), `${light} → ${accent} on ${background}`).toBeGreaterThanOrEqual(Contrast.AA)
      }
      // Same hue: the channels keep their proportions (up to rounding).
      const [r0, g0, b0] = Contrast.parseHex(light)!
      const [r1, g1, b1] = Contrast.parseHex(accent)!
      if (r0 > 0 && r0 === Math.max(r0, g0, b0)) expect(r1).toBe(Math.max(r1, g1, b1))
      if (b0 > 0 && b0 === Math.max(r0, g0, b0)) expect(b1).toBe(Math.max(r1, g1, b1))
    }
    // Barely failing colours are darkened only a little.
    expect(Contrast.ratio(VerifyPageHtml.accentFor("#808080"), "#ffffff")).toBeLessThan(5.3)
    expect(VerifyPageHtml.accentFor(undefined)).toBe(Contrast.DEFAULT_ACCENT)
    expect(VerifyPageHtml.accentFor("red")).toBe(Contrast.DEFAULT_ACCENT)
    expect(VerifyPageHtml.accentFor("#12345")).toBe(Contrast.DEFAULT_ACCENT)
  })
})

const verdict = (overrides: Partial<Verdict>): Verdict => ({
  outcome: "verified",
  failedStep: undefined,
  steps: [],
  revocationReason: undefined,
  anchor: undefined,
  ...overrides
})

describe("banner wording", () => {
  it("names each outcome as the issue asks", () => {
    expect(banner(verdict({})).title).toBe("Verified")
    expect(banner(verdict({ outcome: "not_anchored" })).title).toBe("Not yet anchored")
    expect(banner(verdict({ outcome: "expired" }), { validUntil: "2025-01-31T00:00:00Z" })).toEqual({
      tone: "warn",
      title: "Expired",
      detail: "Authentic, but valid only until 31 January 2025."
    })
    const revoked = banner(verdict({ outcome: "revoked" }), { revocation: { reason: "Duplicate", revokedAt: "2026-07-01T10:00:00Z" } })
    expect(revoked).toEqual({ tone: "bad", title: "Revoked", detail: "Revoked by the issuer on 1 July 2026. Reason: Duplicate" })
    const failed = banner(verdict({
      outcome: "failed",
      failedStep: "anchor",
      steps: [{ name: "anchor", status: "failed", message: "the transaction 0xab is not on Base" }]
    }))
    expect(failed.title).toBe("Verification failed")
    expect(failed.detail).toBe("Failed at the step “Blockchain anchor”: the transaction 0xab is not on Base.")
  })
})

describe("the issuer's record of a revocation", () => {
  it("makes an authentic credential revoked even when its status list does not say so, and never loosens a verdict", () => {
    const revocation = { reason: "Duplicate", revokedAt: "2026-07-01T10:00:00Z" }
    for (const outcome of ["verified", "not_anchored", "expired", "not_yet_valid", "suspended"] as const) {
      expect(withRecordedRevocation(verdict({ outcome }), revocation).outcome).toBe("revoked")
    }
    expect(withRecordedRevocation(verdict({ outcome: "failed", failedStep: "documentHash" }), revocation).outcome).toBe("failed")
    expect(withRecordedRevocation(verdict({ outcome: "verified" }), undefined).outcome).toBe("verified")
  })
})

describe("links and headers", () => {
  it("builds LinkedIn's add-certification link", () => {
    const url = new URL(VerifyPage.linkedInUrl({
      name: "Data & Society",
      organizationName: "Faculty <of> Law",
      issued: "2026-06-30T00:00:00Z",
      expires: undefined,
      certUrl: "https://sigil.example/c/crd_01",
      certId: "crd_01"
    }))
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/profile/add")
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: "Data & Society",
      organizationName: "Faculty <of> Law",
      issueYear: "2026",
      issueMonth: "6",
      certUrl: "https://sigil.example/c/crd_01",
      certId: "crd_01"
    })
  })

  it("allows only the page's own script, its style by hash, its logos and its RPC endpoints", () => {
    const csp = VerifyPage.contentSecurityPolicy({
      style: "body{}",
      script: "https://sigil.example/assets/verify.0123456789abcdef.js",
      images: ["https://cdn.example"],
      connect: ["https://sigil.example", "https://mainnet.base.org"]
    })
    expect(csp).toBe(
      "default-src 'none'; script-src https://sigil.example/assets/verify.0123456789abcdef.js 'wasm-unsafe-eval'; " +
        `style-src 'sha256-${createHash("sha256").update("body{}").digest("base64")}'; img-src 'self' https://cdn.example; ` +
        "connect-src 'self' https://sigil.example https://mainnet.base.org; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
  })

  it("gives browsers the devnet's RPC and the public Base endpoints", () => {
    expect(VerifyPage.browserRpc({
      publicBaseUrl: "http://localhost:8080/",
      devnet: true,
      baseSepolia: { _tag: "Some", value: "https://sepolia.base.org" } as never,
      baseMainnet: { _tag: "None" } as never
    })).toEqual({ 31337: "http://localhost:8080/devnet/rpc", 84532: "https://sepolia.base.org" })
  })
})

describe("the credential page", () => {
  const page = (overrides: Partial<VerifyPageHtml.CredentialPage> = {}) =>
    VerifyPageHtml.credentialPage({
      credentialId: "crd_01J00000000000000000000000",
      verifyUrl: "https://sigil.example/c/crd_01J00000000000000000000000",
      jsonUrl: "/c/crd_01J00000000000000000000000.json",
      achievement: {
        name: EVIL,
        description: EVIL,
        criteria: EVIL,
        alignments: [{ framework: EVIL, code: EVIL, name: EVIL, url: "javascript:alert(1)" }]
      },
      evidence: [{ narrative: EVIL, url: "javascript:alert(2)" }],
      issuer: { name: EVIL, url: "javascript:alert(3)", image: "data:image/svg+xml,<svg onload=alert(4)>" },
      tenant: { name: EVIL, logoUrl: "javascript:alert(5)", accent: "#ffff00" },
      recipient: { _tag: "Named", name: EVIL },
      validFrom: "2026-06-30T00:00:00Z",
      validUntil: undefined,
      verdict: verdict({ outcome: "revoked", steps: [{ name: "status", status: "failed", message: EVIL }] }),
      revocation: { reason: EVIL, revokedAt: "2026-07-01T00:00:00Z" },
      checkedAt: "2026-07-02T00:00:00Z",
      qrSvg: "<svg></svg>",
      linkedInUrl: "https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME",
      ogImage: "javascript:alert(6)",
      script: "https://sigil.example/assets/verify.0123456789abcdef.js",
      publicBaseUrl: "https://sigil.example",
      rpc: { 31337: "https://sigil.example/devnet/rpc" },
      ...overrides
    })

  it("escapes every issuer-supplied string and drops unsafe URLs", () => {
    const { body } = page()
    // The JSON data block is inert (and cannot be closed early: see jsonScript); check the markup.
    const markup = body.replace(/<script type="application\/json" id="sigil-page">[^<]*<\/script>/, "")
    expect(markup).not.toBe(body)
    expect(markup).not.toContain("<script>alert")
    expect(markup).not.toContain("<img src=x")
    expect(markup).not.toMatch(/javascript:|data:image|onerror='/)
    // Exactly our two scripts: the JSON data block and the bundle.
    expect(body.match(/<script/g)).toHaveLength(2)
    expect(body).toContain("Status:</span> <span id=\"status-word\">Revoked</span>")
    expect(body).toContain("Reason: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
    expect(body).not.toContain("og:image")
  })

  it("says when the recipient's data was erased, and prints without controls", () => {
    const { body, style } = page({ recipient: { _tag: "Erased", storedCopyVerifies: true } })
    expect(body).toContain("Recipient data erased")
    expect(body).toContain("still verifiable")
    expect(page({ recipient: { _tag: "Erased", storedCopyVerifies: false } }).body).toContain("no longer verifies")
    expect(style).toMatch(/@media print\{[^]*\.controls[^}]*display:none!important/)
    expect(body).toMatch(/class="actions controls"/)
  })

  it("renders an unsigned credential without a download or a browser check", () => {
    const { body } = page({ verdict: undefined, jsonUrl: undefined })
    expect(body).toContain("Not yet anchored")
    expect(body).not.toContain("Download credential")
    expect(body).not.toContain("<script")
  })
})
