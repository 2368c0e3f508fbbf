/**
 * The embedded store: PGlite (Postgres compiled to WebAssembly, one backend, in this process)
 * served over the Postgres wire protocol on 127.0.0.1, so the very same `@effect/sql-pg` client
 * and repositories run on it as on a real server.
 *
 * @internal
 */
import { SqlError } from "@effect/sql/SqlError"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"

const fail = (message: string) => (cause: unknown) => new SqlError({ cause, message })

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * PGlite has no lock of its own, and two processes on one data directory corrupt it: a
 * lock file holds the pid of the process using it (a stale one, from a killed process, is
 * taken over).
 *
 * @internal
 */
export const lockDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        mkdirSync(dataDir, { recursive: true })
        const file = join(dataDir, "sigil.lock")
        let holder: number | undefined
        try {
          holder = Number.parseInt(readFileSync(file, "utf8"), 10)
        } catch {
          holder = undefined
        }
        if (holder !== undefined && Number.isFinite(holder) && alive(holder)) {
          throw new Error(`the data directory ${dataDir} is in use by process ${holder}`)
        }
        writeFileSync(file, String(process.pid))
        return file
      },
      catch: (cause) => new SqlError({ cause, message: `PGlite: ${(cause as Error).message}` })
    }),
    (file) => Effect.sync(() => rmSync(file, { force: true }))
  )

/**
 * PGlite's own start parameters, and a smaller buffer pool than Postgres's 128 MB default: PGlite
 * allocates its shared memory inside its WebAssembly memory and touches all of it at start, so
 * every megabyte of `shared_buffers` is a megabyte of resident memory for the life of the
 * process (128 MB: 340 MB resident for PGlite alone; 32 MB: 235 MB). 32 MB holds the hot rows of an
 * embedded store (a development or single-institution database); pages beyond it are read
 * through the operating system's page cache, not from disk. Real Postgres is for more.
 * docs/decisions/memory.md.
 *
 * @internal
 */
export const START_PARAMS: ReadonlyArray<string> = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"]

/**
 * Creates the database of a new data directory in a short-lived child process. PGlite's initdb
 * runs a second PGlite and the initdb WebAssembly module beside the first, ≈450 MB of memory that
 * is garbage once the database exists but stays resident until V8 happens to collect it, which an
 * idle server may not do for a long time (measured: docs/decisions/memory.md). In a child process
 * that memory goes back to the system when the child exits; the server then opens an existing
 * database, as on every later start.
 *
 * @internal
 */
export const initialise = (dataDir: string): Effect.Effect<void, SqlError> =>
  existsSync(join(dataDir, "PG_VERSION"))
    ? Effect.void
    : Effect.async<void, SqlError>((resume) => {
      const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite")
      const script = `require(${JSON.stringify(pglite)}).PGlite.create({ dataDir: process.argv[1] })` +
        `.then((db) => db.close()).catch((e) => { console.error(e); process.exit(1) })`
      const child = execFile(process.execPath, ["-e", script, dataDir], { env: {}, timeout: 300_000 }, (error, _stdout, stderr) =>
        resume(error === null ? Effect.void : Effect.fail(new SqlError({ cause: error, message: `PGlite: initdb failed: ${stderr.trim() || error.message}` }))))
      return Effect.sync(() => child.kill("SIGKILL"))
    })

/**
 * Starts PGlite (file-backed in `dataDir`, in memory without one) and its socket server on a
 * free port of 127.0.0.1; both close with the scope. `maxConnections` of the server is one
 * more than the client pool will use, so a client reconnecting while the server has not yet
 * noticed the old connection's close is not refused.
 *
 * @internal
 */
export const serve = (options: { readonly dataDir: string | undefined; readonly connections: number }) =>
  Effect.gen(function*() {
    if (options.dataDir !== undefined) {
      yield* lockDataDir(options.dataDir)
      yield* initialise(options.dataDir)
    }
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create({ ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }), startParams: [...START_PARAMS] }),
        catch: fail("PGlite: failed to start")
      }),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    const server = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const server = new PGLiteSocketServer({
            db,
            host: "127.0.0.1",
            port: 0,
            maxConnections: options.connections + 1
          })
          await server.start()
          return server
        },
        catch: fail("PGlite: failed to start its socket server")
      }),
      (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    const [host, port] = server.getServerConn().split(":")
    return { host: host!, port: Number(port) }
  })
