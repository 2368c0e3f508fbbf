/**
 * Magic-link e-mail delivery (issue #10) on the real server process (`src/main.ts`), sending
 * through nodemailer to a real SMTP server running in this test process (`smtp-server` on a
 * loopback port):
 *
 * - a tenant turns delivery on through the admin channel's PATCH; `GET /v1/tenants/me` shows it;
 * - a 50-recipient batch (plus 5 recipients without an address) produces exactly 50 messages,
 *   one per address, none for the others; every message's claim link opens its credential's
 *   page with the recipient's name and the download of the full signed credential, and a
 *   wrong token (or another credential's) is a 404; the public page stays as it is;
 * - an SMTP server that refuses the first attempts (451) is retried until it accepts; a 550
 *   is a bounce, not retried;
 * - erasure before sending cancels the message: it is never sent, its delivery is `cancelled`;
 *   erasure after sending kills the link that went out;
 * - no recipient address or name ever appears in the server's output, and the signed documents
 *   carry neither;
 * - with no `SMTP_URL` (a second server), messages are `.eml` files in `<data dir>/outbox/`,
 *   listed on the banner; with a short `SIGIL_CLAIM_LINK_TTL` its link works, then expires
 *   (404), and expired and wrong tokens answer in the same time (medians of interleaved
 *   requests).
 */
import { randomBytes } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { claimLink, parse, type Smtp, startSmtp } from "./helpers/mail.js"
import { admin, createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"

const run = randomBytes(3).toString("hex")
const RETRY_MS = 300

interface Person {
  readonly id: string
  readonly name: string
  readonly email?: string
}

const person = (label: string, withEmail = true): Person => ({
  id: `urn:uuid:${crypto.randomUUID()}`,
  name: `Recipient ${label} Zq${run}`,
  ...(withEmail ? { email: `r.${label}.${run}@example.org` } : {})
})

const batchFor = (people: ReadonlyArray<Person>) => ({
  credentials: people.map((recipient) => ({
    recipient,
    achievement: { name: "Certificate in Applied Testing", description: "Completed the applied testing programme." },
    issuanceDate: "2026-06-30T00:00:00Z"
  }))
})

/** Issues a batch and waits until it is anchored; returns its credentials, in order. */
const issue = async (server: Running, key: string, people: ReadonlyArray<Person>) => {
  const created = await server.api("POST", "/v1/batches", key, batchFor(people))
  assert.strictEqual(created.status, 202, JSON.stringify(created.body))
  const batch = await eventually(async () => {
    const b = await server.api("GET", `/v1/batches/${created.body.id}`, key)
    return b.body.status === "anchored" ? b.body : undefined
  }, 90_000, `batch ${created.body.id} anchored`)
  return batch.credentials as ReadonlyArray<{ readonly id: string; readonly recipient_id: string; readonly verify_url: string }>
}

const deliveryOf = async (server: Running, key: string, credentialId: string) =>
  (await server.api("GET", `/v1/credentials/${credentialId}`, key)).body.email_delivery

const page = async (url: string) => {
  const response = await fetch(url)
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const turnOn = async (server: Running, tenantId: string) => {
  const patched = await admin(server, "PATCH", `/admin/tenants/${tenantId}`, {
    email_delivery: { enabled: true, sender_name: "Registrar of Example University", reply_to: `registrar.${run}@example.edu` }
  })
  assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))
  return patched
}

const median = (xs: ReadonlyArray<number>) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

describe.sequential("magic-link e-mail through a real SMTP server", () => {
  let smtp: Smtp
  let server: Running
  let tenant: { readonly id: string; readonly key: string }
  const everyone: Array<Person> = []
  const dataDirs: Array<string> = []

  beforeAll(async () => {
    smtp = await startSmtp()
    const dataDir = newDataDir()
    dataDirs.push(dataDir)
    server = await start({
      dataDir,
      env: {
        SMTP_URL: smtp.url,
        SIGIL_MAIL_RETRY_SCHEDULE: Array.from({ length: 40 }, () => `${RETRY_MS}ms`).join(","),
        SIGIL_DEMO_TENANT: "false"
      }
    })
    tenant = await createTenant(server, { name: "Example University" })
  })

  afterAll(async () => {
    if (server !== undefined) await stop(server)
    await smtp?.close()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  })

  it("delivery is off until the admin channel turns it on; the tenant sees the setting", async () => {
    assert.include(server.output(), `E-mail          SMTP at smtp://127.0.0.1:${smtp.port} (SMTP_URL)`)
    const before = await server.api("GET", "/v1/tenants/me", tenant.key)
    assert.deepStrictEqual(before.body.email_delivery, { enabled: false, sender_name: null, reply_to: null })
    // Off: an anchored batch sends nothing.
    const quiet = person("quiet")
    everyone.push(quiet)
    const [credential] = await issue(server, tenant.key, [quiet])
    assert.isNull(await deliveryOf(server, tenant.key, credential!.id))
    const patched = await turnOn(server, tenant.id)
    assert.deepStrictEqual(patched.body.email_delivery, {
      enabled: true,
      sender_name: "Registrar of Example University",
      reply_to: `registrar.${run}@example.edu`
    })
    const after = await server.api("GET", "/v1/tenants/me", tenant.key)
    assert.deepStrictEqual(after.body.email_delivery, patched.body.email_delivery)
    assert.strictEqual(smtp.to(quiet.email!).length, 0)
  })

  it("a 50-recipient batch (and 5 without an address) produces 50 messages whose links work", async () => {
    const withEmail = Array.from({ length: 50 }, (_, i) => person(`m${i}`))
    const without = Array.from({ length: 5 }, (_, i) => person(`n${i}`, false))
    // Interleaved, so positions with and without an address alternate.
    const people = [...withEmail.slice(0, 5).flatMap((p, i) => [p, without[i]!]), ...withEmail.slice(5)]
    everyone.push(...people)
    const credentials = await issue(server, tenant.key, people)
    assert.strictEqual(credentials.length, 55)
    const before = smtp.received.length
    await eventually(async () => (withEmail.every((p) => smtp.to(p.email!).length > 0) ? true : undefined), 60_000, "50 messages")
    // Exactly one each, and nothing else.
    await new Promise((r) => setTimeout(r, 3 * RETRY_MS))
    assert.strictEqual(smtp.received.length - before, 50)
    for (const p of withEmail) assert.strictEqual(smtp.to(p.email!).length, 1, p.email)

    const byRecipient = new Map(credentials.map((c) => [c.recipient_id, c]))
    for (const p of without) {
      assert.isNull(await deliveryOf(server, tenant.key, byRecipient.get(p.id)!.id))
    }
    const links = new Map<string, string>()
    for (const p of withEmail) {
      const credential = byRecipient.get(p.id)!
      const message = parse(smtp.to(p.email!)[0]!.raw)
      assert.strictEqual(message.headers.get("x-sigil-credential"), credential.id)
      assert.strictEqual(message.headers.get("from"), "Registrar of Example University <no-reply@localhost>")
      assert.strictEqual(message.headers.get("reply-to"), `registrar.${run}@example.edu`)
      assert.strictEqual(message.headers.get("to"), p.email)
      assert.strictEqual(message.headers.get("subject"), "Your credential from Example University: Certificate in Applied Testing")
      assert.include(message.text, `Dear ${p.name},`)
      assert.include(message.text, "Example University has awarded you \"Certificate in Applied Testing\".")
      assert.include(message.html, p.name)
      const link = claimLink(message.text)
      assert.isDefined(link)
      assert.strictEqual(link!.split("?")[0], `${server.baseUrl}/c/${credential.id}`)
      assert.include(message.html, `href="${link}"`)
      links.set(credential.id, link!)
    }
    assert.strictEqual(new Set(links.values()).size, 50)

    // Every link opens its credential's page with the recipient's name and their download.
    for (const p of withEmail) {
      const credential = byRecipient.get(p.id)!
      const link = links.get(credential.id)!
      const claimed = await page(link)
      assert.strictEqual(claimed.status, 200, link)
      assert.include(claimed.text, `<p class="recipient" id="recipient">${p.name}</p>`)
      assert.include(claimed.text, "This credential was awarded to you.")
      assert.strictEqual(claimed.headers.get("referrer-policy"), "no-referrer")
      assert.strictEqual(claimed.headers.get("cache-control"), "no-store")
      const token = new URL(link).searchParams.get("claim")!
      assert.include(claimed.text, `href="/c/${credential.id}.json?claim=${token}"`)
    }
    // The full signed credential, downloaded with the link; the same document the API serves.
    const [first, second] = withEmail.map((p) => byRecipient.get(p.id)!)
    const firstToken = new URL(links.get(first!.id)!).searchParams.get("claim")!
    const download = await fetch(`${server.baseUrl}/c/${first!.id}.json?claim=${firstToken}`)
    assert.strictEqual(download.status, 200)
    assert.strictEqual(download.headers.get("content-disposition"), `attachment; filename="${first!.id}.json"`)
    const api = await server.api("GET", `/v1/credentials/${first!.id}`, tenant.key)
    assert.deepStrictEqual(await download.json(), api.body.signed_credential)
    assert.strictEqual(api.body.email_delivery.status, "sent")
    assert.strictEqual(api.body.email_delivery.attempts, 1)
    assert.isNotNull(api.body.email_delivery.claimed_at)

    // A wrong token, another credential's token, an empty one: 404, page and download alike.
    const wrong = randomBytes(32).toString("base64url")
    for (const bad of [wrong, new URL(links.get(second!.id)!).searchParams.get("claim")!, "", `${firstToken}A`]) {
      const r = await page(`${server.baseUrl}/c/${first!.id}?claim=${encodeURIComponent(bad)}`)
      assert.strictEqual(r.status, 404, bad)
      assert.notInclude(r.text, first!.id)
      assert.notInclude(r.text, withEmail[0]!.name)
      assert.strictEqual((await fetch(`${server.baseUrl}/c/${first!.id}.json?claim=${encodeURIComponent(bad)}`)).status, 404)
    }
    // The public page stays as it is: no claim, the public download.
    const publicPage = await page(`${server.baseUrl}/c/${first!.id}`)
    assert.strictEqual(publicPage.status, 200)
    assert.notInclude(publicPage.text, "This credential was awarded to you.")
    assert.include(publicPage.text, `href="/c/${first!.id}.json" download`)
    assert.strictEqual(publicPage.headers.get("cache-control"), "no-cache")
  })

  it("an SMTP server that refuses the first attempts (451) is retried until it accepts; a 550 bounces", async () => {
    const patient = person("retry")
    const bouncing = person("bounce")
    everyone.push(patient, bouncing)
    // The replies quote the address, as real servers do: it must not reach logs or records.
    smtp.policy = (address, attempt) =>
      address === patient.email && attempt <= 2
        ? { code: 451, text: `4.7.1 <${address}>: greylisted, try again later` }
        : address === bouncing.email
        ? { code: 550, text: `5.1.1 <${address}>: no such mailbox` }
        : undefined
    const [retried, bounced] = await issue(server, tenant.key, [patient, bouncing])
    await eventually(async () => (smtp.to(patient.email!).length === 1 ? true : undefined), 30_000, "the retried message")
    assert.deepStrictEqual(smtp.attemptsFor(patient.email!).map((a) => a.code), [451, 451, 250])
    const delivered = await deliveryOf(server, tenant.key, retried!.id)
    assert.strictEqual(delivered.status, "sent")
    assert.strictEqual(delivered.attempts, 3)
    assert.isNull(delivered.last_error)

    const bounce = await eventually(async () => {
      const d = await deliveryOf(server, tenant.key, bounced!.id)
      return d?.status === "bounced" ? d : undefined
    }, 30_000, "the bounce")
    assert.strictEqual(bounce.attempts, 1)
    assert.include(bounce.last_error, "550 5.1.1 <[recipient]>: no such mailbox")
    assert.notInclude(bounce.last_error, bouncing.email)
    await new Promise((r) => setTimeout(r, 4 * RETRY_MS))
    assert.strictEqual(smtp.attemptsFor(bouncing.email!).length, 1)
    assert.strictEqual(smtp.to(bouncing.email!).length, 0)
    smtp.policy = () => undefined
  })

  it("erasure before sending cancels the message: it is never sent", async () => {
    const erased = person("erased")
    const kept = person("kept")
    everyone.push(erased, kept)
    // The server holds every message back (451) until the test lets them through.
    let held = true
    smtp.policy = (address) =>
      held && (address === erased.email || address === kept.email) ? { code: 451, text: "4.3.2 hold on" } : undefined
    const [a, b] = await issue(server, tenant.key, [erased, kept])
    await eventually(
      async () => (smtp.attemptsFor(erased.email!).length > 0 && smtp.attemptsFor(kept.email!).length > 0 ? true : undefined),
      30_000,
      "a first (refused) attempt of each"
    )
    assert.strictEqual((await deliveryOf(server, tenant.key, a!.id)).status, "queued")
    const erasure = await server.api("POST", `/v1/credentials/${a!.id}/erase`, tenant.key, {
      requester: "recipient",
      verified_at: "2026-07-01T00:00:00Z"
    })
    assert.strictEqual(erasure.status, 200)
    assert.strictEqual((await deliveryOf(server, tenant.key, a!.id)).status, "cancelled")
    // A send already under way when the erasure came is refused too; then the retries stop.
    await new Promise((r) => setTimeout(r, 4 * RETRY_MS))
    const attemptsAfterErasure = smtp.attemptsFor(erased.email!).length
    const keptBefore = smtp.attemptsFor(kept.email!).length
    await new Promise((r) => setTimeout(r, 4 * RETRY_MS))
    assert.strictEqual(smtp.attemptsFor(erased.email!).length, attemptsAfterErasure, "no attempt after the erasure")
    assert.isAbove(smtp.attemptsFor(kept.email!).length, keptBefore, "the other message is still being retried")

    held = false
    await eventually(async () => (smtp.to(kept.email!).length === 1 ? true : undefined), 30_000, "the kept message")
    await new Promise((r) => setTimeout(r, 4 * RETRY_MS))
    assert.strictEqual(smtp.to(erased.email!).length, 0)
    assert.strictEqual(smtp.attemptsFor(erased.email!).length, attemptsAfterErasure)
    const cancelled = await deliveryOf(server, tenant.key, a!.id)
    assert.strictEqual(cancelled.status, "cancelled")
    assert.isNull(cancelled.last_error)
    assert.strictEqual((await deliveryOf(server, tenant.key, b!.id)).status, "sent")
    // Erasure after sending: the link that went out stops working at once.
    const link = claimLink(parse(smtp.to(kept.email!)[0]!.raw).text)!
    assert.strictEqual((await page(link)).status, 200)
    const later = await server.api("POST", `/v1/credentials/${b!.id}/erase`, tenant.key, {
      requester: "dpo",
      verified_at: "2026-07-01T00:00:00Z"
    })
    assert.strictEqual(later.status, 200)
    assert.strictEqual((await page(link)).status, 404)
    assert.strictEqual((await fetch(link.replace("?claim=", ".json?claim="))).status, 404)
    assert.strictEqual((await deliveryOf(server, tenant.key, b!.id)).status, "sent")
    smtp.policy = () => undefined
  })

  it("no recipient address or name appears in the server's output or in a signed document", async () => {
    const output = server.output()
    assert.isAbove(everyone.length, 55)
    for (const p of everyone) {
      assert.notInclude(output, p.name)
      if (p.email !== undefined) assert.notInclude(output, p.email)
    }
    assert.notInclude(output, `Zq${run}`)
    assert.notInclude(output, `.${run}@example.org`)
    // No claim token either.
    assert.notInclude(output, "claim=")
    const batches = await server.api("GET", "/v1/batches?limit=100", tenant.key)
    for (const batch of batches.body.data) {
      for (const c of batch.credentials ?? []) {
        const document = JSON.stringify((await server.api("GET", `/v1/credentials/${c.id}`, tenant.key)).body.signed_credential)
        assert.notInclude(document, "@example.org")
        assert.notInclude(document, `Zq${run}`)
      }
    }
  })
})

describe.sequential("magic-link e-mail without SMTP_URL: the outbox; expiry; timing", () => {
  let server: Running
  let dataDir: string
  let tenant: { readonly id: string; readonly key: string }
  const TTL_MS = 6_000

  beforeAll(async () => {
    dataDir = newDataDir()
    // One message already in the outbox: the banner counts it.
    mkdirSync(path.join(dataDir, "outbox"), { recursive: true })
    writeFileSync(path.join(dataDir, "outbox", "earlier.eml"), "Subject: earlier\n\nhello\n")
    server = await start({ dataDir, env: { SIGIL_CLAIM_LINK_TTL: `${TTL_MS}ms`, SIGIL_DEMO_TENANT: "false" }, unsetEnv: ["SMTP_URL"] })
    tenant = await createTenant(server, { name: "Outbox College", plan: "developer" })
    await turnOn(server, tenant.id)
  })

  afterAll(async () => {
    if (server !== undefined) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("writes each message as an .eml file in the data directory's outbox, listed on the banner", async () => {
    assert.include(server.output(), `E-mail          no SMTP_URL: messages are written to ${path.join(dataDir, "outbox")} (1 message)`)
    const people = [person("o1"), person("o2", false), person("o3")]
    const credentials = await issue(server, tenant.key, people)
    const outbox = path.join(dataDir, "outbox")
    const files = await eventually(async () => {
      const found = readdirSync(outbox).filter((f) => f.endsWith(".eml") && f !== "earlier.eml")
      return found.length === 2 ? found : undefined
    }, 30_000, "two .eml files")
    const messages = files.map((f) => parse(readFileSync(path.join(outbox, f), "utf8")))
    assert.sameMembers(messages.map((m) => m.headers.get("to")), [people[0]!.email, people[2]!.email])
    for (const [i, p] of [people[0]!, people[2]!].entries()) {
      const message = messages.find((m) => m.headers.get("to") === p.email)!
      const credential = credentials[i === 0 ? 0 : 2]!
      assert.include(files.find((f) => f.includes(credential.id)) ?? "", credential.id)
      assert.notInclude(files.join(" "), "@")
      const link = claimLink(message.text)!
      // Opened at once: it works (the link lives TTL_MS here).
      const opened = await page(link)
      assert.strictEqual(opened.status, 200)
      assert.include(opened.text, p.name)
    }
  })

  it("an expired link is a 404, and expired and wrong tokens answer in the same time", async () => {
    const [p] = [person("expiring")]
    const [credential] = await issue(server, tenant.key, [p!])
    const outbox = path.join(dataDir, "outbox")
    const file = await eventually(async () => readdirSync(outbox).find((f) => f.includes(credential!.id)), 30_000, "the message")
    const link = claimLink(parse(readFileSync(path.join(outbox, file), "utf8")).text)!
    const sentAt = Date.now()
    assert.strictEqual((await page(link)).status, 200)
    await new Promise((r) => setTimeout(r, Math.max(0, TTL_MS + 500 - (Date.now() - sentAt))))
    const expired = await page(link)
    assert.strictEqual(expired.status, 404)
    const wrongUrl = () => `${server.baseUrl}/c/${credential!.id}?claim=${randomBytes(32).toString("base64url")}`
    const wrong = await page(wrongUrl())
    assert.strictEqual(wrong.status, 404)
    // One answer for both: the same page.
    assert.strictEqual(expired.text, wrong.text)

    // Interleaved pairs, after a warm-up; the medians must not differ by a meaningful amount.
    const time = async (url: string) => {
      const started = performance.now()
      const r = await fetch(url)
      await r.arrayBuffer()
      assert.strictEqual(r.status, 404)
      return performance.now() - started
    }
    for (let i = 0; i < 20; i++) await time(i % 2 === 0 ? link : wrongUrl())
    const times = { expired: [] as Array<number>, wrong: [] as Array<number> }
    for (let i = 0; i < 200; i++) {
      if (i % 2 === 0) {
        times.expired.push(await time(link))
        times.wrong.push(await time(wrongUrl()))
      } else {
        times.wrong.push(await time(wrongUrl()))
        times.expired.push(await time(link))
      }
    }
    const e = median(times.expired)
    const w = median(times.wrong)
    console.log(`claim 404 medians: expired ${e.toFixed(2)} ms, wrong ${w.toFixed(2)} ms`)
    assert.isBelow(Math.abs(e - w), Math.max(2, 0.25 * Math.min(e, w)), `expired ${e} ms vs wrong ${w} ms`)
  })
})
