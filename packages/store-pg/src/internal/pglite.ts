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
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
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
 * Starts PGlite (file-backed in `dataDir`, in memory without one) and its socket server on a
 * free port of 127.0.0.1; both close with the scope. `maxConnections` of the server is one
 * more than the client pool will use, so a client reconnecting while the server has not yet
 * noticed the old connection's close is not refused.
 *
 * @internal
 */
export const serve = (options: { readonly dataDir: string | undefined; readonly connections: number }) =>
  Effect.gen(function*() {
    if (options.dataDir !== undefined) yield* lockDataDir(options.dataDir)
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
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
