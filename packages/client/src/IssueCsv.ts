/**
 * Turning a CSV of recipients and an achievement into batches, with nothing sent: column
 * mapping, recipient ids, validation of every row (with core's `Inputs`, the server's own
 * rules), chunks of at most 500 and their idempotency keys. `sigil issue` runs the plan.
 *
 * Decisions (docs/decisions/cli-issue.md):
 * - **Columns.** Matched by header, case- and punctuation-insensitively; `--map field=Header`
 *   overrides. Fields: `name` (required), `id`, `email`, `issued`, `expires`, `evidence`.
 * - **Recipient ids.** The `id` column when there is one (`urn:uuid:<v4>` or a bare v4 UUID,
 *   any case). Without one, an id derived from the file's SHA-256 and the row's line, shaped as
 *   a v4 UUID (the contract's pattern): stable across reruns of the same file, unlinkable to
 *   the person without the file, never derived from the name or e-mail (a hash of those would
 *   put guessable personal data in a public document). The results CSV records every id.
 * - **Issuance date.** The `issued` column (ISO 8601 UTC, or a bare `YYYY-MM-DD` = midnight
 *   UTC), else `--issued-at`, else the caller's default (the CLI: today, midnight UTC, kept in
 *   its state file so a rerun sends the same body).
 * - **Idempotency.** Chunk `i`'s key is `sigil-csv-v1-` + hex SHA-256 of (CSV bytes, 0x00,
 *   achievement bytes, 0x00, `i`): the same file and achievement always send the same keys,
 *   whatever the flags, so a rerun within the server's 24 h window never issues twice (a rerun
 *   whose flags change a body is refused with 409 `idempotency_key_reused`).
 *
 * @since 0.1.0
 */
import * as BatchInputs from "@sigil/service/Inputs/BatchInputs"
import { Effect, Either } from "effect"
import { createHash } from "node:crypto"
import * as Csv from "./Csv.js"
import type * as SigilClient from "./SigilClient.js"

const sha256 = (...parts: ReadonlyArray<Uint8Array | string>): Buffer => {
  const hash = createHash("sha256")
  for (const part of parts) hash.update(part)
  return hash.digest()
}

/**
 * @since 0.1.0
 * @category models
 */
export type Field = "name" | "id" | "email" | "issued" | "expires" | "evidence"

/**
 * @since 0.1.0
 * @category constants
 */
export const FIELDS: ReadonlyArray<Field> = ["name", "id", "email", "issued", "expires", "evidence"]

/**
 * Headers recognised without `--map` (compared lowercased, without spaces, `_` and `-`).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_HEADERS: { readonly [F in Field]: ReadonlyArray<string> } = {
  name: ["name", "fullname", "recipientname", "recipient"],
  id: ["id", "recipientid", "uuid", "recipientuuid"],
  email: ["email", "mail", "emailaddress", "recipientemail"],
  issued: ["issued", "issuancedate", "issuedat", "issuedon", "date"],
  expires: ["expires", "expirationdate", "expiresat", "validuntil"],
  evidence: ["evidence", "evidenceurl", "evidenceid"]
}

const squash = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, "")

/**
 * `--map` values: `name=Full Name,email=E-mail` (several `--map`s may be given).
 *
 * @since 0.1.0
 * @category mapping
 */
export const parseMap = (values: ReadonlyArray<string>): Either.Either<Partial<Record<Field, string>>, string> => {
  const out: Partial<Record<Field, string>> = {}
  for (const value of values) {
    for (const part of value.split(",")) {
      if (part.trim() === "") continue
      const eq = part.indexOf("=")
      const field = (eq < 0 ? part : part.slice(0, eq)).trim() as Field
      if (eq < 0 || !FIELDS.includes(field)) {
        return Either.left(`--map expects field=Header pairs with field one of ${FIELDS.join(", ")}; got "${part.trim()}"`)
      }
      out[field] = part.slice(eq + 1).trim()
    }
  }
  return Either.right(out)
}

/**
 * A problem with the input, before anything is sent. `line` is the CSV's line (1 = header);
 * undefined for the achievement or the file as a whole.
 *
 * @since 0.1.0
 * @category models
 */
export interface Problem {
  readonly line: number | undefined
  readonly message: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Row {
  readonly line: number
  readonly recipientId: string
  readonly credential: SigilClient.CredentialInput
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Chunk {
  readonly index: number
  readonly idempotencyKey: string
  readonly rows: ReadonlyArray<Row>
  readonly request: SigilClient.CreateBatchRequest
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Plan {
  /** Hex SHA-256 of the CSV's bytes. */
  readonly fileHash: string
  readonly achievementHash: string
  /** Which header each field was read from. */
  readonly columns: Partial<Record<Field, string>>
  readonly rows: ReadonlyArray<Row>
  readonly chunks: ReadonlyArray<Chunk>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface PlanInput {
  readonly csv: Uint8Array
  readonly achievement: Uint8Array
  readonly map?: Partial<Record<Field, string>> | undefined
  /** For rows without an `issued` value. */
  readonly issuedAt?: string | undefined
  readonly expiresAt?: string | undefined
  /** Default and maximum 500. */
  readonly chunkSize?: number | undefined
  /** At most this many problems are reported (default 50); validation still reads every row. */
  readonly maxProblems?: number | undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * A recipient id as the contract wants it, from what a spreadsheet holds.
 *
 * @since 0.1.0
 * @category recipients
 */
export const normalizeRecipientId = (value: string): string => {
  const v = value.trim().toLowerCase()
  return UUID.test(v) ? `urn:uuid:${v}` : v
}

/**
 * The id of a row without an `id` column: 16 bytes of SHA-256("sigil-recipient-v1", file hash,
 * line) with the version-4 and RFC-variant bits set.
 *
 * @since 0.1.0
 * @category recipients
 */
export const derivedRecipientId = (fileHash: string, line: number): string => {
  const bytes = sha256(`sigil-recipient-v1\u0000${fileHash}\u0000${line}`).subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString("hex")
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * A date as the contract wants it: `YYYY-MM-DD` becomes midnight UTC; anything else is kept
 * (and validated as an ISO 8601 UTC date-time).
 *
 * @since 0.1.0
 * @category dates
 */
export const normalizeDate = (value: string): string => {
  const v = value.trim()
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v
}

/**
 * The idempotency key of chunk `index` of a file and achievement.
 *
 * @since 0.1.0
 * @category idempotency
 */
export const chunkKey = (csv: Uint8Array, achievement: Uint8Array, index: number): string => {
  const zero = new Uint8Array([0])
  return `sigil-csv-v1-${sha256(csv, zero, achievement, zero, String(index)).toString("hex")}`
}

const FIELD_OF_PATH: ReadonlyArray<readonly [string, Field]> = [
  ["recipient.name", "name"],
  ["recipient.id", "id"],
  ["recipient.email", "email"],
  ["issuanceDate", "issued"],
  ["expirationDate", "expires"],
  ["evidence", "evidence"]
]

/**
 * Reads, maps and validates everything; `Left` with every problem found (up to `maxProblems`)
 * when any row is invalid.
 *
 * @since 0.1.0
 * @category planning
 */
export const plan = (input: PlanInput): Either.Either<Plan, ReadonlyArray<Problem>> => {
  const problems: Array<Problem> = []
  const max = input.maxProblems ?? 50
  const problem = (line: number | undefined, message: string) => {
    if (problems.length < max) problems.push({ line, message })
  }
  const chunkSize = Math.min(input.chunkSize ?? BatchInputs.MAX_CREDENTIALS_PER_BATCH, BatchInputs.MAX_CREDENTIALS_PER_BATCH)
  const fileHash = sha256(input.csv).toString("hex")
  const achievementHash = sha256(input.achievement).toString("hex")

  // The achievement.
  let achievement: unknown
  try {
    achievement = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(input.achievement))
  } catch (error) {
    return Either.left([{ line: undefined, message: `the achievement is not valid JSON: ${(error as Error).message}` }])
  }
  if (typeof achievement !== "object" || achievement === null || Array.isArray(achievement)) {
    return Either.left([{ line: undefined, message: "the achievement must be a JSON object ({\"name\": …, \"description\": …})" }])
  }
  const probe = Effect.runSync(Effect.either(BatchInputs.decodeCredentialInput({
    recipient: { id: "urn:uuid:00000000-0000-4000-8000-000000000000", name: "probe" },
    achievement,
    issuanceDate: "2025-01-01T00:00:00Z"
  })))
  if (Either.isLeft(probe)) return Either.left([{ line: undefined, message: `the achievement: ${probe.left.message}` }])

  // The CSV.
  let records: ReadonlyArray<Csv.Record>
  try {
    records = Csv.parse(new TextDecoder("utf-8", { fatal: true }).decode(input.csv))
  } catch (error) {
    if (error instanceof Csv.CsvError) return Either.left([{ line: error.line, message: error.message.replace(/^line \d+: /, "") }])
    return Either.left([{ line: undefined, message: "the CSV is not UTF-8 text" }])
  }
  const [header, ...data] = records
  if (header === undefined) return Either.left([{ line: undefined, message: "the CSV is empty" }])
  if (data.length === 0) return Either.left([{ line: undefined, message: "the CSV has a header and no rows" }])

  const columns: Partial<Record<Field, string>> = {}
  const index: Partial<Record<Field, number>> = {}
  for (const field of FIELDS) {
    const wanted = input.map?.[field]
    const at = wanted !== undefined
      ? header.fields.findIndex((h) => h.trim() === wanted) >= 0
        ? header.fields.findIndex((h) => h.trim() === wanted)
        : header.fields.findIndex((h) => squash(h) === squash(wanted))
      : header.fields.findIndex((h) => DEFAULT_HEADERS[field].includes(squash(h)))
    if (wanted !== undefined && at < 0) {
      problem(header.line, `--map ${field}=${wanted}: no column "${wanted}" (columns: ${header.fields.join(", ")})`)
      continue
    }
    if (at >= 0) {
      columns[field] = header.fields[at]!.trim()
      index[field] = at
    }
  }
  if (index.name === undefined && input.map?.name === undefined) {
    problem(header.line, `no recipient name column: name one with --map name=<header> (columns: ${header.fields.join(", ")})`)
  }
  if (index.issued === undefined && input.issuedAt === undefined) {
    problem(undefined, "no issuance date: add an issued column or pass --issued-at")
  }
  if (problems.length > 0) return Either.left(problems)

  const cell = (record: Csv.Record, field: Field): string | undefined => {
    const at = index[field]
    if (at === undefined) return undefined
    const value = record.fields[at]
    return value === undefined || value.trim() === "" ? undefined : value
  }
  const describe = (path: string): string => {
    const entry = FIELD_OF_PATH.find(([p]) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`))
    const column = entry === undefined ? undefined : columns[entry[1]]
    return column === undefined ? path : `column "${column}" (${path})`
  }

  const rows: Array<Row> = []
  for (const record of data) {
    if (record.fields.length !== header.fields.length) {
      problem(record.line, `${record.fields.length} fields; the header has ${header.fields.length}`)
      continue
    }
    const id = cell(record, "id")
    const recipientId = id === undefined
      ? index.id === undefined
        ? derivedRecipientId(fileHash, record.line)
        : ""
      : normalizeRecipientId(id)
    const email = cell(record, "email")
    const expires = cell(record, "expires") ?? input.expiresAt
    const evidence = cell(record, "evidence")
    const credential: SigilClient.CredentialInput = {
      recipient: { id: recipientId, name: cell(record, "name") ?? "", ...(email === undefined ? {} : { email: email.trim() }) },
      achievement: achievement as SigilClient.CredentialInput["achievement"],
      issuanceDate: normalizeDate(cell(record, "issued") ?? input.issuedAt ?? ""),
      ...(expires === undefined ? {} : { expirationDate: normalizeDate(expires) }),
      ...(evidence === undefined ? {} : { evidence: [{ id: evidence.trim() }] })
    }
    if (index.id !== undefined && id === undefined) {
      problem(record.line, `column "${columns.id}" (recipient.id) is empty`)
      continue
    }
    const checked = Effect.runSync(Effect.either(BatchInputs.decodeCredentialInput(credential)))
    if (Either.isLeft(checked)) {
      const field = checked.left.field
      const detail = checked.left.message.replace(/^(Invalid|Missing required field) [^:]*:?\s*/, "")
      problem(record.line, `${describe(field)}: ${detail === "" ? "missing" : detail}`)
      continue
    }
    rows.push({ line: record.line, recipientId, credential })
  }
  if (problems.length > 0) return Either.left(problems)

  const chunks: Array<Chunk> = []
  for (let i = 0; i * chunkSize < rows.length; i++) {
    const slice = rows.slice(i * chunkSize, (i + 1) * chunkSize)
    chunks.push({
      index: i,
      idempotencyKey: chunkKey(input.csv, input.achievement, i),
      rows: slice,
      request: { credentials: slice.map((r) => r.credential) }
    })
  }
  return Either.right({ fileHash, achievementHash, columns, rows, chunks })
}
