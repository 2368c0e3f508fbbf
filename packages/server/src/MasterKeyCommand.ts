/**
 * `npm run admin -- master-key generate | rotate`: the master-key commands, which work on the
 * store directly rather than through the running server (the server holds the old key).
 *
 * `rotate` re-wraps every sealed secret under `SIGIL_NEW_MASTER_KEY` (`MasterKeyRotation`), the
 * current key coming from `SIGIL_MASTER_KEY` or, for a local run, `<SIGIL_DATA_DIR>/master.key`.
 * The new key is read from the environment only, never from the command line (which shells
 * keep in their history and `ps` shows). With the embedded store the server must be stopped
 * (its directory is locked); the key file is then replaced by the new key. With Postgres the
 * servers may keep running: restart each with the new `SIGIL_MASTER_KEY` afterwards.
 *
 * @since 0.1.0
 */
import * as Envelope from "@sigil/store-pg/Envelope"
import * as MasterKeyRotation from "@sigil/store-pg/MasterKeyRotation"
import * as PgStore from "@sigil/store-pg/PgStore"
import { Config, Effect, Either, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Secrets from "./Secrets.js"

const settings = Config.all({
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
  dataDir: Config.string("SIGIL_DATA_DIR").pipe(Config.withDefault("./.sigil")),
  current: Config.option(Config.redacted("SIGIL_MASTER_KEY")),
  next: Config.option(Config.redacted("SIGIL_NEW_MASTER_KEY"))
})

const parse = (text: Redacted.Redacted<string>, name: string): Either.Either<Envelope.MasterKey, string> =>
  Either.mapLeft(Envelope.masterKey(text), (e) => `${name}: ${e.message}`)

/**
 * Rotates; the lines to print, or why it did not.
 *
 * @since 0.1.0
 * @category commands
 */
export const rotate: Effect.Effect<ReadonlyArray<string>, string> = Effect.gen(function*() {
  const config = yield* Effect.mapError(settings, (e) => String(e))
  const keyFile = path.join(config.dataDir, "master.key")
  const currentText = Option.isSome(config.current)
    ? config.current.value
    : fs.existsSync(keyFile)
    ? Redacted.make(fs.readFileSync(keyFile, "utf8").trim())
    : undefined
  if (currentText === undefined) return yield* Effect.fail(`no current master key: set SIGIL_MASTER_KEY (or run where ${keyFile} is)`)
  if (Option.isNone(config.next)) {
    return yield* Effect.fail("set SIGIL_NEW_MASTER_KEY to the new key (npm run admin -- master-key generate makes one)")
  }
  const nextText = config.next.value
  const current = yield* parse(currentText, "SIGIL_MASTER_KEY")
  const next = yield* parse(nextText, "SIGIL_NEW_MASTER_KEY")
  const embedded = Option.isNone(config.databaseUrl)
  const rotated = yield* MasterKeyRotation.rotate(current, next).pipe(
    Effect.mapError((e) => e.message),
    Effect.provide(PgStore.layer({ url: Option.getOrUndefined(config.databaseUrl), dataDir: config.dataDir })),
    Effect.scoped,
    Effect.catchTag("SqlError", (e) =>
      Effect.fail(embedded ? `the embedded store did not open (stop the server first): ${e.message}` : e.message)),
    Effect.catchTag("MigrationError", (e) => Effect.fail(e.message))
  )
  const lines = [
    `master key ${current.id} → ${next.id}: ${rotated.rewrapped} secrets re-wrapped, ${rotated.alreadyRotated} already under the new key`
  ]
  if (Option.isNone(config.current)) {
    // The key came from the data directory: the file now holds the new one (renamed into place).
    yield* Effect.sync(() => {
      fs.writeFileSync(`${keyFile}.new`, `${Redacted.value(nextText)}\n`, { mode: 0o600 })
      fs.renameSync(`${keyFile}.new`, keyFile)
    })
    lines.push(`${keyFile} now holds the new key; start the server again.`)
  } else {
    lines.push("Now set SIGIL_MASTER_KEY to the new key in every process and restart them; until then a process on the old key signs with the keys it has open and retries the others.")
  }
  return lines
})

/**
 * Runs `master-key <action>`; the exit code.
 *
 * @since 0.1.0
 * @category commands
 */
export const run = (action: string | undefined): Effect.Effect<number> => {
  if (action === "generate") return Effect.as(Effect.sync(() => console.log(Secrets.newMasterKey())), 0)
  if (action === "rotate") {
    return rotate.pipe(
      Effect.flatMap((lines) => Effect.sync(() => lines.forEach((l) => console.log(l)))),
      Effect.as(0),
      Effect.catchAll((message) => Effect.as(Effect.sync(() => console.error(`master-key rotate: ${message}`)), 1))
    )
  }
  return Effect.as(Effect.sync(() => console.error("usage: npm run admin -- master-key <generate|rotate>")), 2)
}
