/**
 * Crash safety (issue #6): the real server process is SIGKILLed at random moments while 20
 * batches are in flight — signing, anchoring, confirming, delivering webhooks — and restarted
 * each time on the same data directory (PGlite and the devnet's chain log) and the same ports.
 * Afterwards:
 *
 * - every batch is `anchored`, none failed;
 * - the devnet holds exactly one anchor transaction per batch (a transaction to the burn
 *   address carrying the batch's Merkle root — found by scanning every block over
 *   `/devnet/rpc`), it is the one the batch names, and there is no other anchor;
 * - every event (`batch.created`, `batch.signed`, `batch.anchored` of every batch) reached the
 *   receiver at least once, each with one stable `webhook-id` across redeliveries and the same
 *   signed body, verified with `standardwebhooks`; no event was emitted twice;
 * - one credential of every batch verifies with Sigil's verifier against the restarted server.
 *
 * The kill moments are the test's input: a random delay after each (re)start, from a seeded
 * generator (`SIGIL_CRASH_SEED` replays a run; the seed is in every failure message). The
 * batches (20 to 200 credentials, 4 tenants) go in in waves, one after each (re)start, so every
 * kill finds work in flight. Waiting is on conditions only; jobs held by a killed worker come
 * back when their 30 s lease runs out, which bounds the final wait.
 *
 * Locally: 4 kills (about 1 min on 2 cores). With `CI=true`: 8 kills.
 */
import { rmSync } from "node:fs"
import { assert, describe, it } from "vitest"
import { anchorTransactions } from "./helpers/devnet.js"
import { liveVerifier } from "./helpers/liveVerifier.js"
import { createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"
import { startReceiver, verifyDelivery } from "./helpers/receiver.js"

const CI = process.env.CI === "true"
const KILLS = CI ? 8 : 4
const BATCHES = 20
const TENANTS = 4
const BATCH_TYPES = ["batch.created", "batch.signed", "batch.anchored"] as const

/** mulberry32: a small seeded PRNG, so a failing run can be replayed. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

const requestOf = (n: number, tag: string) => ({
  credentials: Array.from({ length: n }, (_, i) => ({
    recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Survivor ${tag}-${i}` },
    achievement: { name: "Certificate of Resilience", description: "Issued through crashes." },
    issuanceDate: "2025-06-30T00:00:00Z"
  }))
})

describe("crash safety", () => {
  it(`SIGKILLed ${KILLS} times at random moments with 20 batches in flight: every batch anchored once, every event delivered`, async () => {
    const seed = Number(process.env.SIGIL_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31))
    const random = prng(seed)
    const context = `(SIGIL_CRASH_SEED=${seed})`
    const dataDir = newDataDir()
    const receiver = await startReceiver()
    const env = { SIGIL_RATE_LIMIT_PER_MINUTE: "1000000", SIGIL_PUBLIC_RATE_LIMIT: "0" }
    let server: Running = await start({ dataDir, env })
    const log: Array<string> = []
    try {
      const tenants = await Promise.all(Array.from({ length: TENANTS }, async (_, t) => {
        const tenant = await createTenant(server, { name: `Crash University ${t}`, plan: "industry" })
        // A slow receiver (answers after 300 ms): kills land in the middle of deliveries too,
        // so some events are delivered again after a restart.
        receiver.respond(`/t${t}`, () => new Promise((resolve) => setTimeout(() => resolve(204), 300)))
        const hook = await server.api("POST", "/v1/webhooks", tenant.key, { url: receiver.url(`/t${t}`), events: [...BATCH_TYPES] })
        assert.strictEqual(hook.status, 201, JSON.stringify(hook.body))
        return { ...tenant, path: `/t${t}`, secret: hook.body.signing_secret as string }
      }))
      const batches: Array<{ id: string; tenant: (typeof tenants)[number]; size: number }> = []
      const post = async (count: number) => {
        for (let i = 0; i < count; i++) {
          const tenant = tenants[batches.length % TENANTS]!
          const size = 20 + Math.floor(random() * 180)
          const created = await server.api("POST", "/v1/batches", tenant.key, requestOf(size, String(batches.length)))
          assert.strictEqual(created.status, 202, `${context} ${JSON.stringify(created.body)}`)
          batches.push({ id: created.body.id, tenant, size })
        }
      }
      const statuses = async () => {
        const counts = new Map<string, number>()
        for (const b of batches) {
          const answer = await server.api("GET", `/v1/batches/${b.id}`, b.tenant.key)
          counts.set(answer.body.status, (counts.get(answer.body.status) ?? 0) + 1)
        }
        return [...counts].map(([s, n]) => `${s} ${n}`).join(", ")
      }

      for (let kill = 1; kill <= KILLS; kill++) {
        // A wave of batches goes in after each (re)start, so every kill finds work in flight.
        await post(Math.ceil((BATCHES - batches.length) / (KILLS - kill + 1)))
        // The kill moment: a random delay after the wave. This is the test's input, not a wait
        // for anything.
        const delay = Math.round(50 + random() * 2_950)
        await new Promise((resolve) => setTimeout(resolve, delay))
        const before = await statuses()
        const exit = await stop(server, "SIGKILL")
        assert.strictEqual(exit.signal, "SIGKILL", context)
        log.push(`kill ${kill} after ${delay} ms (${before}; ${receiver.deliveries().length} deliveries so far)`)
        server = await start({ dataDir, env, port: server.port, adminPort: server.adminPort, bannerTimeoutMs: 120_000 })
      }
      assert.strictEqual(batches.length, BATCHES)

      // Every batch ends anchored (jobs a killed worker held return when their lease expires).
      const final = await eventually(async () => {
        const answers = await Promise.all(batches.map((b) => server.api("GET", `/v1/batches/${b.id}`, b.tenant.key)))
        const failed = answers.find((a) => a.body.status === "failed")
        if (failed !== undefined) throw new Error(`${context} batch ${failed.body.id} failed: ${failed.body.error}`)
        return answers.every((a) => a.body.status === "anchored") ? answers.map((a) => a.body) : undefined
      }, 180_000, `every batch anchored ${context}\n${log.join("\n")}`)

      // Exactly one anchor transaction per batch on the devnet, and no other anchor.
      const anchors = await anchorTransactions(server.baseUrl)
      for (const batch of final) {
        const carrying = anchors.filter((tx) => tx.input.toLowerCase() === batch.merkle_root.toLowerCase())
        assert.strictEqual(carrying.length, 1, `${context} batch ${batch.id}: ${carrying.length} transactions carry its root\n${log.join("\n")}`)
        assert.strictEqual(carrying[0]!.hash, batch.anchor_transaction.hash, `${context} batch ${batch.id} names its transaction`)
        assert.strictEqual(carrying[0]!.blockNumber === null ? null : Number(carrying[0]!.blockNumber), batch.anchor_transaction.block_number)
      }
      assert.strictEqual(anchors.length, BATCHES, `${context} no stray anchor transactions`)
      assert.strictEqual(new Set(final.map((b) => b.merkle_root)).size, BATCHES)

      // Every event at least once, one stable webhook-id (and body) per event, none emitted twice.
      const expected = batches.length * BATCH_TYPES.length
      const events = await eventually(async () => {
        const seen = new Map<string, { id: string; bodies: Set<string>; deliveries: number }>()
        for (const tenant of tenants) {
          for (const delivery of receiver.on(tenant.path)) {
            const event = verifyDelivery(tenant.secret, delivery)
            const key = `${event.type}/${event.data.batch_id}`
            const entry = seen.get(key) ?? { id: event.id, bodies: new Set<string>(), deliveries: 0 }
            assert.strictEqual(entry.id, event.id, `${context} ${key} was delivered under two webhook-ids: ${entry.id}, ${event.id}`)
            entry.bodies.add(delivery.body)
            entry.deliveries++
            seen.set(key, entry)
          }
        }
        return seen.size === expected ? seen : undefined
      }, 120_000, `every event delivered ${context}`)
      for (const b of batches) {
        for (const type of BATCH_TYPES) {
          const entry = events.get(`${type}/${b.id}`)
          assert.isDefined(entry, `${context} ${type} of ${b.id} never arrived`)
          assert.strictEqual(entry!.bodies.size, 1, `${context} ${type} of ${b.id}: the same event must carry the same body`)
        }
        const anchored = JSON.parse([...events.get(`batch.anchored/${b.id}`)!.bodies][0]!)
        assert.strictEqual(anchored.data.credentials.length, b.size)
      }

      // The documents survived the crashes intact: one credential per batch verifies.
      const verifier = liveVerifier(server.baseUrl)
      try {
        for (const batch of final) {
          const credential = await server.api("GET", `/v1/credentials/${batch.credentials[0].id}`, batches.find((b) => b.id === batch.id)!.tenant.key)
          const result = await verifier.verify(credential.body.signed_credential)
          assert.strictEqual(result.outcome, "verified", `${context} ${JSON.stringify(result.steps)}`)
        }
      } finally {
        await verifier.dispose()
      }

      const redelivered = [...events.values()].filter((e) => e.deliveries > 1).length
      console.log(
        `crash safety ${context}: ${KILLS} kills, ${BATCHES} batches (${batches.reduce((n, b) => n + b.size, 0)} credentials), ` +
          `${anchors.length} anchor transactions, ${receiver.deliveries().length} deliveries of ${expected} events ` +
          `(${redelivered} delivered more than once)\n  ${log.join("\n  ")}`
      )
    } finally {
      await stop(server, "SIGKILL")
      await receiver.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, CI ? 600_000 : 300_000)
})
