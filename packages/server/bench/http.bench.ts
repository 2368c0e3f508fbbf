/**
 * HTTP latency of the issuer API beside the ceiling of a bare node:http hello world, measured in
 * the same run on the same machine:
 *
 * - `GET /v1/batches/{id}` at 50 concurrent keep-alive connections: p50, p99, requests/s;
 * - `POST /v1/batches` with 500 credentials (~1 MB), one at a time: p50, p99.
 *
 * Servers run as child processes (Sigil exactly as `npm start` runs it, on PGlite, or on
 * Postgres with `BENCH_DATABASE_URL`); this process only generates load. Both share the
 * machine's two cores, so absolute figures are lower bounds; the ratio is the point.
 *
 * Run: `npm run bench -- http`.
 */
import { spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { performance } from "node:perf_hooks"
import { batchOf, demoKey, eventually, freePort, newDataDir, start } from "../testkit/process.js"

const CONNECTIONS = 50
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000)
const POSTS = Number(process.env.BENCH_POSTS ?? 12)

// A realistic diploma of ≈2 KB of input (the "~1 MB" for 500): long description and
// criteria, two alignments, evidence.
const prose = (n: number, i: number) =>
  Array.from({ length: n }, (_, k) => `Sentence ${k + 1} of the programme's record for graduate ${i}, with its learning outcomes.`).join(" ")
const diplomaBatch = (n: number) => ({
  credentials: batchOf(n).credentials.map((credential, i) => ({
    ...credential,
    recipient: { ...credential.recipient, email: `graduate${i}@example.edu` },
    achievement: {
      id: "https://example.edu/programmes/msc-data-science",
      name: "Master of Science in Data Science",
      description: prose(8, i),
      criteria: { narrative: prose(6, i) },
      alignment: [
        { targetFramework: "ISCED-F", targetCode: "0688", targetName: "Inter-disciplinary programmes involving ICT", targetUrl: "https://uis.unesco.org/isced-f" },
        { targetFramework: "ESCO", targetCode: "2511.3", targetName: "data scientist", targetUrl: "http://data.europa.eu/esco/occupation/258e46f9-0075-4a2e-adae-1ff0477e0f30" }
      ],
      evidence: [{ id: `https://example.edu/theses/${i}`, narrative: "Thesis defended with distinction." }]
    },
    expirationDate: "2036-06-30T00:00:00Z"
  }))
})

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** One keep-alive request; resolves with its latency in ms and the status. */
const call = (agent: Agent, url: URL, options: { method: string; headers?: Record<string, string>; body?: string }) =>
  new Promise<{ ms: number; status: number }>((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { agent, method: options.method, headers: options.headers ?? {} }, (res) => {
      res.resume()
      res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }))
    })
    req.on("error", reject)
    req.end(options.body)
  })

/** `CONNECTIONS` loops hitting one URL for `DURATION_MS`. */
const load = async (url: string, headers: Record<string, string> = {}) => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const target = new URL(url)
  const latencies: Array<number> = []
  const statuses = new Map<number, number>()
  const deadline = performance.now() + DURATION_MS
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < deadline) {
      const { ms, status } = await call(agent, target, { method: "GET", headers })
      latencies.push(ms)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }))
  agent.destroy()
  const sorted = latencies.sort((a, b) => a - b)
  return { rps: latencies.length / (DURATION_MS / 1000), p50: percentile(sorted, 50), p99: percentile(sorted, 99), statuses }
}

const fmt = (r: { rps: number; p50: number; p99: number; statuses: Map<number, number> }) =>
  `${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   statuses ${JSON.stringify(Object.fromEntries(r.statuses))}`

// 1. The ceiling: node:http answering a tiny JSON body.
const barePort = await freePort()
const bare = spawn(process.execPath, ["-e", `require("http").createServer((q, s) => { s.setHeader("content-type", "application/json"); s.end('{"ok":true}') }).listen(${barePort}, "127.0.0.1")`], { stdio: "ignore" })
await eventually(() => fetch(`http://127.0.0.1:${barePort}/`).then((r) => (r.ok ? true : undefined)), 10_000, "the bare server")
const ceiling = await load(`http://127.0.0.1:${barePort}/`)
bare.kill()

// 2. Sigil, as `npm start` runs it, with rate limits lifted for the load test.
const dataDir = newDataDir()
const sigil = await start({
  dataDir,
  env: {
    SIGIL_RATE_LIMIT_PER_MINUTE: "100000000",
    ...(process.env.BENCH_DATABASE_URL === undefined ? {} : { DATABASE_URL: process.env.BENCH_DATABASE_URL })
  }
})
try {
  const key = demoKey(sigil)
  const tenantId = /Demo tenant\s+(tnt_\S+)/.exec(sigil.output())![1]!
  const token = /token: (\S+)/.exec(sigil.output())![1]!
  // The developer plan's quota (1,000 a month) would stop the 500-credential posts.
  await fetch(`${sigil.adminUrl}/admin/tenants/${tenantId}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ plan: "industry" })
  })
  const batch = await sigil.api("POST", "/v1/batches", key, batchOf(3))
  const get = await load(`${sigil.baseUrl}/v1/batches/${batch.body.id}`, { authorization: `Bearer ${key}` })

  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const body = JSON.stringify(diplomaBatch(500))
  const postMs: Array<number> = []
  for (let i = 0; i < POSTS; i++) {
    const { ms, status } = await call(agent, new URL(`${sigil.baseUrl}/v1/batches`), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body
    })
    if (status !== 202) throw new Error(`POST /v1/batches answered ${status}`)
    postMs.push(ms)
  }
  agent.destroy()
  const posts = postMs.sort((a, b) => a - b)

  console.log(`HTTP on ${process.env.BENCH_DATABASE_URL === undefined ? "PGlite" : "PostgreSQL"}, ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per run, 2 cores shared with the load generator`)
  console.log(`  bare node:http hello world   ${fmt(ceiling)}`)
  console.log(`  GET /v1/batches/{id}         ${fmt(get)}`)
  console.log(`  ratio GET / bare (req/s)     ${(get.rps / ceiling.rps).toFixed(3)}`)
  console.log(`  POST /v1/batches, 500 credentials (${(body.length / 1024).toFixed(0)} KB), ${POSTS} sequential: p50 ${percentile(posts, 50).toFixed(0)} ms, p99 ${percentile(posts, 99).toFixed(0)} ms`)
} finally {
  sigil.child.kill("SIGTERM")
  await sigil.exited
  rmSync(dataDir, { recursive: true, force: true })
}
