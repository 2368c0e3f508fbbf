/**
 * The mail adapter and the message, without the server process:
 *
 * - `MailerLive.smtp` against a real SMTP server in this process: accepted → success with the
 *   message as sent; 550/552 to the recipient or the data → `MailRejected` (bounce); 451, 503,
 *   a 5xx to MAIL FROM, a refused connection → `MailerUnavailable` (retried); the address never
 *   in the error;
 * - `MailerLive.outbox`: one complete `.eml` file per message, named by credential;
 * - `EmailMessage.render`: everything escaped, only http(s) links and images, branding only
 *   when the letter carries it;
 * - the configuration: `SMTP_URL` and `SIGIL_MAIL_FROM` validated, the From default, the banner
 *   never shows SMTP credentials.
 */
import type { Letter } from "@sigil/service/Email"
import * as Email from "@sigil/service/Email"
import { Mailer, type Message } from "@sigil/service/Email/Mailer"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import * as EmailMessage from "../src/EmailMessage.js"
import * as MailerLive from "../src/MailerLive.js"
import * as ServerConfig from "../src/ServerConfig.js"
import { freePort } from "../testkit/process.js"
import { parse, type Smtp, startSmtp } from "./helpers/mail.js"

const message = (to: string): Message => ({
  to,
  fromName: "Registrar, \"Example\" University",
  replyTo: "registrar@example.edu",
  subject: "Your credential from Example University: Diplôme",
  text: "Dear Ada,\n\nhttps://sigil.example/c/crd_X?claim=abc\n",
  html: "<p>Dear Ada</p>",
  reference: "crd_01ARZ3NDEKTSV4RRFFQ69G5FAV"
})

const send = (layer: ReturnType<typeof MailerLive.smtp>, m: Message) =>
  Effect.runPromise(Effect.either(Effect.flatMap(Mailer, (mailer) => mailer.send(m))).pipe(Effect.provide(layer), Effect.scoped))

describe("MailerLive.smtp against a real SMTP server", () => {
  let smtp: Smtp
  beforeAll(async () => {
    smtp = await startSmtp()
    smtp.policy = (address) => {
      const code = /^(\d{3})@/.exec(address)?.[1]
      return code === undefined ? undefined : { code: Number(code), text: `x.y.z <${address}>: refused` }
    }
  })
  afterAll(() => smtp.close())
  const layer = () => MailerLive.smtp(Redacted.make(smtp.url), "no-reply@sigil.example")

  it("sends the message with the server's From, the tenant's name and reply-to", async () => {
    const result = await send(layer(), message("ada@example.org"))
    assert.isTrue(Either.isRight(result))
    const received = parse(smtp.to("ada@example.org")[0]!.raw)
    assert.strictEqual(received.headers.get("from"), "\"Registrar, \\\"Example\\\" University\" <no-reply@sigil.example>")
    assert.strictEqual(received.headers.get("reply-to"), "registrar@example.edu")
    assert.strictEqual(received.headers.get("subject"), "Your credential from Example University: Diplôme")
    assert.strictEqual(received.headers.get("auto-submitted"), "auto-generated")
    assert.strictEqual(received.headers.get("x-sigil-credential"), "crd_01ARZ3NDEKTSV4RRFFQ69G5FAV")
    assert.include(received.text, "https://sigil.example/c/crd_X?claim=abc")
    assert.strictEqual(received.html.trim(), "<p>Dear Ada</p>")
  })

  it("a permanent refusal of the recipient is a bounce; 4xx and 503 are transient; the address never shows", async () => {
    for (const [code, tag] of [[550, "MailRejected"], [552, "MailRejected"], [451, "MailerUnavailable"], [503, "MailerUnavailable"]] as const) {
      const to = `${code}@example.org`
      const result = await send(layer(), message(to))
      assert.isTrue(Either.isLeft(result), String(code))
      const error = (result as Either.Left<any, any>).left
      assert.strictEqual(error._tag, tag, `${code}`)
      assert.include(error.message, `${code} x.y.z <[recipient]>: refused`)
      assert.notInclude(error.message, to)
    }
  })

  it("a refused connection is transient", async () => {
    const port = await freePort()
    const result = await send(MailerLive.smtp(Redacted.make(`smtp://127.0.0.1:${port}`), "no-reply@sigil.example"), message("ada@example.org"))
    assert.strictEqual(Either.isLeft(result) && result.left._tag, "MailerUnavailable")
  })

  it("classifies by the command the reply answered", () => {
    const to = "Ada.Lovelace@Example.org"
    const bounce = MailerLive.classify({ code: "EENVELOPE", command: "DATA", responseCode: 554, permanent: true, response: `554 <${to.toLowerCase()}> rejected` }, to)
    assert.strictEqual(bounce._tag, "MailRejected")
    assert.strictEqual(bounce.message, "EENVELOPE (DATA): 554 <[recipient]> rejected")
    // Our sender refused, or a failed login: the operator's problem, not the recipient's.
    assert.strictEqual(MailerLive.classify({ code: "EENVELOPE", command: "MAIL FROM", responseCode: 550, permanent: true, response: "550 no" }, to)._tag, "MailerUnavailable")
    assert.strictEqual(MailerLive.classify({ code: "EAUTH", command: "AUTH PLAIN", responseCode: 535, permanent: true, response: "535 bad" }, to)._tag, "MailerUnavailable")
    assert.strictEqual(MailerLive.classify(new Error(`connect ECONNREFUSED for ${to}`), to).message, "connect ECONNREFUSED for [recipient]")
  })
})

describe("MailerLive.outbox", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sigil-outbox-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("writes one complete .eml file per message, named by its credential, never by its address", async () => {
    const outbox = path.join(dir, "outbox")
    assert.strictEqual(MailerLive.outboxCount(outbox), 0)
    const layer = MailerLive.layer({ smtpUrl: Option.none(), from: "no-reply@localhost", outboxDir: outbox })
    for (const to of ["a@example.org", "b@example.org"]) {
      await Effect.runPromise(Effect.flatMap(Mailer, (m) => m.send(message(to))).pipe(Effect.provide(layer)))
    }
    const files = readdirSync(outbox)
    assert.strictEqual(files.length, 2)
    assert.strictEqual(MailerLive.outboxCount(outbox), 2)
    for (const file of files) {
      assert.match(file, /^\d{4}-\d{2}-\d{2}T[\d-]+Z-crd_01ARZ3NDEKTSV4RRFFQ69G5FAV-[0-9a-f]{8}\.eml$/)
      const parsed = parse(readFileSync(path.join(outbox, file), "utf8"))
      assert.strictEqual(parsed.headers.get("from"), "\"Registrar, \\\"Example\\\" University\" <no-reply@localhost>")
      assert.include(parsed.text, "?claim=abc")
    }
    assert.sameMembers(files.map((f) => parse(readFileSync(path.join(outbox, f), "utf8")).headers.get("to")), ["a@example.org", "b@example.org"])
  })
})

describe("EmailMessage.render", () => {
  const letter: Letter = {
    credentialId: "crd_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    recipientName: "<script>alert(1)</script> O'Brien & Co",
    achievement: { name: "Data & \"Science\"", description: "<b>bold</b>" },
    awardingBody: { name: "Faculty <of> Science", url: "javascript:alert(1)", logoUrl: "https://cdn.example/logo.png" },
    senderName: "Registrar",
    claimUrl: "https://sigil.example/c/crd_01ARZ3NDEKTSV4RRFFQ69G5FAV?claim=abc_-123",
    verifyUrl: "https://sigil.example/c/crd_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    expiresAt: new Date("2030-01-31T00:00:00Z"),
    branding: undefined
  }

  it("escapes every supplied string and links only http(s) URLs", () => {
    const out = EmailMessage.render(letter)
    assert.notInclude(out, "<script>")
    assert.include(out, "&lt;script&gt;alert(1)&lt;/script&gt; O&#39;Brien &amp; Co")
    assert.include(out, "Data &amp; &quot;Science&quot;")
    assert.include(out, "&lt;b&gt;bold&lt;/b&gt;")
    assert.notInclude(out, "javascript:")
    assert.include(out, `href="${letter.claimUrl}"`)
    assert.include(out, "2030-01-31")
    assert.include(out, `src="https://cdn.example/logo.png"`)
  })

  it("uses the tenant's accent and logo only when the letter carries branding", () => {
    const plain = EmailMessage.render(letter)
    assert.notInclude(plain, "#aa0000")
    const branded = EmailMessage.render({ ...letter, branding: { accentColor: "#aa0000", logoUrl: "https://brand.example/b.svg" } })
    assert.include(branded, "#aa0000")
    assert.include(branded, `src="https://brand.example/b.svg"`)
  })

  it("says what the plain text says", () => {
    const text = Email.text(letter)
    assert.include(text, "Dear <script>alert(1)</script> O'Brien & Co,")
    assert.include(text, letter.claimUrl)
    assert.include(text, "It works until 2030-01-31.")
  })
})

describe("mail configuration", () => {
  const load = (env: Record<string, string>) =>
    Effect.runPromise(Effect.either(ServerConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))))

  it("reads SMTP_URL, SIGIL_MAIL_FROM, the retry schedule and the link lifetime", async () => {
    const config = await load({
      SMTP_URL: "smtps://user:secret@mail.example.org:465",
      SIGIL_MAIL_FROM: "credentials@univ.example",
      SIGIL_MAIL_RETRY_SCHEDULE: "30s,5m,1h",
      SIGIL_CLAIM_LINK_TTL: "30d"
    })
    assert.isTrue(Either.isRight(config))
    const c = (config as Either.Right<any, ServerConfig.ServerConfig>).right
    assert.strictEqual(ServerConfig.mailFrom(c), "credentials@univ.example")
    assert.deepStrictEqual(Option.getOrThrow(c.mailRetrySchedule), [30_000, 300_000, 3_600_000])
    assert.strictEqual(Option.getOrThrow(c.claimLinkTtlMs), 30 * 24 * 3_600_000)
    assert.strictEqual(MailerLive.describeSmtp(Option.getOrThrow(c.smtpUrl)), "smtps://mail.example.org:465")
    assert.notInclude(String(c.smtpUrl), "secret")
  })

  it("defaults: the outbox, no-reply@ the public host", async () => {
    const config = await load({ PUBLIC_BASE_URL: "https://credentials.univ.example" })
    const c = (config as Either.Right<any, ServerConfig.ServerConfig>).right
    assert.isTrue(Option.isNone(c.smtpUrl))
    assert.strictEqual(ServerConfig.mailFrom(c), "no-reply@credentials.univ.example")
  })

  it("refuses a malformed SMTP_URL or From address", async () => {
    assert.isTrue(Either.isLeft(await load({ SMTP_URL: "http://mail.example.org" })))
    assert.isTrue(Either.isLeft(await load({ SIGIL_MAIL_FROM: "Sigil <no-reply@x.example>" })))
    assert.isTrue(Either.isLeft(await load({ SIGIL_MAIL_RETRY_SCHEDULE: "soon" })))
  })
})
