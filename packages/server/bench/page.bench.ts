/**
 * The verification page (issue #7):
 *
 * - server time of `GET /c/<id>` (the server's own verification included): N sequential
 *   requests on one keep-alive connection, p50/p99 of the round trip and of the server's own
 *   `Server-Timing` (total, and the verifier's share);
 * - navigation → the browser's own "Verified" in Chromium: median over LOADS page loads with a
 *   warm HTTP cache (the bundle cached, as for a returning visitor) and over cold loads (cache
 *   cleared: the bundle downloaded and compiled), plus when the server's verdict was first on
 *   screen (DOMContentLoaded) and how long the in-browser check itself took;
 * - the bundle's size.
 *
 * The server runs as a child process on the embedded devnet (as `npm start` runs it); the
 * machine's cores are shared with Chromium, so the figures are upper bounds of a real visit.
 *
 * Run: `npm run bench -- page`.
 */
import { rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { performance } from "node:perf_hooks"
import { launch } from "../test/browser/chromium.js"
import { batchOf, demoKey, eventually, newDataDir, start } from "../testkit/process.js"

const REQUESTS = Number(process.env.BENCH_PAGE_REQUESTS ?? 200)
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 10)
const COLD_LOADS = Number(process.env.BENCH_PAGE_COLD_LOADS ?? 5)

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
const median = (xs: ReadonlyArray<number>) => percentile([...xs].sort((a, b) => a - b), 50)
const ms = (x: number) => `${x.toFixed(1)} ms`

const get = (agent: Agent, url: URL) =>
  new Promise<{ ms: number; status: number; timing: string }>((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { agent, method: "GET" }, (res) => {
      res.resume()
      res.on("end", () =>
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, timing: String(res.headers["server-timing"] ?? "") }))
    })
    req.on("error", reject)
    req.end()
  })

const timingOf = (header: string, name: string) => Number(new RegExp(`${name};dur=([0-9.]+)`).exec(header)?.[1] ?? NaN)

const dataDir = newDataDir()
const sigil = await start({ dataDir, env: { SIGIL_PUBLIC_RATE_LIMIT: "0" } })
const browser = await launch()
try {
  const key = demoKey(sigil)
  const created = await sigil.api("POST", "/v1/batches", key, batchOf(3))
  const batch = await eventually(async () => {
    const b = await sigil.api("GET", `/v1/batches/${created.body.id}`, key)
    return b.body.status === "anchored" ? b.body : undefined
  }, 90_000, "the batch to be anchored")
  const url = `${sigil.baseUrl}/c/${batch.credentials[0].id}`

  // 1. Server time of the page.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const target = new URL(url)
  for (let i = 0; i < 10; i++) await get(agent, target)
  const samples: Array<{ ms: number; total: number; verify: number }> = []
  for (let i = 0; i < REQUESTS; i++) {
    const r = await get(agent, target)
    if (r.status !== 200) throw new Error(`GET /c/<id> answered ${r.status}`)
    samples.push({ ms: r.ms, total: timingOf(r.timing, "total"), verify: timingOf(r.timing, "verify") })
  }
  agent.destroy()
  const sorted = (f: (s: typeof samples[number]) => number) => samples.map(f).sort((a, b) => a - b)
  const roundTrip = sorted((s) => s.ms)
  const total = sorted((s) => s.total)
  const verify = sorted((s) => s.verify)
  console.log(`GET /c/<id>, ${REQUESTS} sequential requests (keep-alive):`)
  console.log(`  round trip          p50 ${ms(percentile(roundTrip, 50))}   p99 ${ms(percentile(roundTrip, 99))}`)
  console.log(`  server (total)      p50 ${ms(percentile(total, 50))}   p99 ${ms(percentile(total, 99))}`)
  console.log(`  of which verifying  p50 ${ms(percentile(verify, 50))}   p99 ${ms(percentile(verify, 99))}`)

  // 2. The bundle.
  const html = await (await fetch(url)).text()
  const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!
  const raw = (await (await fetch(script, { headers: { "accept-encoding": "identity" } })).arrayBuffer()).byteLength
  const gzipped = await new Promise<number>((resolve, reject) =>
    request(script, { headers: { "accept-encoding": "gzip" } }, (res) => {
      let n = 0
      res.on("data", (chunk: Buffer) => (n += chunk.length))
      res.on("end", () => resolve(n))
    }).on("error", reject).end()
  )
  console.log(`browser bundle: ${(raw / 1024).toFixed(0)} KiB minified, ${(gzipped / 1024).toFixed(0)} KiB gzipped`)

  // 3. Navigation → the browser's own "Verified".
  const { page } = await browser.page()
  const cdp = await browser.context.newCDPSession(page)
  const load = async () => {
    const started = performance.now()
    await page.goto(url, { waitUntil: "commit" })
    await page.waitForSelector("#status[data-source=\"browser\"][data-outcome=\"verified\"]", { timeout: 120_000 })
    const wall = performance.now() - started
    const inPage = await page.evaluate(() => ({
      verdictAt: Number(document.body.dataset.verdictAtMs),
      check: Number(document.body.dataset.checkMs),
      domContentLoaded: (window.performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventEnd
    }))
    return { wall, ...inPage }
  }
  await load() // warm the HTTP cache and the JIT
  const warm: Array<Awaited<ReturnType<typeof load>>> = []
  for (let i = 0; i < LOADS; i++) warm.push(await load())
  const cold: Array<Awaited<ReturnType<typeof load>>> = []
  for (let i = 0; i < COLD_LOADS; i++) {
    await cdp.send("Network.clearBrowserCache")
    cold.push(await load())
  }
  const report = (label: string, runs: typeof warm) =>
    console.log(
      `  ${label.padEnd(22)} navigation → "Verified" median ${ms(median(runs.map((r) => r.verdictAt)))} ` +
        `(wall ${ms(median(runs.map((r) => r.wall)))}); server verdict on screen (DOMContentLoaded) ${
          ms(median(runs.map((r) => r.domContentLoaded)))
        }; in-browser check ${ms(median(runs.map((r) => r.check)))}`
    )
  console.log(`Chromium (headless), ${LOADS} warm and ${COLD_LOADS} cold loads:`)
  report(`warm cache (${LOADS})`, warm)
  report(`cold cache (${COLD_LOADS})`, cold)
} finally {
  await browser.close()
  sigil.child.kill("SIGTERM")
  await sigil.exited
  rmSync(dataDir, { recursive: true, force: true })
}
