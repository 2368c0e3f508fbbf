/**
 * The `Mailer` (issue #10), through nodemailer:
 *
 * - `SMTP_URL` set (`smtp://user:pass@host:587`, `smtps://…:465`; nodemailer's URL options such
 *   as `?pool=true` or `?ignoreTLS=true` apply): SMTP. A 5xx reply to the recipient or the
 *   message is a bounce (`MailRejected`); everything else — a 4xx, a refused or dropped
 *   connection, a timeout, a failed login — is transient (`MailerUnavailable`) and retried.
 * - unset: the outbox, `<SIGIL_DATA_DIR>/outbox/`, one RFC 822 `.eml` file per message
 *   (nodemailer's stream transport writes the same message SMTP would carry), so the embedded
 *   default shows delivery working without a mail server.
 *
 * The From address is the server's (`SIGIL_MAIL_FROM`); the tenant's sender name is shown with
 * it. Errors never quote the recipient's address: the server's reply is redacted.
 *
 * @since 0.1.0
 */
import { Mailer, MailerUnavailable, MailRejected, type Message, redact } from "@sigil/service/Email/Mailer"
import { Effect, Layer, Option, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import nodemailer from "nodemailer"
import { parseConnectionUrl } from "nodemailer/lib/shared"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** `SMTP_URL`; the outbox when absent. */
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  /** The From address (`SIGIL_MAIL_FROM`). */
  readonly from: string
  /** Where the outbox writes, `<dataDir>/outbox`. */
  readonly outboxDir: string
}

interface SmtpError {
  readonly code?: string | undefined
  readonly responseCode?: number | undefined
  readonly response?: string | undefined
  readonly command?: string | undefined
  readonly permanent?: boolean | undefined
  readonly message?: string | undefined
}

/**
 * What a nodemailer error means for the message: a bounce when the server refused the
 * recipient or the data for good (5xx, not 503), else a transient failure. The text keeps the
 * server's reply, with the address redacted.
 *
 * @since 0.1.0
 * @category errors
 */
export const classify = (error: unknown, to: string): MailerUnavailable | MailRejected => {
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as SmtpError
  const reply = (e.response ?? e.message ?? "unknown error").replace(/\s+/g, " ").trim()
  const text = redact(
    [e.code, e.command === undefined ? undefined : `(${e.command})`].filter((x) => x !== undefined).join(" ") +
      (e.code === undefined && e.command === undefined ? reply : `: ${reply}`),
    to
  ).slice(0, 500)
  const refused = e.permanent === true && (e.command === "RCPT TO" || e.command === "DATA")
  return refused ? new MailRejected({ message: text }) : new MailerUnavailable({ message: text })
}

const mail = (from: string, message: Message) => ({
  from: { name: message.fromName, address: from },
  to: message.to,
  ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
  subject: message.subject,
  text: message.text,
  html: message.html,
  headers: {
    "Auto-Submitted": "auto-generated",
    ...(message.reference === undefined ? {} : { "X-Sigil-Credential": message.reference })
  }
})

/**
 * SMTP through nodemailer, closed with the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const smtp = (url: Redacted.Redacted<string>, from: string): Layer.Layer<Mailer> =>
  Layer.scoped(
    Mailer,
    Effect.gen(function*() {
      const transport = yield* Effect.acquireRelease(
        Effect.sync(() =>
          nodemailer.createTransport({
            // Short of nodemailer's defaults (2 min to connect, 10 min idle): a job holds a lease.
            connectionTimeout: 20_000,
            greetingTimeout: 20_000,
            socketTimeout: 60_000,
            ...parseConnectionUrl(Redacted.value(url))
          })
        ),
        (t) => Effect.sync(() => t.close())
      )
      return Mailer.of({
        send: (message) =>
          Effect.tryPromise({
            try: () => transport.sendMail(mail(from, message)),
            catch: (error) => classify(error, message.to)
          }).pipe(Effect.asVoid)
      })
    })
  )

/**
 * The outbox: each message written to `dir` as an `.eml` file (written under a temporary name
 * and renamed, so a reader never sees half a message).
 *
 * @since 0.1.0
 * @category layers
 */
export const outbox = (dir: string, from: string): Layer.Layer<Mailer> =>
  Layer.sync(Mailer, () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" })
    return Mailer.of({
      send: (message) =>
        Effect.tryPromise({
          try: async () => {
            const info = await transport.sendMail(mail(from, message))
            await fs.promises.mkdir(dir, { recursive: true })
            const stamp = new Date().toISOString().replace(/[:.]/g, "-")
            const name = `${stamp}-${message.reference ?? "message"}-${randomUUID().slice(0, 8)}.eml`
            const temporary = path.join(dir, `.${name}.tmp`)
            await fs.promises.writeFile(temporary, info.message as Buffer, { mode: 0o600 })
            await fs.promises.rename(temporary, path.join(dir, name))
          },
          catch: (error) => new MailerUnavailable({ message: redact(`outbox: ${String((error as Error)?.message ?? error)}`, message.to) })
        })
    })
  })

/**
 * SMTP when `SMTP_URL` is set, else the outbox.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<Mailer> =>
  Option.match(options.smtpUrl, {
    onNone: () => outbox(options.outboxDir, options.from),
    onSome: (url) => smtp(url, options.from)
  })

/**
 * The `.eml` files in the outbox (for the banner).
 *
 * @since 0.1.0
 * @category outbox
 */
export const outboxCount = (dir: string): number => {
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith(".eml") && !f.startsWith(".")).length
  } catch {
    return 0
  }
}

/**
 * Where SMTP goes, for the banner: scheme, host and port, never the credentials.
 *
 * @since 0.1.0
 * @category configuration
 */
export const describeSmtp = (url: Redacted.Redacted<string>): string => {
  try {
    const parsed = new URL(Redacted.value(url))
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return "SMTP_URL (unparsable)"
  }
}
