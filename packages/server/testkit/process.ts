/**
 * Runs the real server (`src/main.ts`, what `npm start` runs) as a child process on free ports
 * and a data directory of its own, and talks to it over HTTP.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"

const root = path.resolve(new URL("../../..", import.meta.url).pathname)

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
  readonly port: number
  readonly adminPort: number
  readonly dataDir: string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly api: (method: string, p: string, key?: string, body?: unknown) => Promise<{ status: number; body: any }>
}

export const newDataDir = () => mkdtempSync(path.join(tmpdir(), "sigil-server-"))

export interface StartOptions {
  readonly dataDir: string
  readonly env?: Record<string, string>
  /** Variables removed from the child's environment (after `env` is applied). */
  readonly unsetEnv?: ReadonlyArray<string>
  /** Reuse these ports (a restart on the same data directory keeps its DIDs and URLs). */
  readonly port?: number
  readonly adminPort?: number
  /** How long to wait for the banner (a restart after SIGKILL may replay a long chain). */
  readonly bannerTimeoutMs?: number
}

/** Starts the server and waits for its banner. */
export const start = async (options: StartOptions): Promise<Running> => {
  const port = options.port ?? await freePort()
  const adminPort = options.adminPort ?? await freePort()
  const baseUrl = `http://localhost:${port}`
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    PUBLIC_BASE_URL: baseUrl,
    SIGIL_DATA_DIR: options.dataDir,
    SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS: "true",
    ...options.env
  }
  for (const name of options.unsetEnv ?? []) delete env[name]
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "packages/server/src/main.ts")], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  let text = ""
  child.stdout!.on("data", (chunk) => (text += chunk))
  child.stderr!.on("data", (chunk) => (text += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })))
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  void exited.then((e) => (exit = e))
  try {
    await eventually(async () => {
      if (exit !== undefined) throw new Error(`the server exited (${JSON.stringify(exit)}) before its banner:\n${text}`)
      return text.includes("Sigil is running.") ? true : undefined
    }, options.bannerTimeoutMs ?? 90_000, "the banner")
  } catch (error) {
    child.kill("SIGKILL")
    throw new Error(`${(error as Error).message}\noutput so far:\n${text}`)
  }
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
  return { child, output: () => text, baseUrl, adminUrl: `http://127.0.0.1:${adminPort}`, port, adminPort, dataDir: options.dataDir, exited, api }
}

/** Stops the server: SIGTERM (graceful) or SIGKILL (a crash), and waits until it has exited. */
export const stop = async (running: Running, signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill(signal)
  return running.exited
}

/** The admin token from the banner. */
export const adminToken = (running: Running): string => /Admin channel\s+\S+\s+token: (\S+)/.exec(running.output())![1]!

/** A call on the administrative channel. */
export const admin = async (running: Running, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const response = await fetch(`${running.adminUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken(running)}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const raw = await response.text()
  return { status: response.status, body: raw === "" ? undefined : JSON.parse(raw) }
}

/**
 * A new tenant with a test API key, through the administrative channel (the demo tenant's
 * developer plan allows 1,000 credentials a month).
 */
export const createTenant = async (
  running: Running,
  options: { readonly name: string; readonly plan?: string; readonly recipientNameMode?: "hashed" | "plain" }
): Promise<{ readonly id: string; readonly did: string; readonly key: string; readonly keyId: string }> => {
  const tenant = await admin(running, "POST", "/admin/tenants", { name: options.name, plan: options.plan ?? "industry" })
  if (tenant.status !== 201) throw new Error(`POST /admin/tenants answered ${tenant.status}: ${JSON.stringify(tenant.body)}`)
  if (options.recipientNameMode !== undefined) {
    const patched = await admin(running, "PATCH", `/admin/tenants/${tenant.body.id}`, { recipient_name_mode: options.recipientNameMode })
    if (patched.status !== 200) throw new Error(`PATCH /admin/tenants answered ${patched.status}: ${JSON.stringify(patched.body)}`)
  }
  const key = await admin(running, "POST", `/admin/tenants/${tenant.body.id}/keys`, { environment: "test" })
  if (key.status !== 201) throw new Error(`POST /admin/tenants/…/keys answered ${key.status}: ${JSON.stringify(key.body)}`)
  return { id: tenant.body.id, did: tenant.body.did, key: key.body.key, keyId: key.body.id }
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
