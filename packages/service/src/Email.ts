/**
 * Magic-link e-mail delivery (issue #10). When a batch becomes anchored and its tenant has
 * `email_delivery` on, every recipient with an e-mail address gets one message: the
 * achievement, the awarding body, and a claim link (`Claims`) to their credential's page.
 *
 * - `enqueueForBatch` runs inside the transaction that anchors the batch (with
 *   `batch.anchored`): one `queued` delivery record and one `send_email` job per recipient
 *   with an address, or nothing at all.
 * - `send` is one attempt of one delivery, run by the job: it re-reads everything (an erased
 *   recipient has no address any more, and their delivery is `cancelled`), issues a fresh
 *   claim token in a transaction that checks the delivery is still `queued`, renders the
 *   message and hands it to the `Mailer`. Transient failures are retried on a schedule and
 *   the delivery becomes `failed` when it runs out; a permanent refusal is `bounced`.
 *
 * Nothing here logs or records a recipient's name or address: log lines carry the credential
 * id, and error texts come from the `Mailer`, which redacts the address.
 *
 * @since 0.1.0
 */
import { Effect, Option } from "effect"
import type { BatchRecord } from "./Batches/BatchStore.js"
import { BatchStore } from "./Batches/BatchStore.js"
import * as Claims from "./Email/Claims.js"
import type { JsonObject } from "@sigil/core/Document"
import { type DeliveryRecord, EmailDeliveryStore } from "./Email/EmailDeliveryStore.js"
import type { CredentialId } from "@sigil/core/Ids"
import { JobQueue } from "./Pipeline/JobQueue.js"
import { Mailer, type Message } from "./Email/Mailer.js"
import * as Plans from "./Tenants/Plans.js"
import { Settings, verifyUrl } from "./Settings.js"
import type { Tenant } from "./Tenants/TenantStore.js"
import { TenantStore } from "./Tenants/TenantStore.js"
import { Transactor } from "./Transactor.js"
import * as Jobs from "./Pipeline/Jobs.js"

/**
 * The delays before the 2nd, 3rd, … attempt of a delivery (±10 % jitter): 1 min, 5 min,
 * 30 min, 2 h, 6 h; then `failed`. Overridable (`SIGIL_MAIL_RETRY_SCHEDULE`).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_SCHEDULE_MS: ReadonlyArray<number> = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000]

/**
 * Queues one message per recipient with an e-mail address when the batch's tenant has
 * delivery on. Call it inside the transaction that anchors the batch. Returns how many.
 *
 * @since 0.1.0
 * @category operations
 */
export const enqueueForBatch = (
  batch: BatchRecord,
  now: Date
): Effect.Effect<number, never, TenantStore | BatchStore | EmailDeliveryStore | JobQueue> =>
  Effect.gen(function*() {
    const tenant = yield* Effect.flatMap(TenantStore, (s) => s.get(batch.tenantId))
    if (Option.isNone(tenant) || !tenant.value.emailDelivery.enabled) return 0
    const recipients = (yield* Effect.flatMap(BatchStore, (s) => s.recipientsOf(batch.id))).filter((r) => r.email !== undefined)
    if (recipients.length === 0) return 0
    yield* Effect.flatMap(EmailDeliveryStore, (s) =>
      s.insert(recipients.map((r): DeliveryRecord => ({
        credentialId: r.credentialId,
        tenantId: batch.tenantId,
        batchId: batch.id,
        status: "queued",
        attempts: 0,
        lastError: undefined,
        lastAttemptAt: undefined,
        sentAt: undefined,
        claimedAt: undefined,
        createdAt: now
      }))))
    yield* Effect.forEach(recipients, (r) => Jobs.enqueue(Jobs.SendEmail.make({ credentialId: r.credentialId }), now), {
      discard: true
    })
    return recipients.length
  })

/**
 * What a message says, before it is rendered.
 *
 * @since 0.1.0
 * @category models
 */
export interface Letter {
  readonly credentialId: string
  readonly recipientName: string
  readonly achievement: { readonly name: string; readonly description: string | undefined }
  readonly awardingBody: { readonly name: string; readonly url: string | undefined; readonly logoUrl: string | undefined }
  /** The display name of the From address. */
  readonly senderName: string
  /** The magic link: the page with the recipient's name and the download. */
  readonly claimUrl: string
  /** The public page, which stays after the link expires. */
  readonly verifyUrl: string
  readonly expiresAt: Date
  /** The tenant's branding, when its plan includes it. */
  readonly branding: { readonly accentColor: string | undefined; readonly logoUrl: string | undefined } | undefined
}

const oneLine = (text: string): string => text.replace(/[\r\n\t]+/g, " ").trim()

const isObject = (u: unknown): u is JsonObject => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * The letter of a credential's message, from the stored records.
 *
 * @since 0.1.0
 * @category rendering
 */
export const letter = (args: {
  readonly publicBaseUrl: string
  readonly tenant: Tenant
  readonly credentialId: string
  readonly content: JsonObject
  readonly recipientName: string
  readonly token: string
  readonly expiresAt: Date
}): Letter => {
  const { tenant } = args
  const achievement = isObject(args.content.achievement) ? args.content.achievement : {}
  // The credential's issuer name (decisions §1): the awarding body, else the display name, else the name.
  const bodyName = tenant.awardingBody?.name ?? tenant.displayName ?? tenant.name
  const branded = Plans.limits[tenant.plan].verifyPageBranding && tenant.branding !== undefined
  return {
    credentialId: args.credentialId,
    recipientName: args.recipientName,
    achievement: {
      name: typeof achievement.name === "string" ? achievement.name : "Credential",
      description: typeof achievement.description === "string" ? achievement.description : undefined
    },
    awardingBody: { name: bodyName, url: tenant.awardingBody?.url, logoUrl: tenant.awardingBody?.logoUrl },
    senderName: oneLine(tenant.emailDelivery.senderName ?? bodyName),
    claimUrl: Claims.claimUrl(args.publicBaseUrl, args.credentialId, args.token),
    verifyUrl: verifyUrl(args.publicBaseUrl, args.credentialId),
    expiresAt: args.expiresAt,
    branding: branded ? { accentColor: tenant.branding?.accentColor, logoUrl: tenant.branding?.logoUrl } : undefined
  }
}

/**
 * @since 0.1.0
 * @category rendering
 */
export const subject = (letter: Letter): string =>
  oneLine(`Your credential from ${letter.awardingBody.name}: ${letter.achievement.name}`)

const day = (date: Date) => date.toISOString().slice(0, 10)

/**
 * The plain-text body.
 *
 * @since 0.1.0
 * @category rendering
 */
export const text = (letter: Letter): string =>
  [
    `Dear ${letter.recipientName},`,
    "",
    `${letter.awardingBody.name} has awarded you "${letter.achievement.name}".`,
    ...(letter.achievement.description === undefined ? [] : ["", letter.achievement.description]),
    "",
    "View your credential and download it:",
    letter.claimUrl,
    "",
    `This link is yours alone: it shows the credential with your name and lets you download the signed file. It works until ${
      day(letter.expiresAt)
    }. The credential's public page stays at ${letter.verifyUrl}`,
    "",
    "If you did not expect this message, you can ignore it.",
    ...(letter.awardingBody.url === undefined ? [] : ["", `${letter.awardingBody.name} — ${letter.awardingBody.url}`]),
    ""
  ].join("\n")

/**
 * @since 0.1.0
 * @category models
 */
export interface SendOptions {
  /** Delays before the 2nd, 3rd, … attempt; when they run out the delivery has `failed`. */
  readonly schedule: ReadonlyArray<number>
  /** In [0, 1): the jitter of the next delay (±10 %). */
  readonly random: number
  /** How long a claim link works; 30 days by default. */
  readonly tokenTtlMs?: number | undefined
  /** The HTML body (the server renders it with its escaping templates). */
  readonly renderHtml: (letter: Letter) => string
}

/**
 * What one attempt did. `Retry` asks the job to run again at `at`.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome =
  | { readonly _tag: "Sent" }
  | { readonly _tag: "Retry"; readonly at: Date; readonly reason: string }
  | { readonly _tag: "Bounced"; readonly reason: string }
  | { readonly _tag: "Failed"; readonly reason: string }
  | { readonly _tag: "Cancelled" }
  | { readonly _tag: "Skipped" }

type Prepared =
  | { readonly _tag: "Done"; readonly outcome: Outcome }
  | { readonly _tag: "Send"; readonly message: Message }

/**
 * One attempt of a credential's delivery.
 *
 * @since 0.1.0
 * @category operations
 */
export const send = (
  credentialId: CredentialId,
  now: Date,
  options: SendOptions
): Effect.Effect<Outcome, never, Transactor | EmailDeliveryStore | BatchStore | TenantStore | Mailer | Settings> =>
  Effect.gen(function*() {
    const deliveries = yield* EmailDeliveryStore
    const transactor = yield* Transactor
    const settings = yield* Settings
    // Everything is re-read, and the token issued, in one transaction holding the delivery's
    // lock: an erasure (which takes the same lock first) either comes before — nothing is sent —
    // or after, and then deletes the token issued here.
    const prepared: Prepared = yield* transactor.withTransaction(Effect.gen(function*() {
      const delivery = yield* deliveries.lock(credentialId)
      if (Option.isNone(delivery) || delivery.value.status !== "queued") return done({ _tag: "Skipped" })
      const store = yield* BatchStore
      const recipient = yield* store.recipient(credentialId)
      const credential = yield* store.credentialById(credentialId)
      const tenant = Option.isSome(credential)
        ? yield* Effect.flatMap(TenantStore, (s) => s.get(credential.value.tenantId))
        : Option.none<Tenant>()
      const email = Option.getOrUndefined(recipient)?.email
      if (email === undefined || Option.isNone(credential) || Option.isNone(tenant) || credential.value.erased) {
        yield* deliveries.cancel(credentialId)
        return done({ _tag: "Cancelled" })
      }
      const { token, expiresAt } = yield* Claims.issue(credentialId, now, options.tokenTtlMs ?? Claims.DEFAULT_TTL_MS)
      const l = letter({
        publicBaseUrl: settings.publicBaseUrl,
        tenant: tenant.value,
        credentialId,
        content: credential.value.content,
        recipientName: recipient.pipe(Option.map((r) => r.name), Option.getOrElse(() => "")),
        token,
        expiresAt
      })
      const message: Message = {
        to: email,
        fromName: l.senderName,
        replyTo: tenant.value.emailDelivery.replyTo,
        subject: subject(l),
        text: text(l),
        html: options.renderHtml(l),
        reference: credentialId
      }
      return { _tag: "Send" as const, message }
    }))
    if (prepared._tag === "Done") return prepared.outcome

    const result = yield* Effect.either(Effect.flatMap(Mailer, (m) => m.send(prepared.message)))

    return yield* transactor.withTransaction(Effect.gen(function*() {
      const current = yield* deliveries.lock(credentialId)
      if (Option.isNone(current)) return { _tag: "Skipped" } as const
      const erased = current.value.status === "cancelled"
      if (result._tag === "Right") {
        // Sent, even if an erasure came while the server was accepting it: the record says
        // what happened (the message's link was deleted with the erasure).
        yield* deliveries.recordAttempt(credentialId, { at: now, status: "sent", error: undefined })
        return { _tag: "Sent" } as const
      }
      if (erased) return { _tag: "Cancelled" } as const
      const reason = result.left.message
      if (result.left._tag === "MailRejected") {
        yield* deliveries.recordAttempt(credentialId, { at: now, status: "bounced", error: reason })
        yield* Effect.logWarning(`e-mail for ${credentialId} bounced: ${reason}`)
        return { _tag: "Bounced", reason } as const
      }
      const delay = options.schedule[current.value.attempts]
      if (delay === undefined) {
        yield* deliveries.recordAttempt(credentialId, { at: now, status: "failed", error: reason })
        yield* Effect.logWarning(`e-mail for ${credentialId} failed after ${current.value.attempts + 1} attempts: ${reason}`)
        return { _tag: "Failed", reason } as const
      }
      yield* deliveries.recordAttempt(credentialId, { at: now, status: "queued", error: reason })
      const at = new Date(now.getTime() + Math.round(delay * (0.9 + 0.2 * options.random)))
      return { _tag: "Retry", at, reason } as const
    }))
  })

const done = (outcome: Outcome): Prepared => ({ _tag: "Done", outcome })
