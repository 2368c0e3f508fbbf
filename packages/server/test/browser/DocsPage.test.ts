/**
 * `/v1/docs` under its Content-Security-Policy (issue #18, defect 7), in Chromium: Swagger UI
 * renders the API's operations, and the policy blocks nothing it needs (no CSP violation, no
 * script error) while it allows no script but the page's own.
 */
import * as MemoryStores from "@sigil/service/MemoryStores"
import { type Harness, start } from "@sigil/http/testkit/blackbox/harness"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type Browser, launch } from "./chromium.js"

let h: Harness
let browser: Browser

beforeAll(async () => {
  h = await start(MemoryStores.layer)
  browser = await launch()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await h?.close()
})

describe("the API reference page", () => {
  it("renders every operation under its policy, without a violation", async () => {
    const { errors, page } = await browser.page()
    const failed: Array<string> = []
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
    const response = await page.goto(`${h.baseUrl}/v1/docs`)
    assert.include(response!.headers()["content-security-policy"], "default-src 'none'")
    await page.waitForSelector(".opblock-summary-path", { timeout: 60_000 })
    const paths = await page.$$eval(".opblock-summary-path", (els) => els.map((e) => e.textContent?.trim()))
    assert.include(paths, "/v1/batches")
    assert.include(paths, "/v1/webhooks/{id}/test")
    // Nothing the page needs was blocked (Chromium reports violations as console errors); the
    // only failed load is the browser's own favicon request.
    assert.deepStrictEqual(failed.filter((f) => f !== "404 /favicon.ico"), [])
    assert.deepStrictEqual(errors.filter((e) => !e.includes("Failed to load resource")), [])
    // An injected script is refused: the policy allows the page's own inline script only.
    const injected = await page.evaluate(() => {
      const script = document.createElement("script")
      script.textContent = "window.__injected = 1"
      document.body.appendChild(script)
      return (window as unknown as { __injected?: number }).__injected
    })
    assert.isUndefined(injected)
    assert.isTrue(errors.some((e) => e.includes("Content Security Policy")))
  }, 120_000)
})
