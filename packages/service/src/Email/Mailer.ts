/**
 * Port: sends one e-mail message (issue #10). The adapter knows the From address and how to
 * reach the mail server (`@sigil/server`'s `MailerLive`: SMTP through nodemailer, or `.eml`
 * files in the data directory); callers give the recipient, the sender's display name, the
 * reply-to and the rendered bodies.
 *
 * Two outcomes besides success:
 * - `MailerUnavailable`: transient (the server is unreachable, answered 4xx, timed out…) — the
 *   same message may go through later, so the caller retries;
 * - `MailRejected`: permanent, the server refused this message or recipient for good (a 5xx
 *   reply to the recipient or the data) — the caller records the message as bounced.
 *
 * Error messages never carry the recipient's address (they end up in job records and logs):
 * adapters redact it.
 *
 * @since 0.1.0
 */
import { Context, Effect, Layer, Schema } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface Message {
  readonly to: string
  /** The display name shown with the server's From address. */
  readonly fromName: string
  readonly replyTo: string | undefined
  readonly subject: string
  readonly text: string
  readonly html: string
  /** What the message is about (a credential id): a header and the outbox file's name, never personal data. */
  readonly reference?: string | undefined
}

/**
 * Transient: retry later.
 *
 * @since 0.1.0
 * @category errors
 */
export class MailerUnavailable extends Schema.TaggedError<MailerUnavailable>()("MailerUnavailable", {
  message: Schema.String
}) {}

/**
 * Permanent: the message bounced.
 *
 * @since 0.1.0
 * @category errors
 */
export class MailRejected extends Schema.TaggedError<MailRejected>()("MailRejected", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly send: (message: Message) => Effect.Effect<void, MailerUnavailable | MailRejected>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Mailer extends Context.Tag("@sigil/service/Email/Mailer")<Mailer, Service>() {}

/**
 * Replaces every occurrence of an address in a text (case-insensitive): what adapters do to
 * a server's reply before it becomes an error message.
 *
 * @since 0.1.0
 * @category privacy
 */
export const redact = (text: string, address: string): string => {
  if (address === "") return text
  const escaped = address.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return text.replace(new RegExp(escaped, "gi"), "[recipient]")
}

/**
 * A mailer in memory, for tests: it keeps what it sent; `respond` decides each send's outcome
 * (success by default).
 *
 * @since 0.1.0
 * @category memory
 */
export const makeMemory = (
  respond: (message: Message, attempt: number) => Effect.Effect<void, MailerUnavailable | MailRejected> = () => Effect.void
) => {
  const sent: Array<Message> = []
  const attempts: Array<Message> = []
  const service: Service = {
    send: (message) =>
      Effect.suspend(() => {
        attempts.push(message)
        const tries = attempts.filter((m) => m.to === message.to).length
        return Effect.tap(respond(message, tries), () => Effect.sync(() => void sent.push(message)))
      })
  }
  return { service, sent, attempts }
}

/**
 * @since 0.1.0
 * @category memory
 */
export const layerMemory = (
  respond?: Parameters<typeof makeMemory>[0]
): Layer.Layer<Mailer> => Layer.succeed(Mailer, makeMemory(respond).service)
