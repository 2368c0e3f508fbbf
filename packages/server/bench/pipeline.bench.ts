/**
 * The pipeline's wall time on the embedded devnet: from the POST of a 500-credential batch to
 * its `batch.anchored` webhook arriving at a local receiver — validation and storage, signing
 * (500 × RDFC-1.0 + eddsa-rdfc-2022), the Merkle tree, the anchor transaction and its
 * confirmation, the 500 Merkle proofs, and the delivery. Median of 5 runs, one batch at a time.
 *
 * The server runs as a child process exactly as `npm start` runs it (PGlite, devnet, default
 * worker concurrency); this process only posts and receives. Each batch goes to a fresh tenant
 * (a new tenant's first anchor also pays its gas top-up), created on the industry plan so the
 * monthly quota never interferes.
 *
 * Run: `npm run bench -- pipeline` (BENCH_RUNS, BENCH_CREDENTIALS to change the defaults).
 */
import { rmSync } from "node:fs"
import { batchOf, createTenant, eventually, newDataDir, start, stop } from "../testkit/process.js"
import { startReceiver, verifyDelivery } from "../test/helpers/receiver.js"

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const CREDENTIALS = Number(process.env.BENCH_CREDENTIALS ?? 500)

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const receiver = await startReceiver()
const dataDir = newDataDir()
const sigil = await start({ dataDir })
try {
  const runs: Array<{ total: number; accepted: number; signed: number }> = []
  for (let run = 1; run <= RUNS; run++) {
    const tenant = await createTenant(sigil, { name: `Bench University ${run}` })
    const path = `/bench/${run}`
    const hook = await sigil.api("POST", "/v1/webhooks", tenant.key, {
      url: receiver.url(path),
      events: ["batch.signed", "batch.anchored"]
    })
    if (hook.status !== 201) throw new Error(`POST /v1/webhooks answered ${hook.status}: ${JSON.stringify(hook.body)}`)
    const body = batchOf(CREDENTIALS)
    // Arrivals are stamped with Date.now() in the receiver's handler: the same clock.
    const t0 = Date.now()
    const created = await sigil.api("POST", "/v1/batches", tenant.key, body)
    const accepted = Date.now() - t0
    if (created.status !== 202) throw new Error(`POST /v1/batches answered ${created.status}: ${JSON.stringify(created.body)}`)
    const arrival = (type: string) =>
      eventually(async () => {
        for (const d of receiver.on(path)) {
          const event = verifyDelivery(hook.body.signing_secret, d)
          if (event.type === type && event.data.batch_id === created.body.id) return { at: d.at, event }
        }
        return undefined
      }, 300_000, `${type} of run ${run}`)
    const anchored = await arrival("batch.anchored")
    const signed = await arrival("batch.signed")
    const total = anchored.at - t0
    if (anchored.event.data.credentials.length !== CREDENTIALS) throw new Error("batch.anchored lacks credentials")
    runs.push({ total, accepted, signed: signed.at - t0 })
    console.log(
      `  run ${run}: POST → batch.anchored delivered ${(total / 1000).toFixed(2)} s ` +
        `(202 after ${(accepted / 1000).toFixed(2)} s, batch.signed delivered at ${((signed.at - t0) / 1000).toFixed(2)} s)`
    )
  }
  console.log(
    `Pipeline on the embedded devnet (PGlite, ${CREDENTIALS} credentials per batch, ${RUNS} runs, one batch at a time):\n` +
      `  median POST → batch.anchored webhook: ${(median(runs.map((r) => r.total)) / 1000).toFixed(2)} s ` +
      `(median POST → batch.signed webhook: ${(median(runs.map((r) => r.signed)) / 1000).toFixed(2)} s; ` +
      `median 202: ${(median(runs.map((r) => r.accepted)) / 1000).toFixed(2)} s)`
  )
} finally {
  await stop(sigil)
  await receiver.close()
  rmSync(dataDir, { recursive: true, force: true })
}
