/**
 * Runs the real server (`src/main.ts`, what `npm start` runs) as a child process on free ports
 * and a data directory of its own, and talks to it over HTTP.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"

const root = path.resolve(new URL("../../../..", import.meta.url).pathname)

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. */
export const eventually = async <A>(probe: () => Promise<A | undefined>, timeoutMs = 60_000, what = "condition"): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch (error) {
      last = error
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out waiting for ${what}${last === undefined ? "" : `: ${String(last)}`}`)
}

export interface Running {
  readonly child: ChildProcess
  readonly output: () => string
  readonly baseUrl: string
  readonly adminUrl: string
  readonly dataDir: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly api: (method: string, p: string, key?: string, body?: unknown) => Promise<{ status: number; body: any }>
}

export const newDataDir = () => mkdtempSync(path.join(tmpdir(), "sigil-server-"))

/** Starts the server and waits for its banner. */
export const start = async (options: { readonly dataDir: string; readonly env?: Record<string, string> }): Promise<Running> => {
  const port = await freePort()
  const adminPort = await freePort()
  const baseUrl = `http://localhost:${port}`
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "packages/server/src/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      PUBLIC_BASE_URL: baseUrl,
      SIGIL_DATA_DIR: options.dataDir,
      SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS: "true",
      ...options.env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let text = ""
  child.stdout!.on("data", (chunk) => (text += chunk))
  child.stderr!.on("data", (chunk) => (text += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })))
  await eventually(async () => (text.includes("Sigil is running.") ? true : undefined), 90_000, `the banner; output so far:\n${text}`)
  const api = async (method: string, p: string, key?: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${p}`, {
      method,
      headers: {
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const raw = await response.text()
    return { status: response.status, body: raw === "" ? undefined : JSON.parse(raw) }
  }
  return { child, output: () => text, baseUrl, adminUrl: `http://127.0.0.1:${adminPort}`, dataDir: options.dataDir, exited, api }
}

/** The demo tenant's key from the banner. */
export const demoKey = (running: Running): string => /Test API key\s+(sigil_test_\S+)/.exec(running.output())![1]!

export const batchOf = (n: number) => ({
  credentials: Array.from({ length: n }, (_, i) => ({
    recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate ${i}` },
    achievement: { name: "Certificate of Completion", description: "Completed the programme." },
    issuanceDate: "2026-06-30T00:00:00Z"
  }))
})
