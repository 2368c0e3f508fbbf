/**
 * The load generator of the HTTP benchmarks: keep-alive connections hitting one URL for a
 * while, with latency percentiles and status counts; and the bare node:http server every figure
 * is compared with, measured in the same run.
 */
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { performance } from "node:perf_hooks"
import { eventually, freePort } from "../../testkit/process.js"

export const CONNECTIONS = 50

export interface LoadResult {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly statuses: Map<number, number>
  /** The server's CPU time per answered request, in µs, when its process id was given. */
  readonly cpuUs?: number | undefined
}

/**
 * A process's CPU time so far (user + system), in ms, from /proc: what a request costs the
 * server whatever else the machine is doing, unlike requests per second, which a busy shared
 * machine moves by a factor of two from run to run.
 */
export const cpuMs = (pid: number): number | undefined => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100)
  } catch {
    return undefined
  }
}

export const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** One keep-alive request; resolves with its latency in ms and the status. */
export const call = (agent: Agent, url: URL, options: { method: string; headers?: Record<string, string>; body?: string }) =>
  new Promise<{ ms: number; status: number }>((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { agent, method: options.method, headers: options.headers ?? {} }, (res) => {
      res.resume()
      res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }))
    })
    req.on("error", reject)
    req.end(options.body)
  })

/** `CONNECTIONS` loops hitting one URL for `durationMs` (after a second's warm-up); `pid`: the server's, for its CPU per request. */
export const load = async (url: string, durationMs: number, headers: Record<string, string> = {}, pid?: number): Promise<LoadResult> => {
  if (durationMs >= 1_000) await load(url, Math.min(1_000, durationMs / 4), headers)
  const cpuBefore = pid === undefined ? undefined : cpuMs(pid)
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const target = new URL(url)
  const latencies: Array<number> = []
  const statuses = new Map<number, number>()
  const deadline = performance.now() + durationMs
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < deadline) {
      const { ms, status } = await call(agent, target, { method: "GET", headers })
      latencies.push(ms)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }))
  agent.destroy()
  const cpuAfter = pid === undefined ? undefined : cpuMs(pid)
  const cpuUs = cpuBefore === undefined || cpuAfter === undefined || latencies.length === 0
    ? undefined
    : (1000 * (cpuAfter - cpuBefore)) / latencies.length
  const sorted = latencies.sort((a, b) => a - b)
  return { rps: latencies.length / (durationMs / 1000), p50: percentile(sorted, 50), p99: percentile(sorted, 99), statuses, cpuUs }
}

export const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms${
    r.cpuUs === undefined ? "" : `   cpu ${r.cpuUs.toFixed(0).padStart(5)} µs/req`
  }   ${JSON.stringify(Object.fromEntries(r.statuses))}`

/** The ceiling: node:http answering a ~600-byte JSON body, in a process of its own. */
export const bareCeiling = async (durationMs: number): Promise<LoadResult> => {
  const port = await freePort()
  const body = JSON.stringify({ ok: true, padding: "x".repeat(580) })
  const bare = spawn(process.execPath, [
    "-e",
    `require("http").createServer((q, s) => { s.setHeader("content-type", "application/json"); s.end(${JSON.stringify(body)}) }).listen(${port}, "127.0.0.1")`
  ], { stdio: "ignore" })
  try {
    await eventually(() => fetch(`http://127.0.0.1:${port}/`).then((r) => (r.ok ? true : undefined)), 10_000, "the bare server")
    return await load(`http://127.0.0.1:${port}/`, durationMs, {}, bare.pid)
  } finally {
    bare.kill()
  }
}
