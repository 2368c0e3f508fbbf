/**
 * Serving: each endpoint a verifier, an employer or an integrator calls, at 50 keep-alive
 * connections, beside a bare node:http server answering a ~600-byte JSON in the same run, with
 * each endpoint's ratio to it. Sigil runs as `npm start` runs it, on PGlite, and on Postgres
 * when one answers on 127.0.0.1:5432 (a fresh database) or BENCH_DATABASE_URL names one. Rate
 * limits are lifted so the figures show the serving path, not the limiter's refusals.
 *
 * Each row also gives the server's CPU time per request and, as "cpu ratio", the bare server's
 * CPU per request divided by it: how many times the bare server's work a request costs, read
 * from /proc, so it holds on a machine whose other load moves the requests per second.
 *
 * Run: `npm run bench -- serve` (BENCH_DURATION_MS per endpoint, default 4000).
 */
import { spawnSync } from "node:child_process"
import { rmSync } from "node:fs"
import { batchOf, createTenant, eventually, newDataDir, type Running, start } from "../testkit/process.js"
import { bareCeiling, CONNECTIONS, fmt, load, type LoadResult } from "./support/load.js"

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4_000)

const psql = (query: string) =>
  spawnSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-Atc", query], { encoding: "utf8" }).status === 0

/** BENCH_DATABASE_URL, or a fresh database on the machine's Postgres (dropped afterwards). */
const postgres = (): { readonly url: string; readonly drop: () => void } | undefined => {
  if (process.env.BENCH_DATABASE_URL !== undefined) return { url: process.env.BENCH_DATABASE_URL, drop: () => {} }
  const name = `sigil_serve_${Date.now()}`
  return psql(`CREATE DATABASE ${name}`)
    ? { url: `postgres://postgres@127.0.0.1:5432/${name}`, drop: () => void psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
    : undefined
}

const measure = async (store: string, env: Record<string, string>, ceiling: LoadResult) => {
  const dataDir = newDataDir()
  const sigil: Running = await start({ dataDir, env: { SIGIL_RATE_LIMIT_PER_MINUTE: "100000000", SIGIL_PUBLIC_RATE_LIMIT: "0", ...env } })
  try {
    const tenant = await createTenant(sigil, { name: "Bench University" })
    const created = await sigil.api("POST", "/v1/batches", tenant.key, batchOf(1))
    await eventually(async () => {
      const b = await sigil.api("GET", `/v1/batches/${created.body.id}`, tenant.key)
      return b.body.status === "anchored" ? true : undefined
    }, 90_000, "the batch to be anchored")
    const batch = (await sigil.api("GET", `/v1/batches/${created.body.id}`, tenant.key)).body
    const credentialId = batch.credentials[0].id as string
    const credential = (await sigil.api("GET", `/v1/credentials/${credentialId}`, tenant.key)).body
    const statusPath = new URL(credential.signed_credential.credentialStatus.statusListCredential).pathname
    const suffix = tenant.did.split(":").at(-1)!
    const didPath = `/tenants/${suffix}/did.json`
    const etag = (await fetch(`${sigil.baseUrl}${didPath}`)).headers.get("etag")
    const auth = { authorization: `Bearer ${tenant.key}` }
    const rows: Array<[string, string, Record<string, string>]> = [
      ["GET /v1/tenants/me without a key (401)", "/v1/tenants/me", {}],
      ["GET /v1/batches/{id}", `/v1/batches/${batch.id}`, auth],
      ["GET /v1/batches?limit=25", "/v1/batches?limit=25", auth],
      ["GET /v1/credentials/{id}", `/v1/credentials/${credentialId}`, auth],
      ["GET /c/{id}.json", `/c/${credentialId}.json`, {}],
      ["GET /tenants/{suffix}/did.json", didPath, {}],
      ["GET /tenants/{suffix}/status/{n}", statusPath, {}],
      ["GET /c/{id} (verification page)", `/c/${credentialId}`, {}],
      ...(etag === null ? [] : [["did.json, If-None-Match (304)", didPath, { "if-none-match": etag }] as [string, string, Record<string, string>]])
    ]
    console.log(`\n${store}: ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per endpoint${etag === null ? " (no ETag: no 304 row)" : ""}`)
    for (const [label, path, headers] of rows) {
      const r = await load(`${sigil.baseUrl}${path}`, DURATION_MS, headers, sigil.child.pid)
      const cpuRatio = r.cpuUs === undefined || ceiling.cpuUs === undefined ? "" : `   cpu ratio ${(ceiling.cpuUs / r.cpuUs).toFixed(3)}`
      console.log(`  ${label.padEnd(40)} ${fmt(r)}   ratio ${(r.rps / ceiling.rps).toFixed(3)}${cpuRatio}`)
    }
  } finally {
    sigil.child.kill("SIGTERM")
    await sigil.exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const ceiling = await bareCeiling(DURATION_MS)
console.log(`bare node:http, ~600-byte JSON: ${fmt(ceiling)}`)
await measure("PGlite (npm start)", {}, ceiling)
const pg = postgres()
if (pg === undefined) console.log("\nPostgres: not reachable, skipped")
else {
  try {
    await measure("Postgres (DATABASE_URL)", { DATABASE_URL: pg.url }, ceiling)
  } finally {
    pg.drop()
  }
}
