/**
 * What every `sigil` command shares: where it reads and writes, the usage text, the client
 * built from the environment, and how errors are told.
 *
 * @internal
 */
import { Either } from "effect"
import * as Args from "../internal/args.js"
import * as Progress from "../internal/progress.js"
import * as PromiseClient from "../PromiseClient.js"
import type * as Retry from "../Retry.js"
import * as SigilClient from "../SigilClient.js"
/**
 * Where the CLI reads and writes: the process's, or a test's.
 *
 * @since 0.1.0
 * @category models
 */
export interface Io {
  readonly stdout: Progress.Stream
  readonly stderr: Progress.Stream
  readonly env: { readonly [name: string]: string | undefined }
  readonly cwd: string
  /** Resolves when the user asks to stop (Ctrl-C, SIGTERM); only commands that run until stopped call it. */
  readonly interrupted: () => Promise<void>
}

export const processIo = (): Io => ({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  interrupted: () =>
    new Promise((resolve) => {
      process.once("SIGINT", () => resolve())
      process.once("SIGTERM", () => resolve())
    })
})


export const USAGE = `sigil — Sigil's command line

Usage:
  sigil issue --csv <file.csv> --achievement <achievement.json> [options]
  sigil batches list [--status <status>] [--limit <n>] [--cursor <c>] [--all] [--json]
  sigil batches get <batch_id> [--wait] [--json]
  sigil verify <credential.json> [--rpc <chainId>=<url>]... [--json]
  sigil webhooks listen [--register] [--secret <whsec_…>] [--port <n>] [--events <types>] [--count <n>] [--json]
  sigil webhooks list [--json]
  sigil webhooks test <webhook_id>
  sigil webhooks delete <webhook_id>

Environment:
  SIGIL_API_KEY          the API key (sigil_test_… or sigil_live_…); every command but verify needs it
  SIGIL_BASE_URL         the service, default http://localhost:8080 (a trailing /v1 is fine)
  SIGIL_WEBHOOK_SECRET   the signing secret for 'webhooks listen' without --register

Run 'sigil <command> --help' for a command's options. Exit codes: 0 success, 1 failure, 2 usage.
`

export const exitUsage = (io: Io, message: string, usage = USAGE) => {
  io.stderr.write(`sigil: ${message}\n\n${usage}`)
  return 2
}

export const clientOf = (io: Io): PromiseClient.Client => {
  const options = SigilClient.optionsFromEnv(io.env)
  if (Either.isLeft(options)) throw new Args.UsageError(`${options.left} (export SIGIL_API_KEY=sigil_test_…)`)
  const retry: Retry.Options = {
    onRetry: (r) =>
      io.stderr.write(
        `sigil: ${r.method} ${new URL(r.url).pathname} ${r.status === undefined ? "failed (network)" : `answered ${r.status}`}; retry ${r.attempt} in ${(r.delayMillis / 1000).toFixed(1)} s\n`
      )
  }
  return PromiseClient.createClient({ baseUrl: options.right.baseUrl, apiKey: io.env.SIGIL_API_KEY!.trim(), retry })
}

export const baseUrlOf = (io: Io) => {
  const value = io.env.SIGIL_BASE_URL?.trim()
  return value === undefined || value === "" ? SigilClient.DEFAULT_BASE_URL : value
}

export const describeError = (error: unknown): string => {
  if (error instanceof PromiseClient.SigilError) {
    return error.requestId === undefined ? error.message : `${error.message} (request ${error.requestId})`
  }
  return error instanceof Error ? error.message : String(error)
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : word.endsWith("h") ? "es" : "s"}`
