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
import { rmSync } from "node:fs"
import { Agent } from "node:http"
import { batchOf, demoKey, newDataDir, start } from "../testkit/process.js"
import { bareCeiling, call, CONNECTIONS, fmt, load as loadFor, percentile } from "./support/load.js"
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

// 1. The ceiling: node:http answering a small JSON body.
const ceiling = await bareCeiling(DURATION_MS)
const load = (url: string, headers: Record<string, string> = {}) => loadFor(url, DURATION_MS, headers)

// 2. Sigil, as `npm start` runs it, with rate limits lifted for the load test.
const dataDir = newDataDir()
const sigil = await start({
  dataDir,
  env: {
    SIGIL_RATE_LIMIT_PER_MINUTE: "100000000",
    SIGIL_PUBLIC_RATE_LIMIT: "0",
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
