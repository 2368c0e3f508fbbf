/**
 * Anchoring on the embedded devnet: throughput and the wall time from root to final receipt.
 *
 *   npx tsx packages/anchor-base/bench/anchor.bench.ts [--roots 100] [--tenants 5] [--concurrency 20]
 *
 * Everything runs in this process: the EDR devnet (with its durable chain log in a temp dir),
 * a memory KeyVault and AnchorJournal, and `BaseAnchor` doing the full flow per root (nonce,
 * fees, vault signature, journal record, broadcast, receipt, confirmation count).
 */
import * as AnchorJournal from "@sigil/service/Batches/AnchorJournal"
import * as Ids from "@sigil/core/Ids"
import * as CoreHex from "@sigil/core/Hex"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import { Effect, Layer, Logger, LogLevel } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import * as BaseAnchor from "../src/BaseAnchor.js"
import * as Devnet from "../src/Devnet.js"

const { values } = parseArgs({
  options: {
    roots: { type: "string", default: "100" },
    tenants: { type: "string", default: "5" },
    concurrency: { type: "string", default: "20" }
  }
})
const ROOTS = Number(values.roots)
const TENANTS = Number(values.tenants)
const CONCURRENCY = Number(values.concurrency)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
const ms = (n: number) => `${n.toFixed(1)} ms`

const program = (dataDir: string) => Effect.gen(function*() {
  const startedAt = performance.now()
  const devnet = yield* Devnet.make({ dataDir })
  const devnetStart = performance.now() - startedAt

  const vault = KeyVault.makeMemory()
  const tenants = Array.from({ length: TENANTS }, () => {
    const tenantId = Ids.unsafeMake("tnt")
    vault.seed(tenantId, "secp256k1", KeyVault.generateKeyPair("secp256k1").secretKey, new Date(Date.now() - 3_600_000))
    return tenantId
  })
  const chain = yield* Effect.provideService(Devnet.chainOptions(), Devnet.Devnet, devnet)
  const anchorer = yield* BaseAnchor.make({ chains: [chain] }).pipe(
    Effect.provide(Layer.mergeAll(Layer.succeed(KeyVault.KeyVault, vault.service), AnchorJournal.layerMemory))
  )

  /** One root: submit, then confirm until final (what the server's worker does). */
  const anchorOne = (tenantId: (typeof tenants)[number]) =>
    Effect.gen(function*() {
      const request = {
        batchId: Ids.unsafeMake("bat"),
        tenantId,
        chain: "devnet" as const,
        merkleRoot: CoreHex.hash32(CoreHex.fromBytes(crypto.getRandomValues(new Uint8Array(32))))
      }
      const t0 = performance.now()
      yield* anchorer.submit(request)
      while (true) {
        const status = yield* anchorer.confirm(request)
        if (status._tag === "Final") return performance.now() - t0
        yield* Effect.sleep("2 millis")
      }
    })

  // First anchor per tenant includes the treasury top-up (a second transaction and its receipt).
  const firstAnchors = yield* Effect.forEach(tenants, anchorOne)

  const sequential = yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => tenants[i % TENANTS]!), anchorOne)

  const t0 = performance.now()
  const latencies = yield* Effect.forEach(
    Array.from({ length: ROOTS }, (_, i) => tenants[i % TENANTS]!),
    anchorOne,
    { concurrency: CONCURRENCY }
  )
  const wall = performance.now() - t0

  const chainLog = path.join(dataDir, "devnet", "chain.jsonl")
  const blocks = fs.readFileSync(chainLog, "utf8").trim().split("\n").length - 1
  return { devnetStart, firstAnchors, sequential, latencies, wall, blocks }
})

const restart = (dataDir: string) =>
  Effect.scoped(Effect.gen(function*() {
    const t0 = performance.now()
    yield* Devnet.make({ dataDir })
    return performance.now() - t0
  }))

const main = Effect.gen(function*() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sigil-anchor-bench-"))
  const result = yield* Effect.scoped(program(dataDir))
  // A server restart replays the whole chain log written above.
  const replay = yield* restart(dataDir)
  fs.rmSync(dataDir, { recursive: true, force: true })
  const replayBlocks = result.blocks

  const sorted = [...result.latencies].sort((a, b) => a - b)
  const seq = [...result.sequential].sort((a, b) => a - b)
  const first = [...result.firstAnchors].sort((a, b) => a - b)
  console.log(`anchor-base bench (devnet, Node ${process.version}, ${os.cpus().length} cores)`)
  console.log(`  devnet start (fresh):                ${ms(result.devnetStart)}`)
  console.log(`  devnet restart, ${replayBlocks} blocks replayed:   ${ms(replay)}`)
  console.log(`  first anchor per tenant (+ top-up):  median ${ms(percentile(first, 50))}`)
  console.log(`  root → final, one at a time (n=20):  median ${ms(percentile(seq, 50))}, p95 ${ms(percentile(seq, 95))}`)
  console.log(
    `  ${ROOTS} roots / ${TENANTS} tenants, concurrency ${CONCURRENCY}: ${(ROOTS / (result.wall / 1000)).toFixed(1)} anchors/s ` +
      `(${ms(result.wall)} wall)`
  )
  console.log(`  root → final under that load:        median ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}`)
})

Effect.runPromise(main.pipe(Logger.withMinimumLogLevel(LogLevel.Warning))).catch((e) => {
  console.error(e)
  process.exitCode = 1
})
