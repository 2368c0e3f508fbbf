/**
 * Debian's Chromium driven by playwright-core: headless, with a fresh profile, and none of the
 * background traffic (updates, sync, safe browsing) these machines could not make anyway.
 * Shared by the browser tests and the page benchmark.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

export const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

export const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage"
]

export interface Browser {
  readonly context: BrowserContext
  /** A new page that records its script errors and console errors (CSP violations among them). */
  readonly page: () => Promise<{ readonly page: Page; readonly errors: Array<string> }>
  readonly close: () => Promise<void>
}

/** Launches Chromium with a fresh `--user-data-dir` (a persistent context on a new temp dir). */
export const launch = async (): Promise<Browser> => {
  if (!existsSync(EXECUTABLE)) {
    throw new Error(`Chromium is not installed at ${EXECUTABLE}: run \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH`)
  }
  const profile = mkdtempSync(path.join(tmpdir(), "sigil-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 900 },
    timeout: 60_000
  })
  return {
    context,
    page: async () => {
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`))
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()}`)
      })
      return { page, errors }
    },
    close: async () => {
      await context.close().catch(() => undefined)
      rmSync(profile, { recursive: true, force: true })
    }
  }
}

/** `packages/server/test-results/browser/` (gitignored). */
export const screenshotDir = (): string => {
  const dir = path.resolve(new URL("../../test-results/browser", import.meta.url).pathname)
  mkdirSync(dir, { recursive: true })
  return dir
}

export const screenshot = (page: Page, name: string): Promise<Buffer> =>
  page.screenshot({ path: path.join(screenshotDir(), `${name}.png`), fullPage: true })
