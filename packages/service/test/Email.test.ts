/**
 * Magic-link e-mail delivery (issue #10) in core, over the memory stores and a memory mailer:
 *
 * - anchoring queues one message per recipient with an address, in the transaction that makes
 *   the batch `anchored`, and only when the tenant has delivery on;
 * - each message carries a claim link whose token opens its own credential's claim only, for
 *   30 days, and is stored only as its SHA-256;
 * - a transient failure is retried on the schedule and `failed` when it runs out; a permanent
 *   refusal is `bounced`;
 * - erasure before sending cancels the message, and erasure deletes the tokens;
 * - a wrong token and an expired one go through the same code: one hash, one identical lookup;
 * - no log line carries a recipient's name or address.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, HashMap, Layer, Logger, Option } from "effect"
import type { Principal } from "../src/Access/Auth.js"
import * as Batches from "../src/Batches.js"
import { BatchStore } from "../src/Batches/BatchStore.js"
import * as Claims from "../src/Email/Claims.js"
import * as Credentials from "../src/Credentials.js"
import * as Email from "../src/Email.js"
import { EmailDeliveryStore } from "../src/Email/EmailDeliveryStore.js"
import type { BatchId, CredentialId } from "@sigil/core/Ids"
import * as BatchInputs from "../src/Inputs/BatchInputs.js"
import { JobQueue } from "../src/Pipeline/JobQueue.js"
import * as JobRunner from "../src/Pipeline/JobRunner.js"
import * as Mailer from "../src/Email/Mailer.js"
import * as Tenants from "../src/Tenants.js"
import { TenantStore } from "../src/Tenants/TenantStore.js"
import { makePipeline, PUBLIC_BASE_URL } from "./helpers/pipeline.js"

const DAY = 24 * 3_600_000

const recipients = (n: number, withEmail: (i: number) => boolean = () => true) =>
  Array.from({ length: n }, (_, i) => ({
    id: `urn:uuid:${crypto.randomUUID()}`,
    name: `Graduate Ñandú ${i}`,
    ...(withEmail(i) ? { email: `graduate.${i}@example.org` } : {})
  }))

const request = (people: ReturnType<typeof recipients>) =>
  BatchInputs.decodeCreateBatchRequest({
    credentials: people.map((recipient) => ({
      recipient,
      achievement: { name: "Diploma in Testing", description: "Thoroughly tested." },
      issuanceDate: "2025-06-30T00:00:00Z"
    }))
  })

const tenantWith = (options: { readonly delivery: boolean; readonly plan?: "developer" | "starter" }) =>
  Effect.gen(function*() {
    const created = yield* Tenants.create({ name: "Test University", plan: options.plan ?? "starter" }, new Date(Date.now() - 5000))
    if (options.delivery) {
      yield* Tenants.adminUpdate(created.id as never, {
        email_delivery: { enabled: true, sender_name: "Registrar", reply_to: "registrar@univ.example" }
      })
    }
    const tenant = Option.getOrThrow(yield* Effect.flatMap(TenantStore, (s) => s.get(created.id as never)))
    yield* Tenants.createKey(tenant.id, "test", new Date())
    const apiKey = (yield* Effect.flatMap(TenantStore, (s) => s.apiKeys(tenant.id)))[0]!
    return { tenant, apiKey, environment: "test" } satisfies Principal
  })

const renderHtml = (letter: Email.Letter) => `<p>${letter.claimUrl}</p>`

const sendOptions = { schedule: [0, 0], random: 0.5, renderHtml }

/** Runs every due `send_email` job. */
const sendAll = (options: Omit<Email.SendOptions, "renderHtml"> = sendOptions) =>
  Effect.gen(function*() {
    let ran = 0
    while (
      yield* JobRunner.runOne({
        workerId: "mail",
        handlers: {
          send_email: (job, now) =>
            Effect.map(
              Email.send(job.payload.credential_id as CredentialId, now, { ...options, renderHtml }),
              (o) => (o._tag === "Retry" ? JobRunner.again(o.at, o.reason) : JobRunner.done)
            )
        },
        lease: "30 seconds",
        idle: "10 millis",
        concurrency: 1,
        backoff: { baseMs: 0, capMs: 0 }
      })
    ) ran++
    return ran
  })

const credentialsOf = (batchId: string) => Effect.flatMap(BatchStore, (s) => s.credentialsOf(batchId as BatchId))
const delivery = (id: CredentialId) => Effect.map(Effect.flatMap(EmailDeliveryStore, (s) => s.get(id)), Option.getOrUndefined)
const tokenOf = (message: Mailer.Message) => /\?claim=([A-Za-z0-9_-]+)/.exec(message.text)![1]!

/** The pipeline's layer with a memory mailer answering by `respond`, and the log lines. */
const setup = (respond?: Parameters<typeof Mailer.makeMemory>[0]) => {
  const pipeline = makePipeline()
  const mailer = Mailer.makeMemory(respond)
  const logs: Array<string> = []
  const logger = Logger.make(({ annotations, cause, message }) => {
    logs.push(`${JSON.stringify(message)} ${String(cause)} ${JSON.stringify(HashMap.toEntries(annotations))}`)
  })
  const layer = Layer.mergeAll(pipeline.layer, Layer.succeed(Mailer.Mailer, mailer.service), Logger.replace(Logger.defaultLogger, logger))
  return { pipeline, mailer, logs, layer }
}

describe("EmailDelivery", () => {
  it.live("anchoring queues one message per recipient with an address; each claim link opens its own credential", () => {
    const { layer, logs, mailer, pipeline } = setup()
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true })
      const people = recipients(5, (i) => i !== 2)
      const batch = yield* Batches.create(principal, yield* request(people), new Date())
      yield* pipeline.drain
      const records = yield* credentialsOf(batch.id)
      assert.strictEqual(records[0]!.status, "anchored")
      // Queued with the anchoring, nothing sent yet.
      const queued = yield* Effect.forEach(records, (c) => delivery(c.id))
      assert.deepStrictEqual(queued.map((d) => d?.status), ["queued", "queued", undefined, "queued", "queued"])
      assert.deepStrictEqual((yield* Effect.flatMap(JobQueue, (q) => q.counts())).queued, 4)

      assert.strictEqual(yield* sendAll(), 4)
      assert.strictEqual(mailer.sent.length, 4)
      assert.sameMembers(mailer.sent.map((m) => m.to), [0, 1, 3, 4].map((i) => people[i]!.email!))
      for (const [i, record] of records.entries()) {
        const d = yield* delivery(record.id)
        if (i === 2) {
          assert.isUndefined(d)
          continue
        }
        assert.strictEqual(d?.status, "sent")
        assert.strictEqual(d?.attempts, 1)
        const message = mailer.sent.find((m) => m.to === people[i]!.email)!
        assert.strictEqual(message.reference, record.id)
        assert.strictEqual(message.fromName, "Registrar")
        assert.strictEqual(message.replyTo, "registrar@univ.example")
        assert.strictEqual(message.subject, "Your credential from Test University: Diploma in Testing")
        assert.include(message.text, `Dear ${people[i]!.name},`)
        assert.include(message.text, `${PUBLIC_BASE_URL}/c/${record.id}?claim=`)
        const token = tokenOf(message)
        assert.match(token, /^[A-Za-z0-9_-]{43}$/)
        assert.include(message.html, token)
        // The token opens this credential's claim, and no other's.
        assert.isTrue(Option.isSome(yield* Claims.check(record.id, token, new Date())))
        const other = records[(i + 1) % records.length]!.id
        assert.isTrue(Option.isNone(yield* Claims.check(other, token, new Date())))
        // The store holds its hash, never the token.
        assert.isTrue(Option.isSome(yield* Effect.flatMap(EmailDeliveryStore, (s) => s.findToken(Claims.hash(token), record.id, new Date()))))
        assert.isTrue(Option.isNone(yield* Effect.flatMap(EmailDeliveryStore, (s) => s.findToken(token, record.id, new Date()))))
      }
      // A claim records the first visit.
      const first = records[0]!.id
      assert.isTrue(yield* Claims.claim(first, tokenOf(mailer.sent.find((m) => m.reference === first)!), new Date()))
      assert.isDefined((yield* delivery(first))?.claimedAt)
      // The view beside the credential.
      const view = yield* Credentials.get(principal, first)
      assert.strictEqual(view.email_delivery?.status, "sent")
      assert.isNotNull(view.email_delivery?.claimed_at)
      assert.isNull((yield* Credentials.get(principal, records[2]!.id)).email_delivery)
      // Nothing more to do: one message per recipient.
      assert.strictEqual(yield* sendAll(), 0)
      // Neither names nor addresses in the documents or the logs.
      for (const p of people) {
        assert.notInclude(JSON.stringify(records.map((r) => r.document)), p.name)
        if (p.email !== undefined) assert.notInclude(JSON.stringify(records.map((r) => r.document)), p.email)
        assert.notInclude(logs.join("\n"), p.name)
        if (p.email !== undefined) assert.notInclude(logs.join("\n"), p.email)
      }
    }).pipe(Effect.provide(layer))
  })

  it.live("a tenant with delivery off gets no message", () => {
    const { layer, mailer, pipeline } = setup()
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: false })
      const batch = yield* Batches.create(principal, yield* request(recipients(3)), new Date())
      yield* pipeline.drain
      for (const c of yield* credentialsOf(batch.id)) assert.isUndefined(yield* delivery(c.id))
      assert.strictEqual(yield* sendAll(), 0)
      assert.strictEqual(mailer.attempts.length, 0)
    }).pipe(Effect.provide(layer))
  })

  it.live("erasure before sending cancels the message; erasure after sending deletes the link", () => {
    const { layer, logs, mailer, pipeline } = setup()
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true })
      const people = recipients(3)
      const batch = yield* Batches.create(principal, yield* request(people), new Date())
      yield* pipeline.drain
      const [early, late, kept] = yield* credentialsOf(batch.id)
      const erasure = { requester: "recipient" as const, verified_at: "2025-07-01T00:00:00Z" }
      yield* Credentials.erase(principal, early!.id, erasure, new Date())
      assert.strictEqual((yield* delivery(early!.id))?.status, "cancelled")

      yield* sendAll()
      assert.notInclude(mailer.attempts.map((m) => m.to), people[0]!.email)
      assert.sameMembers(mailer.sent.map((m) => m.reference), [late!.id, kept!.id])
      assert.strictEqual((yield* delivery(early!.id))?.status, "cancelled")
      assert.strictEqual((yield* delivery(early!.id))?.attempts, 0)

      const token = tokenOf(mailer.sent.find((m) => m.reference === late!.id)!)
      assert.isTrue(Option.isSome(yield* Claims.check(late!.id, token, new Date())))
      yield* Credentials.erase(principal, late!.id, erasure, new Date())
      assert.isTrue(Option.isNone(yield* Claims.check(late!.id, token, new Date())))
      assert.strictEqual((yield* delivery(late!.id))?.status, "sent")
      const keptToken = tokenOf(mailer.sent.find((m) => m.reference === kept!.id)!)
      assert.isTrue(Option.isSome(yield* Claims.check(kept!.id, keptToken, new Date())))
      assert.notInclude(logs.join("\n"), people[0]!.email!)
    }).pipe(Effect.provide(layer))
  })

  it.live("a transient failure is retried on the schedule; a bounce is final; retries run out into failed", () => {
    // graduate.0: refused twice, then accepted; graduate.1: 550 for good; graduate.2: always 451.
    const { layer, logs, mailer, pipeline } = setup((message, attempt) => {
      if (message.to.startsWith("graduate.0@")) {
        return attempt <= 2 ? Effect.fail(new Mailer.MailerUnavailable({ message: "451 greylisted, try again" })) : Effect.void
      }
      if (message.to.startsWith("graduate.1@")) return Effect.fail(new Mailer.MailRejected({ message: "550 no such mailbox" }))
      return Effect.fail(new Mailer.MailerUnavailable({ message: "451 busy" }))
    })
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true })
      const people = recipients(3)
      const batch = yield* Batches.create(principal, yield* request(people), new Date())
      yield* pipeline.drain
      const [retried, bounced, failed] = yield* credentialsOf(batch.id)
      yield* sendAll({ schedule: [0, 0, 0], random: 0.5 })
      const r = yield* delivery(retried!.id)
      assert.strictEqual(r?.status, "sent")
      assert.strictEqual(r?.attempts, 3)
      assert.isUndefined(r?.lastError)
      const b = yield* delivery(bounced!.id)
      assert.strictEqual(b?.status, "bounced")
      assert.strictEqual(b?.attempts, 1)
      assert.strictEqual(b?.lastError, "550 no such mailbox")
      const f = yield* delivery(failed!.id)
      assert.strictEqual(f?.status, "failed")
      assert.strictEqual(f?.attempts, 4)
      assert.strictEqual(mailer.attempts.filter((m) => m.to === people[2]!.email).length, 4)
      // Each attempt issued its own token; the delivered one works.
      assert.isTrue(Option.isSome(yield* Claims.check(retried!.id, tokenOf(mailer.sent[0]!), new Date())))
      const counts = yield* Effect.flatMap(JobQueue, (q) => q.counts())
      assert.strictEqual(counts.queued + counts.running, 0)
      for (const p of people) {
        assert.notInclude(logs.join("\n"), p.email!)
        assert.notInclude(logs.join("\n"), p.name)
      }
      assert.isTrue(logs.some((l) => l.includes(`e-mail for ${bounced!.id} bounced`)))
    }).pipe(Effect.provide(layer))
  })

  it.live("the retry waits for the schedule's delay (±10 %)", () => {
    const { layer, pipeline } = setup(() => Effect.fail(new Mailer.MailerUnavailable({ message: "421 closing" })))
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true })
      const batch = yield* Batches.create(principal, yield* request(recipients(1)), new Date())
      yield* pipeline.drain
      const [c] = yield* credentialsOf(batch.id)
      const now = new Date("2030-01-01T00:00:00Z")
      const outcome = yield* Email.send(c!.id, now, { schedule: [60_000], random: 0, renderHtml })
      assert.deepStrictEqual(outcome, { _tag: "Retry", at: new Date(now.getTime() + 54_000), reason: "421 closing" })
      const last = yield* Email.send(c!.id, now, { schedule: [60_000], random: 0, renderHtml })
      assert.strictEqual(last._tag, "Failed")
      assert.deepStrictEqual(yield* Email.send(c!.id, now, { schedule: [60_000], random: 0, renderHtml }), { _tag: "Skipped" })
    }).pipe(Effect.provide(layer))
  })

  it.live("a claim link works for 30 days after it is issued, then never", () => {
    const { layer, mailer, pipeline } = setup()
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true })
      const batch = yield* Batches.create(principal, yield* request(recipients(1)), new Date())
      yield* pipeline.drain
      const [c] = yield* credentialsOf(batch.id)
      const issuedAt = new Date("2030-01-01T00:00:00Z")
      assert.strictEqual((yield* Email.send(c!.id, issuedAt, sendOptions))._tag, "Sent")
      const token = tokenOf(mailer.sent[0]!)
      assert.include(mailer.sent[0]!.text, "It works until 2030-01-31.")
      assert.isTrue(yield* Claims.claim(c!.id, token, new Date(issuedAt.getTime() + 30 * DAY - 1)))
      assert.isFalse(yield* Claims.claim(c!.id, token, new Date(issuedAt.getTime() + 30 * DAY)))
      assert.isFalse(yield* Claims.claim(c!.id, `${token}x`, issuedAt))
      assert.isFalse(yield* Claims.claim(c!.id, "", issuedAt))
    }).pipe(Effect.provide(layer))
  })

  it.live("a wrong token and an expired one run the same code: one hash, one identical lookup, nothing else", () => {
    const { layer, mailer, pipeline } = setup()
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true })
      const batch = yield* Batches.create(principal, yield* request(recipients(1)), new Date())
      yield* pipeline.drain
      const [c] = yield* credentialsOf(batch.id)
      const issuedAt = new Date("2030-01-01T00:00:00Z")
      yield* Email.send(c!.id, issuedAt, sendOptions)
      const token = tokenOf(mailer.sent[0]!)
      const expiredAt = new Date(issuedAt.getTime() + 31 * DAY)
      // Every store call a check makes, recorded.
      const store = yield* EmailDeliveryStore
      const calls: Array<string> = []
      const spy = new Proxy(store, {
        get: (target, name: string) => (...args: Array<unknown>) => {
          calls.push(`${name}(${args.map((a) => (typeof a === "string" && /^[0-9a-f]{64}$/.test(a) ? "<hash>" : a instanceof Date ? "<now>" : String(a))).join(", ")})`)
          return (target as any)[name](...args)
        }
      })
      const traced = (t: string, now: Date) =>
        Effect.gen(function*() {
          calls.length = 0
          const ok = yield* Effect.provideService(Claims.claim(c!.id, t, now), EmailDeliveryStore, spy)
          return { ok, calls: [...calls] }
        })
      const wrong = yield* traced(Claims.generate(), issuedAt)
      const expired = yield* traced(token, expiredAt)
      const malformed = yield* traced("not-a-token", issuedAt)
      assert.isFalse(wrong.ok)
      assert.isFalse(expired.ok)
      assert.isFalse(malformed.ok)
      assert.deepStrictEqual(wrong.calls, [`findToken(<hash>, ${c!.id}, <now>)`])
      assert.deepStrictEqual(expired.calls, wrong.calls)
      assert.deepStrictEqual(malformed.calls, wrong.calls)
      const valid = yield* traced(token, issuedAt)
      assert.isTrue(valid.ok)
      assert.deepStrictEqual(valid.calls, [...wrong.calls, `markClaimed(${c!.id}, <now>)`])
    }).pipe(Effect.provide(layer))
  })

  it.live("branding goes into the letter only where the plan allows it", () => {
    const { layer } = setup()
    return Effect.gen(function*() {
      const principal = yield* tenantWith({ delivery: true, plan: "starter" })
      const tenants = yield* TenantStore
      yield* tenants.update(principal.tenant.id, { branding: { accentColor: "#aa0000", logoUrl: "https://cdn.example/l.png" } })
      const starter = Option.getOrThrow(yield* tenants.get(principal.tenant.id))
      const args = { publicBaseUrl: PUBLIC_BASE_URL, credentialId: "crd_X", content: {}, recipientName: "N", token: "t", expiresAt: new Date() }
      assert.deepStrictEqual(Email.letter({ ...args, tenant: starter }).branding, { accentColor: "#aa0000", logoUrl: "https://cdn.example/l.png" })
      assert.isUndefined(Email.letter({ ...args, tenant: { ...starter, plan: "developer" } }).branding)
      assert.strictEqual(Email.letter({ ...args, tenant: starter }).achievement.name, "Credential")
      assert.strictEqual(
        Email.letter({ ...args, tenant: { ...starter, emailDelivery: { enabled: true, senderName: "A\r\nBcc: x@y", replyTo: undefined } } }).senderName,
        "A Bcc: x@y"
      )
    }).pipe(Effect.provide(layer))
  })
})

