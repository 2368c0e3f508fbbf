/**
 * The public verification pages in a real browser (issue #7): the real server process on the
 * embedded devnet, credentials issued, revoked and erased through the API, and Debian's
 * Chromium (playwright-core) opening `/c/<id>` and `/verify`. The browser's own verification
 * (core verifier bundled for browsers, reading DID documents, status lists and the devnet's
 * JSON-RPC itself) must replace the server's verdict. Screenshots go to
 * `packages/server/test-results/browser/`.
 */
import { rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import * as Contrast from "../../src/Contrast.js"
import * as VerifyPageHtml from "../../src/VerifyPageHtml.js"
import { demoKey, eventually, newDataDir, type Running, start } from "../../testkit/process.js"
import { type Browser, launch, screenshot } from "./chromium.js"

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#7a4b00"/><path d="M14 46 32 14l18 32z" fill="#f5b700"/><circle cx="32" cy="38" r="6" fill="#fff"/></svg>`

const SCRIPT_REASON = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`
const HTML_NAME = `<b>Bold</b> & "quoted" <img src=x onerror="window.__pwned = 3">`

const issued = (overrides: Record<string, unknown>) => ({
  recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Graduate" },
  achievement: { name: "Certificate of Completion", description: "Completed the programme." },
  issuanceDate: "2026-06-30T00:00:00Z",
  ...overrides
})

const BATCH = {
  credentials: [
    issued({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Ada Lovelace" },
      achievement: {
        name: "Advanced Structural Analysis",
        description: "Analysed statically indeterminate structures by the force and displacement methods.\nDesigned and load-tested a truss bridge model.",
        criteria: { narrative: "Passed the written examination (≥ 70 %) and the bridge design project." },
        alignment: [
          { targetFramework: "ESCO", targetCode: "S1.12.3", targetName: "perform structural analysis", targetUrl: "http://data.europa.eu/esco/skill/structural-analysis" },
          { targetFramework: "ISCED-F", targetCode: "0732", targetName: "Building and civil engineering" }
        ]
      },
      evidence: [{ id: "https://portfolio.example/ada/bridge", narrative: "Bridge design project report" }],
      expirationDate: "2031-06-30T00:00:00Z"
    }),
    issued({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Charles Babbage" },
      achievement: { name: "Workshop Safety Certificate", description: "Safe use of the mechanical workshop." }
    }),
    issued({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Grace Hopper" },
      achievement: { name: "Data Protection Foundations", description: "Principles of the GDPR and their application." }
    }),
    issued({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `<script>window.__pwned = 4</script>Alan` },
      achievement: { name: HTML_NAME, description: `Markup in issuer text: </p><script>window.__pwned = 5</script>` }
    }),
    issued({ recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Katherine Johnson" } }),
    issued({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Dorothy Vaughan" },
      achievement: { name: "First Aid at Work", description: "Emergency first aid; renewable every three years." },
      issuanceDate: daysFromNow(-400),
      expirationDate: daysFromNow(-2)
    })
  ]
}

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z")
}

describe("the verification pages in Chromium", () => {
  let server: Running
  let dataDir: string
  let browser: Browser
  let logoServer: Server
  let logoUrl: string
  let key: string
  let tenantId: string
  let adminToken: string
  let ids: ReadonlyArray<string>
  let plainErased: string

  const admin = async (method: string, p: string, body?: unknown) => {
    const response = await fetch(`${server.adminUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() as any }
  }

  /**
   * Opens a credential page and waits for the browser's own verdict to replace the server's;
   * the browser must reach the verdict the server's HTML carried.
   */
  const openAndVerify = async (id: string) => {
    // The server's verdict is in the HTML itself, shown before any script runs.
    const served = await (await fetch(`${server.baseUrl}/c/${id}`)).text()
    const serverOutcome = /<section id="status"[^>]* data-source="server" data-outcome="([a-z_]+)"/.exec(served)?.[1]
    assert.isDefined(serverOutcome, "the page carries the server's verdict")
    const { errors, page } = await browser.page()
    await page.goto(`${server.baseUrl}/c/${id}`)
    await page.waitForSelector("#status[data-source=\"browser\"]", { timeout: 90_000 })
    assert.strictEqual(await page.getAttribute("#status", "data-outcome"), serverOutcome, "the browser agrees with the server")
    return { page, errors }
  }

  const statusOf = async (page: Page) => ({
    outcome: await page.getAttribute("#status", "data-outcome"),
    title: (await page.textContent("#status-title"))?.replace(/\s+/g, " ").trim(),
    detail: await page.textContent("#status-detail"),
    source: await page.textContent("#status-source")
  })

  const stepStatuses = (page: Page) =>
    page.$$eval("#steps li", (items) => Object.fromEntries(items.map((li) => [li.getAttribute("data-step"), li.getAttribute("data-status")])))

  beforeAll(async () => {
    logoServer = createServer((_, res) => {
      res.writeHead(200, { "content-type": "image/svg+xml" })
      res.end(LOGO)
    })
    await new Promise<void>((resolve) => logoServer.listen(0, "127.0.0.1", resolve))
    logoUrl = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`

    dataDir = newDataDir()
    server = await start({ dataDir })
    key = demoKey(server)
    adminToken = /token:\s+(\S+)/.exec(server.output())![1]!
    const me = await server.api("GET", "/v1/tenants/me", key)
    tenantId = me.body.id

    // Branding is a starter feature; the accent is too light for white and must be darkened.
    assert.strictEqual((await admin("PATCH", `/admin/tenants/${tenantId}`, { plan: "starter" })).status, 200)
    const patched = await server.api("PATCH", "/v1/tenants/me", key, {
      display_name: "Northbridge Institute of Technology",
      awarding_body: { name: "Faculty of Engineering", url: "https://northbridge.example/engineering", logo_url: logoUrl },
      verify_page_branding: { accent_color: "#F5B700", logo_url: logoUrl }
    })
    assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))

    const issue = async (batch: unknown): Promise<ReadonlyArray<string>> => {
      const created = await server.api("POST", "/v1/batches", key, batch)
      assert.strictEqual(created.status, 202, JSON.stringify(created.body))
      const anchored = await eventually(async () => {
        const b = await server.api("GET", `/v1/batches/${created.body.id}`, key)
        return b.body.status === "anchored" ? b.body : undefined
      }, 90_000, "the batch to be anchored")
      return anchored.credentials.map((c: { id: string }) => c.id)
    }
    ids = await issue(BATCH)
    // A tenant that puts names in clear (decisions §2): erasure makes the stored copy unverifiable.
    assert.strictEqual((await admin("PATCH", `/admin/tenants/${tenantId}`, { recipient_name_mode: "plain" })).status, 200)
    plainErased = (await issue({ credentials: [issued({ recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: "Mary Jackson" } })] }))[0]!

    const revoke = (id: string, reason: string) =>
      server.api("POST", `/v1/credentials/${id}/revoke`, key, { reason, reason_code: "issuer_error" })
    assert.strictEqual((await revoke(ids[1]!, "Issued with a misspelt name; replaced by a corrected credential.")).status, 200)
    assert.strictEqual((await revoke(ids[3]!, SCRIPT_REASON)).status, 200)
    const erased = await server.api("POST", `/v1/credentials/${ids[2]}/erase`, key, {
      requester: "recipient",
      verified_at: new Date().toISOString()
    })
    assert.strictEqual(erased.status, 200, JSON.stringify(erased.body))
    assert.strictEqual(erased.body.verification_status_after_erasure, "verifiable")
    const erasedPlain = await server.api("POST", `/v1/credentials/${plainErased}/erase`, key, {
      requester: "dpo",
      verified_at: new Date().toISOString()
    })
    assert.strictEqual(erasedPlain.body.verification_status_after_erasure, "invalid")

    browser = await launch()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    server?.child.kill("SIGTERM")
    await server?.exited
    logoServer?.close()
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  })

  it("an anchored credential reaches Verified from the in-browser check", async () => {
    const { errors, page } = await openAndVerify(ids[0]!)
    const status = await statusOf(page)
    assert.strictEqual(status.outcome, "verified", JSON.stringify(status))
    assert.strictEqual(status.title, "Status: Verified")
    assert.match(status.source ?? "", /Checked by your browser/)
    const steps = await stepStatuses(page)
    assert.deepStrictEqual(steps, {
      format: "passed",
      documentHash: "passed",
      merklePath: "passed",
      anchor: "passed",
      issuerKey: "passed",
      eddsaProof: "passed",
      status: "passed",
      expiry: "passed"
    })

    // What the page shows: achievement, recipient, issuer, tenant, alignments, anchor.
    assert.strictEqual(await page.textContent("h1"), "Advanced Structural Analysis")
    assert.strictEqual(await page.textContent("#recipient"), "Ada Lovelace")
    const body = (await page.textContent("body")) ?? ""
    for (const text of ["Faculty of Engineering", "Northbridge Institute of Technology", "Passed the written examination", "perform structural analysis", "Building and civil engineering", "30 June 2031", "Sigil devnet"]) {
      assert.include(body, text)
    }
    assert.match((await page.textContent("#anchor-body")) ?? "", /Transaction\s*0x[0-9a-f]{64}/)

    // Share: QR of the URL, JSON download, LinkedIn.
    assert.strictEqual(await page.locator(".qr svg").count(), 1)
    assert.strictEqual(await page.getAttribute("#download", "href"), `/c/${ids[0]}.json`)
    const linkedIn = new URL((await page.getAttribute("#linkedin", "href"))!)
    assert.strictEqual(linkedIn.origin + linkedIn.pathname, "https://www.linkedin.com/profile/add")
    assert.strictEqual(linkedIn.searchParams.get("startTask"), "CERTIFICATION_NAME")
    assert.strictEqual(linkedIn.searchParams.get("name"), "Advanced Structural Analysis")
    assert.strictEqual(linkedIn.searchParams.get("organizationName"), "Faculty of Engineering")
    assert.strictEqual(linkedIn.searchParams.get("issueYear"), "2026")
    assert.strictEqual(linkedIn.searchParams.get("issueMonth"), "6")
    assert.strictEqual(linkedIn.searchParams.get("certUrl"), `${server.baseUrl}/c/${ids[0]}`)
    assert.strictEqual(linkedIn.searchParams.get("certId"), ids[0])

    // Open Graph.
    assert.strictEqual(await page.getAttribute("meta[property=\"og:title\"]", "content"), "Advanced Structural Analysis")
    assert.strictEqual(await page.getAttribute("meta[property=\"og:url\"]", "content"), `${server.baseUrl}/c/${ids[0]}`)
    assert.strictEqual(await page.getAttribute("meta[property=\"og:type\"]", "content"), "website")
    assert.strictEqual(await page.getAttribute("meta[property=\"og:image\"]", "content"), logoUrl)

    // Branding on a starter plan: the logo loads, and the too-light accent was darkened to AA.
    assert.isAbove(await page.$eval(".topbar img", (img) => (img as HTMLImageElement).naturalWidth), 0)
    const accent = (await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent"))).trim()
    assert.notStrictEqual(accent.toLowerCase(), "#f5b700")
    for (const background of VerifyPageHtml.ACCENT_BACKGROUNDS) assert.isAtLeast(Contrast.ratio(accent, background), Contrast.AA)

    assert.deepStrictEqual(errors, [], "no script errors and no CSP violations")
    await screenshot(page, "verified")

    // Responsive: one column on a phone.
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot(page, "verified-mobile")
    // Print (on an A4-wide viewport): the controls are hidden.
    await page.setViewportSize({ width: 794, height: 1123 })
    await page.emulateMedia({ media: "print" })
    assert.isFalse(await page.isVisible("#download"))
    assert.isFalse(await page.isVisible("#linkedin"))
    await screenshot(page, "verified-print")
    await page.close()
  })

  it("a revoked credential shows Revoked with its reason and date, also after the browser's check", async () => {
    const { errors, page } = await openAndVerify(ids[1]!)
    const status = await statusOf(page)
    assert.strictEqual(status.outcome, "revoked", JSON.stringify(status))
    assert.strictEqual(status.title, "Status: Revoked")
    assert.include(status.detail ?? "", "Reason: Issued with a misspelt name; replaced by a corrected credential.")
    assert.match(status.detail ?? "", /Revoked by the issuer on \d{1,2} \w+ \d{4}\./)
    const steps = await stepStatuses(page)
    assert.strictEqual(steps.status, "failed", "the browser read the bit in the status list itself")
    assert.strictEqual(steps.eddsaProof, "passed")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "revoked")
    await page.close()
  })

  it("an erased credential shows the erasure notice and still verifies, on its page and as the holder's file", async () => {
    const { errors, page } = await openAndVerify(ids[2]!)
    assert.strictEqual(await page.textContent("#recipient"), "Recipient data erased")
    assert.notInclude((await page.textContent("body")) ?? "", "Grace Hopper")
    assert.strictEqual((await statusOf(page)).outcome, "verified")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "erased")

    // The holder's own copy, dropped on /verify, verifies too.
    const copy = await (await fetch(`${server.baseUrl}/c/${ids[2]}.json`)).text()
    await page.goto(`${server.baseUrl}/verify`)
    await dropFile(page, copy, "my-credential.json")
    await page.waitForSelector("#status[data-source=\"browser\"]", { timeout: 90_000 })
    assert.strictEqual((await statusOf(page)).outcome, "verified")
    assert.include((await page.textContent("#summary")) ?? "", "Data Protection Foundations")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "erased-file-verified")
    await page.close()
  })

  it("an erased plain-name credential no longer shows or serves the name, and its stored copy fails at the document hash", async () => {
    const served = await (await fetch(`${server.baseUrl}/c/${plainErased}.json`)).text()
    assert.notInclude(served, "Mary Jackson")
    const { errors, page } = await openAndVerify(plainErased)
    assert.strictEqual(await page.textContent("#recipient"), "Recipient data erased")
    assert.include((await page.textContent(".note")) ?? "", "no longer verifies; the holder's own copy still does")
    assert.notInclude((await page.textContent("body")) ?? "", "Mary Jackson")
    const status = await statusOf(page)
    assert.strictEqual(status.outcome, "failed", JSON.stringify(status))
    assert.strictEqual(status.title, "Status: Verification failed")
    assert.include(status.detail ?? "", "Document hash")
    assert.strictEqual((await stepStatuses(page)).documentHash, "failed")
    // The anchoring record still shows where the batch was anchored.
    assert.include((await page.textContent("#anchor-body")) ?? "", "Sigil devnet")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "erased-plain")
    await page.close()
  })

  it("an expired credential shows Expired", async () => {
    const { errors, page } = await openAndVerify(ids[5]!)
    const status = await statusOf(page)
    assert.strictEqual(status.outcome, "expired", JSON.stringify(status))
    assert.strictEqual(status.title, "Status: Expired")
    assert.match(status.detail ?? "", /^Authentic, but valid only until \d{1,2} \w+ \d{4}\.$/)
    const steps = await stepStatuses(page)
    assert.strictEqual(steps.expiry, "failed")
    assert.strictEqual(steps.anchor, "passed")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "expired")
    await page.close()
  })

  it("issuer-supplied markup (a revocation reason with <script>, an achievement name with tags) renders as text", async () => {
    const { errors, page } = await openAndVerify(ids[3]!)
    const status = await statusOf(page)
    assert.strictEqual(status.outcome, "revoked")
    assert.include(status.detail ?? "", `Reason: ${SCRIPT_REASON}`)
    assert.strictEqual(await page.textContent("h1"), HTML_NAME)
    assert.strictEqual(await page.locator("h1 b, h1 img, #status img, #status script").count(), 0)
    assert.strictEqual(await page.textContent("#recipient"), "<script>window.__pwned = 4</script>Alan")
    // Only our two script elements: the JSON data block and the bundle.
    assert.deepStrictEqual(
      await page.$$eval("script", (scripts) => scripts.map((s) => s.getAttribute("type"))),
      ["application/json", "module"]
    )
    assert.isUndefined(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned))
    // The server's HTML itself carries the escaped text (not only the DOM after the browser's check).
    const served = await (await fetch(`${server.baseUrl}/c/${ids[3]}`)).text()
    assert.notInclude(served, "<script>window.__pwned")
    assert.include(served, "&lt;script&gt;window.__pwned = 1&lt;/script&gt;")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "script-reason")
    await page.close()
  })

  it("a tampered credential dropped on /verify fails at the document-hash step", async () => {
    const credential = await server.api("GET", `/v1/credentials/${ids[4]}`, key)
    const tampered = structuredClone(credential.body.signed_credential)
    tampered.credentialSubject.achievement.name = "Doctor of Philosophy"
    const { errors, page } = await browser.page()
    await page.goto(`${server.baseUrl}/verify`)
    await dropFile(page, JSON.stringify(tampered, null, 2), "tampered.json")
    await page.waitForSelector("#status[data-source=\"browser\"]", { timeout: 90_000 })
    const status = await statusOf(page)
    assert.strictEqual(status.outcome, "failed", JSON.stringify(status))
    assert.strictEqual(status.title, "Status: Verification failed")
    assert.include(status.detail ?? "", "Document hash")
    const steps = await stepStatuses(page)
    assert.strictEqual(steps.format, "passed")
    assert.strictEqual(steps.documentHash, "failed")
    assert.strictEqual(steps.merklePath, "skipped")
    assert.include((await page.textContent("#summary")) ?? "", "Doctor of Philosophy")
    assert.deepStrictEqual(errors, [])
    await screenshot(page, "tampered-file")

    // The untampered file, pasted, verifies.
    await page.fill("#paste", JSON.stringify(credential.body.signed_credential))
    await page.click("#check")
    await page.waitForFunction(() => document.querySelector("#status")?.getAttribute("data-outcome") === "verified", undefined, { timeout: 90_000 })
    await page.close()
  })

  it("serves the JSON credential, 404 pages, a strict CSP and the cacheable bundle", async () => {
    const json = await fetch(`${server.baseUrl}/c/${ids[0]}.json`)
    assert.strictEqual(json.status, 200)
    assert.strictEqual(json.headers.get("content-type"), "application/ld+json")
    assert.strictEqual(json.headers.get("content-disposition"), `attachment; filename="${ids[0]}.json"`)
    assert.strictEqual((await json.json() as { proof: Array<{ cryptosuite: string }> }).proof[0]!.cryptosuite, "merkle-proof-2019")

    for (const p of [`/c/crd_${"0".repeat(26)}`, "/c/not-an-id", `/c/${encodeURIComponent("<script>alert(1)</script>")}`]) {
      const response = await fetch(`${server.baseUrl}${p}`)
      assert.strictEqual(response.status, 404, p)
      assert.match(response.headers.get("content-type") ?? "", /^text\/html/)
      const text = await response.text()
      assert.include(text, "Credential not found")
      assert.notInclude(text, "<script>alert")
    }
    assert.strictEqual((await fetch(`${server.baseUrl}/c/crd_${"0".repeat(26)}.json`)).status, 404)

    const pageResponse = await fetch(`${server.baseUrl}/c/${ids[0]}`)
    const csp = pageResponse.headers.get("content-security-policy") ?? ""
    const script = /script-src (\S+) 'wasm-unsafe-eval';/.exec(csp)?.[1]
    assert.match(script ?? "", /^http:\/\/localhost:\d+\/assets\/verify\.[0-9a-f]{16}\.js$/)
    assert.include(csp, "default-src 'none'")
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/)
    assert.match(csp, /connect-src 'self' http:\/\/localhost:\d+/)
    assert.match(pageResponse.headers.get("server-timing") ?? "", /verify;dur=/)

    const bundle = await fetch(script!)
    assert.strictEqual(bundle.status, 200)
    assert.strictEqual(bundle.headers.get("cache-control"), "public, max-age=31536000, immutable")
    assert.match(bundle.headers.get("content-type") ?? "", /^text\/javascript/)
    assert.strictEqual((await fetch(`${server.baseUrl}/assets/verify.0000000000000000.js`)).status, 404)
  })

  it("shows branding only on plans that include it", async () => {
    const accentOf = async () => /--accent:(#[0-9a-f]{6})/.exec(await (await fetch(`${server.baseUrl}/c/${ids[0]}`)).text())?.[1]
    assert.strictEqual(await accentOf(), VerifyPageHtml.accentFor("#F5B700"))
    assert.strictEqual((await admin("PATCH", `/admin/tenants/${tenantId}`, { plan: "developer" })).status, 200)
    assert.strictEqual(await accentOf(), Contrast.DEFAULT_ACCENT)
  })
})

/** Drops a file on the drop zone, as a user dragging it from their desktop would. */
const dropFile = async (page: Page, content: string, name: string) => {
  await page.waitForSelector("body[data-ready=\"true\"]")
  const transfer = await page.evaluateHandle(({ content, name }) => {
    const data = new DataTransfer()
    data.items.add(new File([content], name, { type: "application/json" }))
    return data
  }, { content, name })
  await page.dispatchEvent("#dropzone", "drop", { dataTransfer: transfer })
}
