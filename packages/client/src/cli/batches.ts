/**
 * `sigil batches list` and `sigil batches get`.
 *
 * @internal
 */
import * as Args from "../internal/args.js"
import * as PromiseClient from "../PromiseClient.js"
import * as SigilClient from "../SigilClient.js"
import { clientOf, exitUsage, type Io } from "./common.js"

const STATUSES = ["pending", "signed", "anchored", "failed"] as const

export const batchesList = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
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

export const batchesGet = async (argv: ReadonlyArray<string>, io: Io): Promise<number> => {
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
