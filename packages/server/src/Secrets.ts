/**
 * Secrets the embedded default generates on first start and keeps in the data directory
 * (decisions §7): the master key (with a warning: production sets `SIGIL_MASTER_KEY`) and the
 * admin token. Files are created with mode 0600 and never overwritten.
 *
 * @since 0.1.0
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Option, Redacted } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface Loaded {
  readonly value: Redacted.Redacted<string>
  /** Where it came from: the environment, a file made earlier, or a file made now. */
  readonly source: "environment" | "file" | "generated"
  readonly file: string | undefined
}

/**
 * The configured value, else the one in `<dataDir>/<name>`, else a new one written there.
 *
 * @since 0.1.0
 * @category loading
 */
export const loadOrGenerate = (
  configured: Option.Option<Redacted.Redacted<string>>,
  dataDir: string,
  name: string,
  generate: () => string
): Effect.Effect<Loaded> =>
  Effect.sync(() => {
    if (Option.isSome(configured)) return { value: configured.value, source: "environment" as const, file: undefined }
    const file = path.join(dataDir, name)
    fs.mkdirSync(dataDir, { recursive: true })
    if (fs.existsSync(file)) {
      return { value: Redacted.make(fs.readFileSync(file, "utf8").trim()), source: "file" as const, file }
    }
    const value = generate()
    // `wx`: never overwrite a key another process wrote first.
    try {
      fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "wx" })
    } catch {
      return { value: Redacted.make(fs.readFileSync(file, "utf8").trim()), source: "file" as const, file }
    }
    return { value: Redacted.make(value), source: "generated" as const, file }
  })

/**
 * A 256-bit master key, base64.
 *
 * @since 0.1.0
 * @category generators
 */
export const newMasterKey = (): string => randomBytes(32).toString("base64")

/**
 * An admin token: `sigil_admin_` + base64url of 32 random bytes.
 *
 * @since 0.1.0
 * @category generators
 */
export const newAdminToken = (): string => `sigil_admin_${randomBytes(32).toString("base64url")}`
