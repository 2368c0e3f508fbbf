/**
 * A real SMTP server in the test process (the `smtp-server` package on a loopback port, no
 * TLS, no auth) that records every message and every RCPT attempt, with a policy the test can
 * change at any time; and just enough MIME to read what nodemailer wrote.
 */
import { SMTPServer } from "smtp-server"

export interface Received {
  readonly to: ReadonlyArray<string>
  readonly raw: string
  readonly at: number
}

export interface RcptAttempt {
  readonly to: string
  readonly at: number
  /** The SMTP reply code given. */
  readonly code: number
}

/** What to answer to `RCPT TO:<address>`: accept (undefined) or a reply code and text. */
export type Policy = (address: string, attempt: number) => { readonly code: number; readonly text: string } | undefined

export interface Smtp {
  readonly port: number
  readonly url: string
  readonly received: Array<Received>
  readonly attempts: Array<RcptAttempt>
  policy: Policy
  readonly to: (address: string) => ReadonlyArray<Received>
  readonly attemptsFor: (address: string) => ReadonlyArray<RcptAttempt>
  readonly close: () => Promise<void>
}

export const startSmtp = async (): Promise<Smtp> => {
  const received: Array<Received> = []
  const attempts: Array<RcptAttempt> = []
  const state: { policy: Policy } = { policy: () => undefined }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase()
      const attempt = attempts.filter((a) => a.to === to).length + 1
      const refusal = state.policy(to, attempt)
      attempts.push({ to, at: Date.now(), code: refusal?.code ?? 250 })
      if (refusal === undefined) return callback()
      const error = new Error(refusal.text) as Error & { responseCode: number }
      error.responseCode = refusal.code
      return callback(error)
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
          at: Date.now()
        })
        callback()
      })
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const port = (server.server.address() as { port: number }).port
  return {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    attempts,
    get policy() {
      return state.policy
    },
    set policy(p: Policy) {
      state.policy = p
    },
    to: (address) => received.filter((m) => m.to.includes(address.toLowerCase())),
    attemptsFor: (address) => attempts.filter((a) => a.to === address.toLowerCase()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

// -------------------------------------------------------------------------------------------
// MIME, as far as nodemailer's messages need it
// -------------------------------------------------------------------------------------------

const splitHead = (part: string): { readonly headers: Map<string, string>; readonly body: string } => {
  const normalized = part.replace(/\r\n/g, "\n")
  const end = normalized.indexOf("\n\n")
  const head = end < 0 ? normalized : normalized.slice(0, end)
  const body = end < 0 ? "" : normalized.slice(end + 2)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

const decodeQuotedPrintable = (text: string): string => {
  const joined = text.replace(/=\n/g, "")
  const bytes: Array<number> = []
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i]!
    if (c === "=" && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...Buffer.from(c, "utf8"))
  }
  return Buffer.from(bytes).toString("utf8")
}

const decodeBody = (headers: Map<string, string>, body: string): string => {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase()
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body)
  return body
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`). */
export const decodeHeader = (value: string): string =>
  value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")))

export interface Parsed {
  readonly headers: Map<string, string>
  readonly text: string
  readonly html: string
}

/** The headers (decoded) and the text and HTML bodies of a message. */
export const parse = (raw: string): Parsed => {
  const { body, headers } = splitHead(raw)
  const decoded = new Map([...headers].map(([k, v]) => [k, decodeHeader(v)]))
  const parts: Array<{ readonly type: string; readonly content: string }> = []
  const walk = (h: Map<string, string>, b: string) => {
    const type = h.get("content-type") ?? "text/plain"
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
    if (boundary === undefined) {
      parts.push({ type: type.split(";")[0]!.toLowerCase(), content: decodeBody(h, b) })
      return
    }
    for (const section of b.split(`--${boundary}`).slice(1)) {
      if (section.startsWith("--")) break
      const inner = splitHead(section.replace(/^\n/, ""))
      walk(inner.headers, inner.body)
    }
  }
  walk(headers, body)
  return {
    headers: decoded,
    text: parts.find((p) => p.type === "text/plain")?.content ?? "",
    html: parts.find((p) => p.type === "text/html")?.content ?? ""
  }
}

/** The claim link in a message's text. */
export const claimLink = (text: string): string | undefined => /(https?:\/\/\S+\/c\/crd_[A-Z0-9]{26}\?claim=[A-Za-z0-9_-]+)/.exec(text)?.[1]
