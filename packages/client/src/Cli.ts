/**
 * The `sigil` command line (`npx sigil` in the workspace): issue from a CSV, list and read
 * batches, verify a credential file on this machine, and receive webhooks while developing.
 * `SIGIL_API_KEY` is the API key, `SIGIL_BASE_URL` the service (default `http://localhost:8080`).
 *
 * Exit codes: 0 success; 1 failure (invalid input, an API error, a credential that does not
 * verify); 2 usage error.
 *
 * @since 0.1.0
 */
import { WEBHOOK_EVENT_TYPES } from "@sigil/service/Inputs"
import { Either } from "effect"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as Args from "./internal/args.js"
import * as Progress from "./internal/progress.js"
import * as IssueCsv from "./IssueCsv.js"
import * as NetworkVerifier from "./NetworkVerifier.js"
import * as PromiseClient from "./PromiseClient.js"
import type * as Retry from "./Retry.js"
import * as SigilClient from "./SigilClient.js"
import * as Csv from "./Csv.js"
import * as WebhookReceiver from "./WebhookReceiver.js"
import type * as Webhooks from "./Webhooks.js"

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

const processIo = (): Io => ({
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

const USAGE = `sigil — Sigil's command line

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

const ISSUE_USAGE = `Usage: sigil issue --csv <file.csv> --achievement <achievement.json> [options]

Validates every row first (nothing is sent if any row is invalid), then submits batches of up to
500 credentials, waits until they are anchored, and writes a results CSV.

Options:
  --csv <file>           recipients, one per row, with a header row (RFC 4180)
  --achievement <file>   the achievement, as the API's AchievementInput JSON
  --map <field=Header>   read a field from a column (repeatable, or comma-separated):
                         name (required), id, email, issued, expires, evidence
                         default headers: name/full name, id/recipient id/uuid, email/e-mail,
                         issued/issuance date/date, expires/expiration date, evidence/evidence url
  --issued-at <date>     issuance date for rows without one (ISO 8601 UTC or YYYY-MM-DD);
                         default: today, midnight UTC (remembered in the state file)
  --expires-at <date>    expiration date for rows without one (default: none)
  --out <file>           the results CSV (default <csv name>.results.csv)
  --state <file>         the local record of submitted batches (default <csv>.sigil.json)
  --no-state             keep no state file (reruns then rely on the server's 24 h idempotency)
  --no-wait              submit and stop; do not wait for anchoring
  --timeout <seconds>    how long to wait for anchoring (default 900)
  --no-progress          no progress bar
  --dry-run              validate and plan only; send nothing

Recipient ids come from the id column (urn:uuid:<v4> or a bare v4 UUID). Without one, each row
gets a stable id derived from the file's hash and its line (see docs/guides/issue-from-csv.md).
Each batch's Idempotency-Key is derived from the file, the achievement and the chunk's index, so
rerunning the same command never issues twice.
`

const exitUsage = (io: Io, message: string, usage = USAGE) => {
  io.stderr.write(`sigil: ${message}\n\n${usage}`)
  return 2
}

const clientOf = (io: Io): PromiseClient.Client => {
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

const baseUrlOf = (io: Io) => {
  const value = io.env.SIGIL_BASE_URL?.trim()
  return value === undefined || value === "" ? SigilClient.DEFAULT_BASE_URL : value
}

const describeError = (error: unknown): string => {
  if (error instanceof PromiseClient.SigilError) {
    return error.requestId === undefined ? error.message : `${error.message} (request ${error.requestId})`
  }
  return error instanceof Error ? error.message : String(error)
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : word.endsWith("h") ? "es" : "s"}`

const linesOf = (chunk: IssueCsv.Chunk) => {
  const first = chunk.rows[0]!.line
  const last = chunk.rows.at(-1)!.line
  return first === last ? `line ${first}` : `lines ${first}–${last}`
}

// ---------------------------------------------------------------------------------------------
// issue
// ---------------------------------------------------------------------------------------------

interface StateFile {
  readonly version: 1
  readonly fileHash: string
  readonly achievementHash: string
  readonly baseUrl: string
  readonly tenantId: string
  readonly environment: string
  readonly issuedAt: string | undefined
  readonly chunks: {
    [index: string]: {
      readonly idempotencyKey: string
      /** SHA-256 of the request body sent, to refuse a rerun whose flags change it (as the server would). */
      readonly bodyHash: string
      readonly batchId: string
      readonly submittedAt: string
    }
  }
}

const readState = (file: string): StateFile | undefined => {
  if (!existsSync(file)) return undefined
  try {
    const state = JSON.parse(readFileSync(file, "utf8")) as StateFile
    return state.version === 1 ? state : undefined
  } catch {
    return undefined
  }
}

const writeAtomically = (file: string, text: string) => {
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, text)
  renameSync(temp, file)
}

const today = () => `${new Date().toISOString().slice(0, 10)}T00:00:00Z`

const issue = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, {
    strings: ["csv", "achievement", "issued-at", "expires-at", "out", "state", "timeout", "chunk-size"],
    repeated: ["map"],
    booleans: ["help", "state", "wait", "progress", "dry-run"]
  })
  if (Args.flag(args, "help")) {
    io.stdout.write(ISSUE_USAGE)
    return 0
  }
  const csvPath = Args.string(args, "csv")
  const achievementPath = Args.string(args, "achievement")
  if (csvPath === undefined || achievementPath === undefined) return exitUsage(io, "issue needs --csv and --achievement", ISSUE_USAGE)
  if (args.positionals.length > 0) return exitUsage(io, `unexpected argument ${args.positionals[0]}`, ISSUE_USAGE)
  const map = IssueCsv.parseMap(Args.all(args, "map"))
  if (Either.isLeft(map)) return exitUsage(io, map.left, ISSUE_USAGE)
  const chunkSize = Args.integer(args, "chunk-size", { min: 1, max: 500 })
  const timeoutSeconds = Args.integer(args, "timeout", { min: 1, max: 86_400 }) ?? 900

  const csvFile = path.resolve(io.cwd, csvPath)
  const achievementFile = path.resolve(io.cwd, achievementPath)
  let csv: Buffer
  let achievement: Buffer
  try {
    csv = readFileSync(csvFile)
    achievement = readFileSync(achievementFile)
  } catch (error) {
    io.stderr.write(`sigil: ${(error as Error).message}\n`)
    return 1
  }
  const useState = Args.flag(args, "state", true)
  const statePath = path.resolve(io.cwd, Args.string(args, "state") ?? `${csvPath}.sigil.json`)
  const previous = useState ? readState(statePath) : undefined
  const issuedAt = Args.string(args, "issued-at") ?? previous?.issuedAt ?? today()

  const planned = IssueCsv.plan({
    csv,
    achievement,
    map: map.right,
    issuedAt: IssueCsv.normalizeDate(issuedAt),
    expiresAt: Args.string(args, "expires-at"),
    chunkSize
  })
  if (Either.isLeft(planned)) {
    const problems = planned.left
    io.stderr.write(`sigil: ${csvPath}: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`}; nothing was sent.\n`)
    for (const p of problems) {
      io.stderr.write(p.line === undefined ? `  ${p.message}\n` : `  ${csvPath}:${p.line}: ${p.message}\n`)
    }
    return 1
  }
  const plan = planned.right
  const sameInput = previous !== undefined && previous.fileHash === plan.fileHash && previous.achievementHash === plan.achievementHash
  const columns = Object.entries(plan.columns).map(([f, h]) => `${f} ← "${h}"`).join(", ")
  io.stderr.write(
    `sigil: ${plan.rows.length} rows valid (${columns}${plan.columns.id === undefined ? "; recipient ids derived from the file" : ""}); ${plan.chunks.length} ${plan.chunks.length === 1 ? "batch" : "batches"}\n`
  )
  if (Args.flag(args, "dry-run")) {
    for (const chunk of plan.chunks) {
      io.stdout.write(
        `batch ${chunk.index + 1}: ${linesOf(chunk)}, ${plural(chunk.rows.length, "credential")}, Idempotency-Key ${chunk.idempotencyKey}\n`
      )
    }
    return 0
  }

  const client = clientOf(io)
  const tenant = await client.tenant.get()
  const matches = sameInput && previous.tenantId === tenant.id && previous.environment === tenant.environment &&
    SigilClient.apiBaseUrl(previous.baseUrl) === SigilClient.apiBaseUrl(baseUrlOf(io))
  const state: StateFile = {
    version: 1,
    fileHash: plan.fileHash,
    achievementHash: plan.achievementHash,
    baseUrl: baseUrlOf(io),
    tenantId: tenant.id,
    environment: tenant.environment,
    issuedAt,
    chunks: matches ? { ...previous.chunks } : {}
  }
  const saveState = () => {
    if (useState) writeAtomically(statePath, `${JSON.stringify(state, null, 2)}\n`)
  }

  const progress = Progress.make(io.stderr, { enabled: Args.flag(args, "progress", true) })
  const total = plan.rows.length
  type Outcome = { chunk: IssueCsv.Chunk; batch: SigilClient.Batch; how: "new" | "replayed" | "recorded" }
  const outcomes: Array<Outcome> = []
  let submitted = 0
  progress.update(0, total, "submitted")
  for (const chunk of plan.chunks) {
    const recorded = state.chunks[String(chunk.index)]
    const bodyHash = createHash("sha256").update(JSON.stringify(chunk.request)).digest("hex")
    try {
      if (recorded !== undefined && recorded.idempotencyKey === chunk.idempotencyKey) {
        if (recorded.bodyHash !== bodyHash) {
          throw new PromiseClient.SigilError("recorded with another body", "idempotency_key_reused", undefined, undefined, undefined, undefined, undefined)
        }
        outcomes.push({ chunk, batch: await client.batches.get(recorded.batchId), how: "recorded" })
      } else {
        const created = await client.batches.create(chunk.request, { idempotencyKey: chunk.idempotencyKey })
        state.chunks[String(chunk.index)] = {
          idempotencyKey: chunk.idempotencyKey,
          bodyHash,
          batchId: created.batch.id,
          submittedAt: new Date().toISOString()
        }
        saveState()
        outcomes.push({ chunk, batch: created.batch, how: created.replayed ? "replayed" : "new" })
      }
    } catch (error) {
      progress.finish()
      const lines = linesOf(chunk)
      if (error instanceof PromiseClient.SigilError && error.code === "idempotency_key_reused") {
        io.stderr.write(
          `sigil: batch ${chunk.index + 1} (${lines}) was already submitted with a different body ` +
            `(another --issued-at, --expires-at or --map?), so it was not sent again.\n`
        )
      } else {
        io.stderr.write(`sigil: batch ${chunk.index + 1} (${lines}): ${describeError(error)}\n`)
      }
      if (outcomes.length > 0) {
        io.stderr.write(`sigil: ${outcomes.length} earlier ${outcomes.length === 1 ? "batch was" : "batches were"} submitted: ${outcomes.map((o) => o.batch.id).join(", ")}; rerun the same command to continue.\n`)
      }
      return 1
    }
    submitted += chunk.rows.length
    progress.update(submitted, total, "submitted")
  }
  progress.finish()

  const wait = Args.flag(args, "wait", true)
  const final = new Map<string, SigilClient.Batch>()
  let failed = false
  if (wait) {
    const anchored = new Map<string, number>()
    const report = () =>
      progress.update([...anchored.values()].reduce((a, b) => a + b, 0), total, "anchored")
    report()
    await Promise.all(outcomes.map(async (o) => {
      try {
        const batch = await client.batches.waitFor(o.batch.id, {
          timeoutMs: timeoutSeconds * 1000,
          onProgress: (b) => {
            if (b.status === "anchored") anchored.set(b.id, b.credentials_count)
            report()
          }
        })
        final.set(batch.id, batch)
      } catch (error) {
        failed = true
        progress.log(`sigil: ${describeError(error)}`)
        const batch = error instanceof PromiseClient.SigilError ? error.batch : undefined
        if (batch !== undefined) final.set(batch.id, batch)
      }
    }))
    progress.finish()
  }

  // The results CSV: one row per CSV row.
  const outPath = Args.string(args, "out") ?? `${csvPath.replace(/\.csv$/i, "")}.results.csv`
  const rows: Array<ReadonlyArray<string>> = [["line", "recipient_id", "credential_id", "verify_url", "batch_id", "status"]]
  for (const o of outcomes) {
    const batch = final.get(o.batch.id) ?? o.batch
    const summaries = batch.credentials ?? []
    o.chunk.rows.forEach((row, i) => {
      const summary = summaries[i]?.recipient_id === row.recipientId
        ? summaries[i]
        : summaries.find((s) => s.recipient_id === row.recipientId)
      rows.push([String(row.line), row.recipientId, summary?.id ?? "", summary?.verify_url ?? "", batch.id, batch.status])
    })
  }
  writeAtomically(path.resolve(io.cwd, outPath), Csv.format(rows))

  const fresh = outcomes.filter((o) => o.how === "new")
  const count = plural
  io.stdout.write(
    fresh.length === 0
      ? `Nothing new was issued: the ${count(outcomes.length, "batch")} of ${csvPath} had been submitted before.\n`
      : `Issued ${count(fresh.reduce((n, o) => n + o.chunk.rows.length, 0), "credential")} from ${csvPath} in ${count(fresh.length, "new batch")}.\n`
  )
  for (const o of outcomes) {
    const batch = final.get(o.batch.id) ?? o.batch
    const how = o.how === "new" ? "" : "  (submitted before)"
    io.stdout.write(
      `  ${batch.id}  ${linesOf(o.chunk)}  ${count(o.chunk.rows.length, "credential")}  ${batch.status}${how}\n`
    )
  }
  io.stdout.write(`Results: ${outPath}\n`)
  return failed ? 1 : 0
}

// ---------------------------------------------------------------------------------------------
// batches
// ---------------------------------------------------------------------------------------------

const STATUSES = ["pending", "signed", "anchored", "failed"] as const

const batchesList = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, { strings: ["status", "limit", "cursor"], booleans: ["all", "json", "help"] })
  if (Args.flag(args, "help")) {
    io.stdout.write("Usage: sigil batches list [--status pending|signed|anchored|failed] [--limit 1-100] [--cursor <c>] [--all] [--json]\n")
    return 0
  }
  const status = Args.string(args, "status")
  if (status !== undefined && !(STATUSES as ReadonlyArray<string>).includes(status)) {
    return exitUsage(io, `--status must be one of ${STATUSES.join(", ")}`)
  }
  const limit = Args.integer(args, "limit", { min: 1, max: 100 })
  const client = clientOf(io)
  const params = { status: status as SigilClient.BatchStatus | undefined, limit }
  let batches: Array<SigilClient.Batch> = []
  let next: string | null = null
  if (Args.flag(args, "all")) {
    for await (const batch of client.batches.iterate(params)) batches.push(batch)
  } else {
    const page = await client.batches.list({ ...params, cursor: Args.string(args, "cursor") })
    batches = [...page.data]
    next = page.has_more ? page.next_cursor : null
  }
  if (Args.flag(args, "json")) {
    io.stdout.write(`${JSON.stringify(Args.flag(args, "all") ? { data: batches } : { data: batches, next_cursor: next, has_more: next !== null }, null, 2)}\n`)
    return 0
  }
  const table: Array<ReadonlyArray<string>> = [["ID", "STATUS", "CREDENTIALS", "CREATED", "ANCHORED"]]
  for (const b of batches) table.push([b.id, b.status, String(b.credentials_count), b.created_at, b.anchored_at ?? "-"])
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)))
  for (const row of table) io.stdout.write(`${row.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd()}\n`)
  if (batches.length === 0) io.stdout.write("(no batches)\n")
  if (next !== null) io.stdout.write(`More: sigil batches list --cursor ${next}${status === undefined ? "" : ` --status ${status}`}\n`)
  return 0
}

const printBatch = (io: Io, batch: SigilClient.Batch) => {
  const line = (label: string, value: string) => io.stdout.write(`${label.padEnd(13)} ${value}\n`)
  line("Batch", batch.id)
  line("Status", batch.status)
  line("Environment", batch.environment)
  line("Credentials", String(batch.credentials_count))
  line("Created", batch.created_at)
  if (batch.merkle_root !== null) line("Merkle root", batch.merkle_root)
  if (batch.anchored_at !== null) line("Anchored", batch.anchored_at)
  const tx = batch.anchor_transaction
  if (tx !== null) {
    line("Transaction", `${tx.hash} on ${tx.chain}, block ${tx.block_number}`)
    if (tx.explorer_url !== null) line("Explorer", tx.explorer_url)
  }
  if (batch.error !== null) line("Error", batch.error)
  for (const c of batch.credentials ?? []) io.stdout.write(`  ${c.id}  ${c.recipient_id}  ${c.verify_url}\n`)
}

const batchesGet = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, { strings: ["timeout"], booleans: ["wait", "json", "help"] })
  if (Args.flag(args, "help")) {
    io.stdout.write("Usage: sigil batches get <batch_id> [--wait [--timeout <seconds>]] [--json]\n")
    return 0
  }
  const [id, ...rest] = args.positionals
  if (id === undefined || rest.length > 0) return exitUsage(io, "batches get needs one batch id")
  const client = clientOf(io)
  let batch: SigilClient.Batch
  let code = 0
  if (Args.flag(args, "wait")) {
    const timeout = Args.integer(args, "timeout", { min: 1, max: 86_400 }) ?? 900
    try {
      batch = await client.batches.waitFor(id, { timeoutMs: timeout * 1000 })
    } catch (error) {
      if (!(error instanceof PromiseClient.SigilError) || error.batch === undefined) throw error
      batch = error.batch
      code = 1
    }
  } else {
    batch = await client.batches.get(id)
  }
  if (Args.flag(args, "json")) io.stdout.write(`${JSON.stringify(batch, null, 2)}\n`)
  else printBatch(io, batch)
  return code
}

// ---------------------------------------------------------------------------------------------
// verify
// ---------------------------------------------------------------------------------------------

const MARK = { passed: "✔", failed: "✘", skipped: "–" } as const

const verify = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, { repeated: ["rpc"], booleans: ["json", "help"] })
  if (Args.flag(args, "help")) {
    io.stdout.write(
      "Usage: sigil verify <credential.json> [--rpc <chainId>=<url>]... [--json]\n\n" +
        "Verifies a signed credential (or an API Credential with signed_credential) on this machine with\n" +
        "Sigil's verifier: document hash, Merkle path, anchor transaction, issuer key, eddsa proof, status,\n" +
        "validity. Exit 0 when it verifies, 1 otherwise. Chains: Base (8453) and Base Sepolia (84532) via\n" +
        "their public RPC, the devnet (31337) via $SIGIL_BASE_URL/devnet/rpc; --rpc replaces any of them.\n"
    )
    return 0
  }
  const [file, ...rest] = args.positionals
  if (file === undefined || rest.length > 0) return exitUsage(io, "verify needs one credential file")
  const rpc: Record<string, string> = { ...NetworkVerifier.defaultRpc(baseUrlOf(io)) }
  for (const entry of Args.all(args, "rpc")) {
    const eq = entry.indexOf("=")
    if (eq < 1 || !/^\d+$/.test(entry.slice(0, eq))) return exitUsage(io, `--rpc expects <chainId>=<url>, got ${entry}`)
    rpc[entry.slice(0, eq)] = entry.slice(eq + 1)
  }
  let document: unknown
  try {
    document = JSON.parse(readFileSync(path.resolve(io.cwd, file), "utf8"))
  } catch (error) {
    io.stderr.write(`sigil: ${file}: ${(error as Error).message}\n`)
    return 1
  }
  const json = Args.flag(args, "json")
  const width = 13
  if (!json) io.stdout.write(`Verifying ${file}\n`)
  const result = await NetworkVerifier.verify(document, {
    rpc,
    localOrigins: [baseUrlOf(io)],
    onStep: json ? undefined : (step) =>
      io.stdout.write(`  ${MARK[step.status]} ${step.name.padEnd(width)} ${step.message}\n`)
  })
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  } else {
    if (result.issuer !== undefined) io.stdout.write(`Issuer: ${result.issuer.name ?? "(no name)"} (${result.issuer.id})\n`)
    if (result.anchor !== undefined) {
      io.stdout.write(`Anchor: ${result.anchor.chainLabel}, transaction ${result.anchor.txHash}${result.anchor.blockNumber === undefined ? "" : `, block ${result.anchor.blockNumber}`}\n`)
    }
    io.stdout.write(`Result: ${result.verified ? "VERIFIED" : result.outcome.toUpperCase()}: ${result.message}\n`)
  }
  return result.verified ? 0 : 1
}

// ---------------------------------------------------------------------------------------------
// webhooks
// ---------------------------------------------------------------------------------------------

/**
 * One line describing an event.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const describeEvent = (event: Webhooks.Event): string => {
  const d = event.data as { readonly [k: string]: any }
  const what = (() => {
    switch (event.type) {
      case "batch.created":
        return `batch ${d.batch_id}: ${plural(Number(d.credentials_count), "credential")} (${d.environment})`
      case "batch.signed":
        return `batch ${d.batch_id} signed, Merkle root ${d.merkle_root}`
      case "batch.anchored":
        return `batch ${d.batch_id} anchored on ${d.anchor_transaction?.chain} in ${d.anchor_transaction?.hash} (${plural(d.credentials?.length ?? 0, "credential")})`
      case "batch.failed":
        return `batch ${d.batch_id} failed: ${d.error_code}: ${d.error_message}`
      case "credential.revoked":
        return `credential ${d.credential_id} revoked (${d.reason_code}): ${d.reason}`
      case "credential.erased":
        return `credential ${d.credential_id} erased; ${d.verification_status_after_erasure} after erasure`
      case "webhook.test":
        return String(d.note ?? "test event")
    }
  })()
  return `${event.created_at}  ${event.type.padEnd(18)}  ${event.id}  ${what}`
}

const webhooksListen = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, {
    strings: ["secret", "port", "host", "events", "count", "public-url"],
    booleans: ["register", "json", "help"]
  })
  if (Args.flag(args, "help")) {
    io.stdout.write(
      "Usage: sigil webhooks listen [--register [--events <t1,t2>] [--public-url <url>]] [--secret <whsec_…>] [--port <n>] [--host <h>] [--count <n>] [--json]\n\n" +
        "A local receiver for development: verifies each delivery's Standard Webhooks signature and prints\n" +
        "the event (401 for a bad signature). --register creates an endpoint for this receiver with your\n" +
        "API key (the server must allow private URLs: SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS=true) and deletes it\n" +
        "when you stop (Ctrl-C). Without --register, pass the endpoint's secret (--secret or\n" +
        "SIGIL_WEBHOOK_SECRET). --count exits after that many events.\n"
    )
    return 0
  }
  if (args.positionals.length > 0) return exitUsage(io, `unexpected argument ${args.positionals[0]}`)
  const register = Args.flag(args, "register")
  const port = Args.integer(args, "port", { min: 0, max: 65_535 }) ?? 0
  const count = Args.integer(args, "count", { min: 1, max: 1_000_000 })
  const json = Args.flag(args, "json")
  const events = Args.string(args, "events")?.split(",").map((e) => e.trim()).filter((e) => e !== "") ?? [...WEBHOOK_EVENT_TYPES]
  let secret = Args.string(args, "secret") ?? io.env.SIGIL_WEBHOOK_SECRET
  if (!register && secret === undefined) {
    return exitUsage(io, "webhooks listen needs --register, or the endpoint's secret in --secret or SIGIL_WEBHOOK_SECRET")
  }
  // The secret is only known after registering, which needs the receiver's URL: start first,
  // verify with whatever secret is set by then.
  let current = secret ?? ""
  let seen = 0
  let done: () => void = () => {}
  const finished = new Promise<void>((resolve) => (done = resolve))
  const receiver = await WebhookReceiver.start({
    secret: () => current,
    port,
    host: Args.string(args, "host"),
    onRejected: (reason) => io.stderr.write(`sigil: rejected a delivery: ${reason}\n`)
  })
  receiver.onEvent((event) => {
    io.stdout.write(json ? `${JSON.stringify(event)}\n` : `${describeEvent(event)}\n`)
    seen += 1
    if (count !== undefined && seen >= count) done()
  })
  const url = Args.string(args, "public-url") ?? receiver.url
  let registered: SigilClient.CreatedWebhookEndpoint | undefined
  let client: PromiseClient.Client | undefined
  try {
    if (register) {
      client = clientOf(io)
      registered = await client.webhooks.create({
        url,
        events: events as Array<(typeof WEBHOOK_EVENT_TYPES)[number]>,
        description: "sigil webhooks listen"
      })
      current = registered.signing_secret
      secret = current
      io.stderr.write(`sigil: registered webhook ${registered.id} for ${url} (${events.join(", ")}); it is deleted when you stop\n`)
    }
    io.stderr.write(`sigil: listening on ${receiver.url}; verifying signatures. Ctrl-C to stop.\n`)
    await Promise.race([finished, io.interrupted()])
  } catch (error) {
    io.stderr.write(`sigil: ${describeError(error)}\n`)
    if (error instanceof PromiseClient.SigilError && error.code === "invalid_field_format" && register) {
      io.stderr.write("sigil: a local URL needs SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS=true on the server (or use --public-url)\n")
    }
    await receiver.close()
    return 1
  } finally {
    if (registered !== undefined && client !== undefined) {
      try {
        await client.webhooks.delete(registered.id)
        io.stderr.write(`sigil: deleted webhook ${registered.id}\n`)
      } catch (error) {
        io.stderr.write(`sigil: could not delete webhook ${registered.id}: ${describeError(error)}\n`)
      }
    }
  }
  await receiver.close()
  return 0
}

const webhooksList = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const args = Args.parse(argv, { booleans: ["json", "help"] })
  if (Args.flag(args, "help")) {
    io.stdout.write("Usage: sigil webhooks list [--json]\n")
    return 0
  }
  const list = await clientOf(io).webhooks.list()
  if (Args.flag(args, "json")) {
    io.stdout.write(`${JSON.stringify({ data: list }, null, 2)}\n`)
    return 0
  }
  for (const w of list) io.stdout.write(`${w.id}  ${w.active ? "active  " : "inactive"}  ${w.url}  ${w.events.join(",")}\n`)
  if (list.length === 0) io.stdout.write("(no webhook endpoints)\n")
  return 0
}

const webhooksTest = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const [id, ...rest] = Args.parse(argv, {}).positionals
  if (id === undefined || rest.length > 0) return exitUsage(io, "webhooks test needs one webhook id")
  const result = await clientOf(io).webhooks.test(id)
  io.stdout.write(
    result.delivered
      ? `Delivered a webhook.test event (HTTP ${result.status_code}).\n`
      : `Not delivered (${result.status_code === null ? "no HTTP answer" : `HTTP ${result.status_code}`}).\n`
  )
  return result.delivered ? 0 : 1
}

const webhooksDelete = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
  const [id, ...rest] = Args.parse(argv, {}).positionals
  if (id === undefined || rest.length > 0) return exitUsage(io, "webhooks delete needs one webhook id")
  await clientOf(io).webhooks.delete(id)
  io.stdout.write(`Deleted ${id}.\n`)
  return 0
}

// ---------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------

/**
 * Runs a command line (without `node sigil`); resolves with the exit code.
 *
 * @since 0.1.0
 * @category main
 */
export const main = async (argv: ReadonlyArray<string>, io: Io = processIo()): Promise<number> => {
  const [command, sub, ...rest] = argv
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(USAGE)
        return command === undefined ? 2 : 0
      case "--version":
        io.stdout.write("sigil 0.1.0\n")
        return 0
      case "issue":
        return await issue(argv.slice(1), io)
      case "verify":
        return await verify(argv.slice(1), io)
      case "batches":
        if (sub === "list") return await batchesList(rest, io)
        if (sub === "get") return await batchesGet(rest, io)
        return exitUsage(io, "batches takes list or get")
      case "webhooks":
        if (sub === "listen") return await webhooksListen(rest, io)
        if (sub === "list") return await webhooksList(rest, io)
        if (sub === "test") return await webhooksTest(rest, io)
        if (sub === "delete") return await webhooksDelete(rest, io)
        return exitUsage(io, "webhooks takes listen, list, test or delete")
      default:
        return exitUsage(io, `unknown command ${command}`)
    }
  } catch (error) {
    if (error instanceof Args.UsageError) return exitUsage(io, error.message)
    io.stderr.write(`sigil: ${describeError(error)}\n`)
    return 1
  }
}
