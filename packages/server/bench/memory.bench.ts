/**
 * Memory: the resident set (VmRSS of /proc/<pid>/status) of the server as `npm start` runs it on
 * its embedded defaults (PGlite, the devnet, a fresh data directory), idle once started, under
 * 20 s of GETs at 50 keep-alive connections, and once settled after the load; nothing is forced
 * (no GC is asked for, the server runs unmodified). Each figure is also given as a ratio to
 * baselines measured in the same run: a bare `node -e` that imports nothing, and a process that
 * has only the two engines up (PGlite store + devnet, under tsx as the server is). The server's
 * child processes (esbuild's service, when one is left running) are shown beside it: they are
 * memory the server costs too, though not in its own RSS.
 *
 * The load is a mix of what verifiers and integrators read, each connection cycling through:
 * GET /v1/batches/{id} and /v1/credentials/{id} (authenticated), /c/{id}.json, the DID document,
 * the status list and the verification page /c/{id}. Rate limits (per key and per client address)
 * are lifted so requests reach the serving path.
 *
 * Run: `npm run bench -- memory` (BENCH_LOAD_MS sets the load, default 20000).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync, rmSync } from "node:fs"
import { Agent } from "node:http"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { batchOf, createTenant, eventually, newDataDir, start } from "../testkit/process.js"
import { call, CONNECTIONS, percentile } from "./support/load.js"

const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 20_000)
/** A figure is stable once it moved by less than this over `STABLE_WINDOW_MS`. */
const STABLE_MB = 4
const STABLE_WINDOW_MS = 4_000
const SETTLE_LIMIT_MS = 20_000
const SAMPLE_MS = 250

const root = path.resolve(new URL("../../..", import.meta.url).pathname)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const status = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return kb === null ? 0 : Number(kb[1]) / 1024
  } catch {
    return 0
  }
}
const rss = (pid: number) => status(pid, "VmRSS")

/** Every descendant of `pid` (children of any of its threads), depth first. */
const descendants = (pid: number): Array<number> => {
  let tasks: Array<string>
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children = tasks.flatMap((t) => {
    try {
      return readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/).filter((s) => s !== "").map(Number)
    } catch {
      return []
    }
  })
  return children.flatMap((c) => [c, ...descendants(c)])
}
const childrenRss = (pid: number) => descendants(pid).reduce((sum, c) => sum + rss(c), 0)
const command = (pid: number) => {
  try {
    return path.basename(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!)
  } catch {
    return "?"
  }
}

/** Samples `pid`'s RSS until it has moved by less than STABLE_MB over STABLE_WINDOW_MS, or `limitMs`. */
const stable = async (pid: number, limitMs: number): Promise<{ readonly mb: number; readonly afterMs: number; readonly stable: boolean }> => {
  const started = performance.now()
  const samples: Array<{ readonly at: number; readonly mb: number }> = []
  while (true) {
    const at = performance.now() - started
    samples.push({ at, mb: rss(pid) })
    const window = samples.filter((s) => s.at >= at - STABLE_WINDOW_MS)
    const mbs = window.map((s) => s.mb)
    if (at >= STABLE_WINDOW_MS && Math.max(...mbs) - Math.min(...mbs) < STABLE_MB) return { mb: mbs.at(-1)!, afterMs: at, stable: true }
    if (at >= limitMs) return { mb: mbs.at(-1)!, afterMs: at, stable: false }
    await sleep(SAMPLE_MS)
  }
}

const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once("exit", r))
  child.kill("SIGTERM")
  await Promise.race([exited, sleep(10_000)])
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}

/** A bare node that imports nothing, or one that has loaded tsx only: their RSS once stable. */
const bareNode = async (args: ReadonlyArray<string>): Promise<number> => {
  const child = spawn(process.execPath, [...args, "-e", "process.stdout.write('ready\\n'); setInterval(() => {}, 1000)"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"]
  })
  try {
    let out = ""
    child.stdout!.on("data", (d) => (out += d))
    await eventually(async () => (out.includes("ready") ? true : undefined), 30_000, "the baseline process")
    return (await stable(child.pid!, 5_000)).mb
  } finally {
    await stopChild(child)
  }
}

interface Engines {
  readonly rss: number
  readonly heapUsed: number
  readonly external: number
}

/** PGlite store + devnet alone (support/engines.ts), under tsx as the server runs. */
const engines = async (): Promise<Engines> => {
  const dataDir = newDataDir()
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "packages/server/bench/support/engines.ts"), dataDir], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"]
  })
  try {
    let out = ""
    child.stdout!.on("data", (d) => (out += d))
    await eventually(async () => (/^ready$/m.test(out) ? true : undefined), 90_000, "PGlite and the devnet")
    const mb = (await stable(child.pid!, SETTLE_LIMIT_MS)).mb
    const before = out.length
    child.stdin!.write("\n")
    const usage = await eventually(async () => {
      const line = out.slice(before).split("\n").find((l) => l.startsWith("{") && l.endsWith("}"))
      return line === undefined ? undefined : JSON.parse(line) as NodeJS.MemoryUsage
    }, 10_000, "the engines' memory usage")
    return { rss: mb, heapUsed: usage.heapUsed / 2 ** 20, external: usage.external / 2 ** 20 }
  } finally {
    await stopChild(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** 50 connections, each cycling through `targets` from its own offset, for `durationMs`, sampling RSS. */
const mixedLoad = async (baseUrl: string, targets: ReadonlyArray<readonly [string, string, Record<string, string>]>, durationMs: number, pid: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const per = targets.map(() => ({ latencies: [] as Array<number>, statuses: new Map<number, number>() }))
  let peak = 0
  const deadline = performance.now() + durationMs
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), SAMPLE_MS)
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, connection) => {
    for (let i = connection; performance.now() < deadline; i++) {
      const which = i % targets.length
      const [, p, headers] = targets[which]!
      const { ms, status } = await call(agent, new URL(`${baseUrl}${p}`), { method: "GET", headers })
      per[which]!.latencies.push(ms)
      per[which]!.statuses.set(status, (per[which]!.statuses.get(status) ?? 0) + 1)
    }
  }))
  clearInterval(sampler)
  agent.destroy()
  return {
    peak: Math.max(peak, rss(pid)),
    end: rss(pid),
    rows: targets.map(([label], i) => {
      const sorted = per[i]!.latencies.sort((a, b) => a - b)
      return { label, rps: sorted.length / (durationMs / 1000), p50: percentile(sorted, 50), statuses: Object.fromEntries(per[i]!.statuses) }
    })
  }
}

const mb = (x: number) => `${x.toFixed(0).padStart(5)} MB`

const bare = await bareNode([])
const tsx = await bareNode(["--import", "tsx"])
const base = await engines()
const ratios = (x: number) => `×${(x / bare).toFixed(1).padStart(4)} bare   ×${(x / base.rss).toFixed(2)} engines`
console.log("baselines (RSS once stable)")
console.log(`  bare node (node -e, imports nothing)              ${mb(bare)}`)
console.log(`  node --import tsx (imports nothing)               ${mb(tsx)}   ×${(tsx / bare).toFixed(1)} bare`)
console.log(
  `  engines: PGlite store + devnet, under tsx         ${mb(base.rss)}   ×${(base.rss / bare).toFixed(1)} bare` +
    `   (V8 heap used ${base.heapUsed.toFixed(0)} MB, outside it ${base.external.toFixed(0)} MB: PGlite's WebAssembly memory)`
)

const dataDir = newDataDir()
const started = performance.now()
const sigil = await start({ dataDir, env: { SIGIL_RATE_LIMIT_PER_MINUTE: "100000000", SIGIL_PUBLIC_RATE_LIMIT: "0" } })
const pid = sigil.child.pid!
const children = () => {
  const list = descendants(pid)
  return list.length === 0 ? "no child process" : `child processes ${mb(childrenRss(pid)).trim()} (${[...new Set(list.map(command))].join(", ")})`
}
try {
  console.log(`\nserver (npm start's embedded defaults, a fresh data directory; banner after ${((performance.now() - started) / 1000).toFixed(1)} s)`)
  const idle = await stable(pid, SETTLE_LIMIT_MS)
  console.log(`  peak while starting (VmHWM)                       ${mb(status(pid, "VmHWM"))}   ${ratios(status(pid, "VmHWM"))}`)
  console.log(
    `  idle, ${idle.stable ? `stable ${(idle.afterMs / 1000).toFixed(1)} s after the banner` : `still moving ${(idle.afterMs / 1000).toFixed(0)} s after the banner`}`.padEnd(52) +
      `${mb(idle.mb)}   ${ratios(idle.mb)}   + ${children()}`
  )

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
  const auth = { authorization: `Bearer ${tenant.key}` }
  const targets: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
    ["GET /v1/batches/{id}", `/v1/batches/${batch.id}`, auth],
    ["GET /v1/credentials/{id}", `/v1/credentials/${credentialId}`, auth],
    ["GET /c/{id}.json", `/c/${credentialId}.json`, {}],
    ["GET /tenants/{suffix}/did.json", `/tenants/${tenant.did.split(":").at(-1)}/did.json`, {}],
    ["GET /tenants/{suffix}/status/{n}", statusPath, {}],
    ["GET /c/{id} (verification page)", `/c/${credentialId}`, {}]
  ]
  const before = rss(pid)
  const load = await mixedLoad(sigil.baseUrl, targets, LOAD_MS, pid)
  console.log(`  before the load (a tenant, a batch anchored)      ${mb(before)}   ${ratios(before)}`)
  console.log(`  under ${LOAD_MS / 1000} s of GETs at ${CONNECTIONS} connections: peak        ${mb(load.peak)}   ${ratios(load.peak)}`)
  console.log(`  at the end of the load                            ${mb(load.end)}   ${ratios(load.end)}`)
  for (const row of load.rows) {
    console.log(`      ${row.label.padEnd(36)} ${row.rps.toFixed(0).padStart(5)} req/s   p50 ${row.p50.toFixed(1).padStart(7)} ms   ${JSON.stringify(row.statuses)}`)
  }
  const settled = await stable(pid, SETTLE_LIMIT_MS)
  console.log(
    `  after the load, ${settled.stable ? `stable after ${(settled.afterMs / 1000).toFixed(1)} s` : `still moving after ${(settled.afterMs / 1000).toFixed(0)} s`}`.padEnd(52) +
      `${mb(settled.mb)}   ${ratios(settled.mb)}   + ${children()}`
  )
} finally {
  sigil.child.kill("SIGTERM")
  await sigil.exited
  rmSync(dataDir, { recursive: true, force: true })
}
