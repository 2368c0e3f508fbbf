/**
 * What an idle server costs its database: store transactions over a window (default 60 s) of a
 * server with nothing to do, on Postgres (`pg_stat_database` of the server's own database,
 * read from another database so the reading does not count). Self-contained, so the same file
 * measures an older checkout too.
 *
 * Run: `npm run bench -- idle` (BENCH_IDLE_MS sets the window).
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"

const WINDOW_MS = Number(process.env.BENCH_IDLE_MS ?? 60_000)
const SETTLE_MS = 5_000
const root = path.resolve(new URL("../../..", import.meta.url).pathname)

const psql = (database: string, query: string): string => {
  const run = spawnSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", database, "-Atc", query], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`psql: ${run.stderr}`)
  return run.stdout.trim()
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })

const transactions = (database: string) =>
  Number(psql("test", `SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '${database}'`))

const main = async () => {
  const database = `sigil_idle_${Date.now()}`
  psql("test", `CREATE DATABASE ${database}`)
  const dataDir = mkdtempSync(path.join(tmpdir(), "sigil-idle-"))
  const [port, adminPort] = [await freePort(), await freePort()]
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "packages/server/src/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      SIGIL_DATA_DIR: dataDir,
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (c) => (output += c))
  child.stderr!.on("data", (c) => (output += c))
  try {
    const deadline = Date.now() + 120_000
    while (!output.includes("Sigil is running.")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no banner:\n${output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS))
    const before = transactions(database)
    await new Promise((r) => setTimeout(r, WINDOW_MS))
    const after = transactions(database)
    const n = after - before
    console.log(`idle server on Postgres: ${n} store transactions in ${WINDOW_MS / 1000} s (${(n / (WINDOW_MS / 1000)).toFixed(2)}/s)`)
  } finally {
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
    psql("test", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
