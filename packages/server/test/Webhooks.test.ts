/**
 * Webhooks (decisions §5, issuer-api.md "Events") on the real server process, delivered to a
 * real local receiver (node:http on 127.0.0.1) and verified with the npm `standardwebhooks`
 * package:
 *
 * - every event type of the contract arrives, once per successful delivery, signed, with the
 *   data the contract lists — `batch.created`, `batch.signed`, `batch.anchored`,
 *   `credential.revoked`, `credential.erased`, `webhook.test` on a server anchoring on the
 *   devnet, and `batch.failed` on a second server whose Base Sepolia RPC rejects the anchor
 *   transaction (a real chain rejection: the test plays the node, the server is unchanged);
 * - an endpoint only gets the types it subscribed to;
 * - a receiver that fails 3 times is retried on the schedule (compressed by
 *   `WEBHOOK_RETRY_SCHEDULE=1s,2s,4s`, ±10 % jitter) with the same `webhook-id`, then succeeds,
 *   and is not called again;
 * - `410 Gone` disables the endpoint at once (`active: false`, no retry, nothing more);
 * - deleting an endpoint cancels its pending retry and stops deliveries;
 * - a third server, with `SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS=false`, refuses private, loopback
 *   and link-local URLs (and plain http) with 400, and accepts a public https address.
 */
import { rmSync } from "node:fs"
import { Webhook } from "standardwebhooks"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import {
  batchOf,
  createTenant,
  demoKey,
  eventually,
  newDataDir,
  type Running,
  start,
  stop
} from "../testkit/process.js"
import { type Delivery, type Envelope, failFirst, type Receiver, startReceiver, verifyDelivery } from "./helpers/receiver.js"
import { type RejectingChain, REJECTION, startRejectingChain } from "./helpers/rejectingChain.js"

const SCHEDULE_MS = [1_000, 2_000, 4_000]
const ALL_TYPES = ["batch.created", "batch.signed", "batch.anchored", "batch.failed", "credential.revoked", "credential.erased", "webhook.test"]
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

interface Endpoint {
  readonly id: string
  readonly path: string
  readonly secret: string
}

/** Every delivery on a path, verified with `standardwebhooks`, with its envelope. */
const verified = (receiver: Receiver, endpoint: Endpoint): ReadonlyArray<{ delivery: Delivery; event: Envelope }> =>
  receiver.on(endpoint.path).map((delivery) => ({ delivery, event: verifyDelivery(endpoint.secret, delivery) }))

/** Waits until the endpoint has received an event matching `predicate`; returns its deliveries. */
const arrival = (receiver: Receiver, endpoint: Endpoint, what: string, predicate: (event: Envelope) => boolean, timeoutMs = 60_000) =>
  eventually(async () => {
    const matching = verified(receiver, endpoint).filter((d) => predicate(d.event))
    return matching.length > 0 ? matching : undefined
  }, timeoutMs, what)

const register = async (server: Running, key: string, receiver: Receiver, path: string, events: ReadonlyArray<string>): Promise<Endpoint> => {
  const created = await server.api("POST", "/v1/webhooks", key, { url: receiver.url(path), events, description: path })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  assert.match(created.body.signing_secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
  assert.isTrue(created.body.active)
  assert.deepStrictEqual(created.body.events, events)
  return { id: created.body.id, path, secret: created.body.signing_secret }
}

describe.sequential("webhooks, delivered to a real receiver and verified with standardwebhooks", () => {
  let receiver: Receiver
  let chain: RejectingChain
  const dataDirs: Array<string> = []
  const servers: Array<Running> = []
  let devnet: Running
  let tenant: { readonly id: string; readonly key: string }

  beforeAll(async () => {
    receiver = await startReceiver()
    const dataDir = newDataDir()
    dataDirs.push(dataDir)
    devnet = await start({
      dataDir,
      env: {
        WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(","),
        // The tests poll the API while they wait; the rate limit is not what they are about.
        SIGIL_RATE_LIMIT_PER_MINUTE: "1000000", SIGIL_PUBLIC_RATE_LIMIT: "0"
      }
    })
    servers.push(devnet)
    tenant = await createTenant(devnet, { name: "Webhook University", plan: "institution" })
  }, 120_000)

  afterAll(async () => {
    for (const server of servers) await stop(server)
    await receiver?.close()
    await chain?.close()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  })

  it("every event type arrives once per successful delivery, signed, with the contract's data", async () => {
    const all = await register(devnet, tenant.key, receiver, "/all", ALL_TYPES)
    const anchoredOnly = await register(devnet, tenant.key, receiver, "/anchored-only", ["batch.anchored"])

    // webhook.test: delivered synchronously, reported, and verifiable like any other event.
    const tested = await devnet.api("POST", `/v1/webhooks/${all.id}/test`, tenant.key)
    assert.strictEqual(tested.status, 200, JSON.stringify(tested.body))
    assert.deepInclude(tested.body, { delivered: true, status_code: 204 })
    const [test] = await arrival(receiver, all, "webhook.test", (e) => e.type === "webhook.test")
    assert.match(test!.event.data.sent_at, ISO)
    assert.isString(test!.event.data.note)
    assert.strictEqual(test!.event.tenant_id, tenant.id)

    const created = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(3))
    assert.strictEqual(created.status, 202, JSON.stringify(created.body))
    const batchId = created.body.id as string
    await arrival(receiver, all, "batch.anchored", (e) => e.type === "batch.anchored")
    const batch = (await devnet.api("GET", `/v1/batches/${batchId}`, tenant.key)).body
    assert.strictEqual(batch.status, "anchored")

    const [revokedId, erasedId] = [batch.credentials[0].id, batch.credentials[1].id]
    const revoked = await devnet.api("POST", `/v1/credentials/${revokedId}/revoke`, tenant.key, { reason: "Issued in error", reason_code: "issuer_error" })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    const erased = await devnet.api("POST", `/v1/credentials/${erasedId}/erase`, tenant.key, { requester: "dpo", verified_at: "2026-01-02T03:04:05Z" })
    assert.strictEqual(erased.status, 200, JSON.stringify(erased.body))
    await arrival(receiver, all, "credential.revoked and credential.erased", () =>
      verified(receiver, all).some((d) => d.event.type === "credential.revoked") &&
      verified(receiver, all).some((d) => d.event.type === "credential.erased"))

    const events = verified(receiver, all)
    // Every delivery verifies (verifyDelivery threw otherwise), and carries its event's id.
    for (const { delivery, event } of events) {
      assert.strictEqual(delivery.headers["webhook-id"], event.id)
      assert.match(event.id, /^evt_/)
      assert.strictEqual(delivery.headers["content-type"], "application/json")
      assert.approximately(Number(delivery.headers["webhook-timestamp"]), delivery.at / 1000, 5)
      assert.match(event.created_at, ISO)
      assert.strictEqual(event.tenant_id, tenant.id)
    }
    // Every delivery was answered 2xx, so each event arrived exactly once.
    const ids = events.map((e) => e.event.id)
    assert.strictEqual(new Set(ids).size, ids.length, "no event delivered twice")
    const byType = new Map(events.map((e) => [e.event.type, e.event]))
    assert.sameMembers([...byType.keys()], ["webhook.test", "batch.created", "batch.signed", "batch.anchored", "credential.revoked", "credential.erased"])
    assert.strictEqual(events.length, 6)
    // A wrong secret does not verify.
    assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(events[0]!.delivery.body, {
      "webhook-id": String(events[0]!.delivery.headers["webhook-id"]),
      "webhook-timestamp": String(events[0]!.delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(events[0]!.delivery.headers["webhook-signature"])
    }))

    assert.deepStrictEqual(byType.get("batch.created")!.data, { batch_id: batchId, credentials_count: 3, environment: "test" })
    const signed = byType.get("batch.signed")!.data
    assert.deepStrictEqual(Object.keys(signed).sort(), ["batch_id", "merkle_root", "signed_at"])
    assert.strictEqual(signed.batch_id, batchId)
    assert.strictEqual(signed.merkle_root, batch.merkle_root)
    assert.match(signed.signed_at, ISO)
    const anchored = byType.get("batch.anchored")!.data
    assert.deepStrictEqual(Object.keys(anchored).sort(), ["anchor_transaction", "anchored_at", "batch_id", "credentials", "merkle_root"])
    assert.strictEqual(anchored.batch_id, batchId)
    assert.strictEqual(anchored.merkle_root, batch.merkle_root)
    assert.deepStrictEqual(anchored.anchor_transaction, batch.anchor_transaction)
    assert.strictEqual(Date.parse(anchored.anchored_at), Date.parse(batch.anchored_at))
    assert.deepStrictEqual(anchored.credentials.map((c: any) => c.id), batch.credentials.map((c: any) => c.id))
    for (const c of anchored.credentials) {
      assert.match(c.recipient_id, /^urn:uuid:/)
      assert.strictEqual(c.verify_url, `${devnet.baseUrl}/c/${c.id}`)
    }
    assert.deepInclude(byType.get("credential.revoked")!.data, {
      credential_id: revokedId,
      batch_id: batchId,
      revoked_at: revoked.body.revoked_at,
      reason: "Issued in error",
      reason_code: "issuer_error"
    })
    assert.deepStrictEqual(byType.get("credential.erased")!.data, {
      credential_id: erasedId,
      erased_at: erased.body.erased_at,
      verification_status_after_erasure: "verifiable"
    })
    const order = ["batch.created", "batch.signed", "batch.anchored"].map((t) => Date.parse(byType.get(t)!.created_at))
    assert.isTrue(order[0]! <= order[1]! && order[1]! <= order[2]!, "created ≤ signed ≤ anchored")

    // The endpoint subscribed to batch.anchored alone got exactly that event, the same event.
    const only = verified(receiver, anchoredOnly)
    assert.deepStrictEqual(only.map((d) => d.event.type), ["batch.anchored"])
    assert.strictEqual(only[0]!.event.id, byType.get("batch.anchored")!.id)
  }, 120_000)

  it("batch.failed: a chain that rejects the anchor transaction fails the batch, and says why", async () => {
    chain = await startRejectingChain()
    const dataDir = newDataDir()
    dataDirs.push(dataDir)
    const rejecting = await start({
      dataDir,
      env: {
        BASE_SEPOLIA_RPC_URL: chain.url,
        // No grace: the first refusal fails the batch (24 h by default, decisions §4).
        SIGIL_ANCHOR_REJECTION_GRACE: "0s",
        // Any valid key: the rejecting chain reports plenty of balance, so it never pays.
        ANCHOR_TREASURY_KEY_TEST: `0x${"42".repeat(32)}`
      }
    })
    servers.push(rejecting)
    const key = demoKey(rejecting)
    const hook = await register(rejecting, key, receiver, "/failing-chain", ALL_TYPES)
    const created = await rejecting.api("POST", "/v1/batches", key, batchOf(2))
    assert.strictEqual(created.status, 202, JSON.stringify(created.body))
    const [failed] = await arrival(receiver, hook, "batch.failed", (e) => e.type === "batch.failed")
    assert.strictEqual(failed!.event.data.batch_id, created.body.id)
    assert.strictEqual(failed!.event.data.error_code, "anchor_rejected")
    assert.include(failed!.event.data.error_message, REJECTION)
    assert.match(failed!.event.data.failed_at, ISO)
    assert.deepStrictEqual(Object.keys(failed!.event.data).sort(), ["batch_id", "error_code", "error_message", "failed_at"])
    assert.include(chain.calls(), "eth_sendRawTransaction", "the server did send the transaction")

    const batch = (await rejecting.api("GET", `/v1/batches/${created.body.id}`, key)).body
    assert.strictEqual(batch.status, "failed")
    assert.include(batch.error, REJECTION, "the batch's error says why")
    // signed → failed (decisions §4): the batch.signed event came first; nothing was anchored.
    const types = verified(receiver, hook).map((d) => d.event.type)
    assert.deepStrictEqual(types.filter((t) => t.startsWith("batch.")).sort(), ["batch.created", "batch.failed", "batch.signed"])
  }, 120_000)

  it("a receiver that fails 3 times is retried on the schedule with the same webhook-id, then succeeds", async () => {
    const path = "/flaky"
    receiver.respond(path, (n) => (n < 3 ? 500 : 204))
    const flaky = await register(devnet, tenant.key, receiver, path, ["batch.created"])
    const created = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(1))
    assert.strictEqual(created.status, 202)
    const attempts = await eventually(async () => {
      const all = verified(receiver, flaky)
      return all.length >= 4 ? all : undefined
    }, 30_000, "4 attempts")
    assert.deepStrictEqual(attempts.map((a) => a.delivery.status), [500, 500, 500, 204])
    assert.strictEqual(new Set(attempts.map((a) => a.event.id)).size, 1, "one event, one webhook-id")
    assert.strictEqual(attempts[0]!.event.data.batch_id, created.body.id)
    // Each attempt is signed anew (its own timestamp) and verifies.
    assert.strictEqual(new Set(attempts.map((a) => a.delivery.body)).size, 1, "the same body every time")
    const gaps = attempts.slice(1).map((a, i) => a.delivery.at - attempts[i]!.delivery.at)
    SCHEDULE_MS.forEach((delay, i) => {
      // ±10 % jitter; the upper bound also allows for the workers' polling (250 ms) and the POST.
      assert.isAtLeast(gaps[i]!, delay * 0.9 - 50, `gap ${i + 1}: ${gaps.join(", ")} ms`)
      assert.isAtMost(gaps[i]!, delay * 1.1 + 1_500, `gap ${i + 1}: ${gaps.join(", ")} ms`)
    })

    // Succeeded: never called again for that event. Barrier: a later event reaches the same
    // endpoint at the first try, after the retry that must not happen would have been due.
    const second = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(1))
    await arrival(receiver, flaky, "the next batch.created", (e) => e.data.batch_id === second.body.id)
    assert.strictEqual(verified(receiver, flaky).filter((d) => d.event.id === attempts[0]!.event.id).length, 4)
    const list = await devnet.api("GET", "/v1/webhooks", tenant.key)
    assert.isTrue(list.body.data.find((w: any) => w.id === flaky.id).active)
  }, 60_000)

  it("410 Gone disables the endpoint at once: no retry, nothing more", async () => {
    const path = "/gone"
    receiver.respond(path, () => 410)
    const gone = await register(devnet, tenant.key, receiver, path, ["batch.created", "batch.signed", "batch.anchored"])
    // Barrier endpoint: answers 500 twice to each event, so an event's third attempt comes
    // ≥ 2.7 s after its first (schedule 1 s, 2 s) — later than any retry of the 410 would be due.
    receiver.respond("/barrier", failFirst(2))
    const barrier = await register(devnet, tenant.key, receiver, "/barrier", ["batch.created"])

    const first = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(1))
    const [hit] = await arrival(receiver, gone, "the delivery answered 410", () => true)
    assert.strictEqual(hit!.delivery.status, 410)
    await eventually(async () => {
      const list = await devnet.api("GET", "/v1/webhooks", tenant.key)
      return list.body.data.find((w: any) => w.id === gone.id)?.active === false ? true : undefined
    }, 30_000, "the endpoint to be disabled")

    const second = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(1))
    await eventually(async () => (verified(receiver, barrier).filter((d) => d.event.data.batch_id === second.body.id).length === 3 ? true : undefined), 30_000, "3 barrier attempts")
    // One delivery in all (the first event after registration): no retry of it, and none of
    // the events that followed — the first batch's own, the second batch's — was sent.
    assert.strictEqual(verified(receiver, gone).length, 1, JSON.stringify(verified(receiver, gone).map((d) => d.event.type)))
    assert.isFalse(verified(receiver, gone).some((d) => d.event.data.batch_id === second.body.id))
    assert.isDefined(first.body.id)
  }, 60_000)

  it("deleting an endpoint cancels its pending retry and stops deliveries", async () => {
    const path = "/deleted"
    receiver.respond(path, () => 500)
    const doomed = await register(devnet, tenant.key, receiver, path, ["batch.created", "batch.anchored"])
    receiver.respond("/barrier-2", failFirst(2))
    const barrier = await register(devnet, tenant.key, receiver, "/barrier-2", ["batch.created"])

    const first = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(1))
    await arrival(receiver, doomed, "the first (failed) attempt", (e) => e.data.batch_id === first.body.id)
    const deleted = await devnet.api("DELETE", `/v1/webhooks/${doomed.id}`, tenant.key)
    assert.strictEqual(deleted.status, 204)
    const seen = verified(receiver, doomed).length
    const again = await devnet.api("DELETE", `/v1/webhooks/${doomed.id}`, tenant.key)
    assert.strictEqual(again.status, 404)
    assert.strictEqual(again.body.error.code, "webhook_not_found")

    const second = await devnet.api("POST", "/v1/batches", tenant.key, batchOf(1))
    await eventually(async () => (verified(receiver, barrier).filter((d) => d.event.data.batch_id === second.body.id).length === 3 ? true : undefined), 30_000, "3 barrier attempts")
    // The retry (due 1 s after the first attempt) was cancelled, and nothing of the second batch came.
    assert.strictEqual(verified(receiver, doomed).length, seen)
    assert.isTrue(verified(receiver, doomed).every((d) => d.event.data.batch_id === first.body.id))
  }, 60_000)

  it("with SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS=false, private, loopback and link-local URLs are refused", async () => {
    const dataDir = newDataDir()
    dataDirs.push(dataDir)
    const strict = await start({ dataDir, env: { SIGIL_ALLOW_PRIVATE_WEBHOOK_URLS: "false" } })
    servers.push(strict)
    const key = demoKey(strict)
    for (const url of [
      "https://127.0.0.1/hook",
      "https://localhost/hook",
      "https://[::1]/hook",
      "https://10.1.2.3/hook",
      "https://192.168.0.10/hook",
      "https://169.254.169.254/latest/meta-data",
      receiver.url("/strict"),
      "http://hooks.example.org/in"
    ]) {
      const refused = await strict.api("POST", "/v1/webhooks", key, { url, events: ["batch.created"] })
      assert.strictEqual(refused.status, 400, `${url}: ${JSON.stringify(refused.body)}`)
      assert.strictEqual(refused.body.error.code, "invalid_field_format", url)
      assert.include(refused.body.error.message, "url", url)
    }
    assert.deepStrictEqual((await strict.api("GET", "/v1/webhooks", key)).body.data, [])
    // A public https address is accepted (a literal address: nothing to resolve offline).
    const accepted = await strict.api("POST", "/v1/webhooks", key, { url: "https://93.184.216.34/hook", events: ["batch.created"] })
    assert.strictEqual(accepted.status, 201, JSON.stringify(accepted.body))
    // The same loopback receiver is accepted by the server started with the flag (the tests above).
    assert.isAbove(receiver.deliveries().length, 0)
  }, 120_000)
})
