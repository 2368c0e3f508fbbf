/**
 * Webhook verification: agrees with the `standardwebhooks` package both ways, refuses tampered
 * bodies, wrong secrets and stale timestamps; the receiver answers 401 to a bad signature and
 * hands each verified event over once.
 */
import { Webhook } from "standardwebhooks"
import { afterEach, describe, expect, it } from "vitest"
import * as WebhookReceiver from "../src/WebhookReceiver.js"
import * as Webhooks from "../src/Webhooks.js"

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
const event = {
  id: "evt_01HZZZZZZZZZZZZZZZZZZZZZZZ",
  type: "batch.anchored",
  created_at: "2026-06-30T00:00:00.000Z",
  tenant_id: "tnt_01HZZZZZZZZZZZZZZZZZZZZZZZ",
  data: { batch_id: "bat_01HZZZZZZZZZZZZZZZZZZZZZZZ" }
}
const body = JSON.stringify(event)

describe("Webhooks.verify", () => {
  it("accepts what standardwebhooks signs, and standardwebhooks accepts what Sigil signs", () => {
    const now = new Date()
    const theirs = new Webhook(secret).sign(event.id, now, body)
    const headers = { "webhook-id": event.id, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": theirs }
    expect(Webhooks.verify(secret, headers, body)).toBe(true)
    const ours = Webhooks.sign(secret, event.id, body, now)
    expect(new Webhook(secret).verify(body, ours)).toEqual(event)
  })

  it("takes fetch Headers, node's header records (any case), strings or bytes", () => {
    const headers = Webhooks.sign(secret, event.id, body)
    expect(Webhooks.verify(secret, new Headers(headers), new TextEncoder().encode(body))).toBe(true)
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]))
    expect(Webhooks.verify(secret, upper, body)).toBe(true)
    expect(Webhooks.parse(secret, headers, body)).toEqual(event)
  })

  it("refuses a changed body, another secret, a stale timestamp, a missing header, a body of another event", () => {
    const headers = Webhooks.sign(secret, event.id, body)
    expect(Webhooks.verify(secret, headers, body.replace("anchored", "failed"))).toBe(false)
    expect(Webhooks.verify("whsec_" + Buffer.from("another secret of 32 bytes......").toString("base64"), headers, body)).toBe(false)
    const old = Webhooks.sign(secret, event.id, body, new Date(Date.now() - 10 * 60_000))
    expect(Webhooks.verify(secret, old, body)).toBe(false)
    expect(Webhooks.verify(secret, old, body, { toleranceSeconds: 3600 })).toBe(true)
    expect(Webhooks.verify(secret, { ...headers, "webhook-signature": undefined }, body)).toBe(false)
    const other = Webhooks.sign(secret, "evt_other", body)
    expect(() => Webhooks.parse(secret, other, body)).toThrow(Webhooks.WebhookVerificationError)
  })
})

describe("WebhookReceiver", () => {
  let receiver: WebhookReceiver.Receiver | undefined
  afterEach(async () => {
    await receiver?.close()
    receiver = undefined
  })

  it("204 and one hand-over per event id; 401 for a bad signature", async () => {
    const rejected: Array<string> = []
    receiver = await WebhookReceiver.start({ secret, onRejected: (reason) => rejected.push(reason) })
    const next = receiver.next((e) => e.type === "batch.anchored", 5000)
    const post = (headers: Record<string, string>, text: string) =>
      fetch(receiver!.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: text })
    const signed = Webhooks.sign(secret, event.id, body)
    expect((await post(signed, body)).status).toBe(204)
    expect((await post(signed, body)).status).toBe(204) // a redelivery
    expect((await post(signed, body.replace("anchored", "failed"))).status).toBe(401)
    expect(await next).toEqual(event)
    expect(receiver.events).toHaveLength(1)
    expect(rejected).toHaveLength(1)
    expect((await fetch(receiver.url)).status).toBe(405)
  })
})
