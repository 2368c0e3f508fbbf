/**
 * `sigil issue`: a CSV file issued in batches, rerun-safe (docs/decisions/cli-issue.md).
 *
 * @internal
 */
import { Either } from "effect"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as Args from "../internal/args.js"
import * as Progress from "../internal/progress.js"
import * as IssueCsv from "../IssueCsv.js"
import * as PromiseClient from "../PromiseClient.js"
import * as SigilClient from "../SigilClient.js"
import * as Csv from "../Csv.js"
import { baseUrlOf, clientOf, describeError, exitUsage, type Io, plural } from "./common.js"

export const ISSUE_USAGE = `Usage: sigil issue --csv <file.csv> --achievement <achievement.json> [options]

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

const linesOf = (chunk: IssueCsv.Chunk) => {
  const first = chunk.rows[0]!.line
  const last = chunk.rows.at(-1)!.line
  return first === last ? `line ${first}` : `lines ${first}–${last}`
}



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

export const issue = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
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
