/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF or LF, fields
 * optionally quoted with `"`, a quote inside a quoted field doubled (`""`), line breaks allowed
 * inside quotes. A UTF-8 byte-order mark is skipped. Every record remembers the line it starts
 * on, so errors can name it.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 * @category models
 */
export interface Record {
  /** 1-based line of the file where the record starts. */
  readonly line: number
  readonly fields: ReadonlyArray<string>
}

/**
 * The text is not well-formed CSV.
 *
 * @since 0.1.0
 * @category errors
 */
export class CsvError extends Error {
  override readonly name = "CsvError"
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`)
  }
}

/**
 * Every record of the text, blank lines skipped.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (input: string): ReadonlyArray<Record> => {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const records: Array<Record> = []
  let fields: Array<string> = []
  let field = ""
  let line = 1
  let recordLine = 1
  let quoted = false // inside a quoted field
  let wasQuoted = false // the current field was quoted (only a separator may follow the closing quote)
  let i = 0
  const endField = () => {
    fields.push(field)
    field = ""
    wasQuoted = false
  }
  const endRecord = () => {
    endField()
    // A blank line is no record.
    if (!(fields.length === 1 && fields[0] === "" )) records.push({ line: recordLine, fields })
    fields = []
  }
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
        wasQuoted = true
        i += 1
        continue
      }
      if (c === "\n") line += 1
      field += c
      i += 1
      continue
    }
    if (c === ",") {
      endField()
      i += 1
      continue
    }
    if (c === "\r" || c === "\n") {
      endRecord()
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1
      line += 1
      recordLine = line
      continue
    }
    if (wasQuoted) throw new CsvError(line, "a quoted field must be followed by a comma or the end of the line")
    if (c === '"') {
      if (field !== "") throw new CsvError(line, 'a quote (") inside an unquoted field; quote the whole field and double the quote')
      quoted = true
      i += 1
      continue
    }
    field += c
    i += 1
  }
  if (quoted) throw new CsvError(recordLine, "a quoted field is not closed")
  if (field !== "" || fields.length > 0 || wasQuoted) endRecord()
  return records
}

/**
 * One field, quoted when it needs to be.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatField = (value: string): string =>
  /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value

/**
 * Records as CSV text, CRLF-separated (RFC 4180), with a final CRLF.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  rows.map((row) => row.map(formatField).join(",")).join("\r\n") + (rows.length > 0 ? "\r\n" : "")
