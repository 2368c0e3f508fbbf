/**
 * Signing a 500-credential batch on both cores: the documents built and signed in the calling
 * thread (as the key vault does) and hashed by the `SigningPool`'s worker, then the Merkle
 * tree, and the Merkle proofs' proofValues encoded by the worker and the calling thread
 * together — wall time per batch, beside the same batch on one core (no pool) measured in
 * the same run.
 *
 * Target (issue #8): ≤ 100 ms for the batch using both cores.
 *
 * Run: `npm run bench -- signingPool` (or `npx tsx packages/server/bench/signingPool.bench.ts`).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import type * as Document from "@sigil/core/Document"
import * as Issuance from "@sigil/core/Issuance"
import { Effect, Layer, ManagedRuntime } from "effect"
import { availableParallelism, loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import * as NodePrimitives from "../src/NodePrimitives.js"
import * as SigningPool from "../src/SigningPool.js"

const BATCH = 500
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15)

NodePrimitives.install()
const secretKey = ed25519.utils.randomSecretKey()
const settings: Issuance.IssuerSettings = {
  tenantId: "tnt_01JBENCH000000000000000000",
  issuer: { did: "did:web:sigil.example:tenants:01jbench000000000000000000", name: "Benchmark University", url: "https://bench.example" },
  recipientNameMode: "hashed",
  eddsaMethod: "did:web:sigil.example:tenants:01jbench000000000000000000#key-ed25519-1",
  merkleMethod: "did:web:sigil.example:tenants:01jbench000000000000000000#key-1"
}
const content = (i: number): Document.Content => ({
  recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate number ${i}` },
  achievement: {
    name: "Bachelor of Science in Computer Science",
    description: "Awarded for completing the three-year programme in computer science with honours.",
    criteria: { narrative: "Completed 180 ECTS credits including a final-year project." },
    alignment: [
      { targetFramework: "ESCO", targetCode: "S5.6.1", targetName: "manage data", targetUrl: "http://data.europa.eu/esco/skill/abc" },
      { targetFramework: "ISCED-F", targetCode: "0613", targetName: "Software and applications development" }
    ]
  },
  issuanceDate: "2025-06-30T00:00:00Z",
  evidence: [{ id: "https://bench.example/evidence/1", narrative: "Final project report." }]
})
const credentials = Array.from({ length: BATCH }, (_, i) => content(i))
const anchor = { chainId: 31337, txHash: `0x${"ab".repeat(32)}`, created: new Date("2025-06-30T10:00:30Z") }

// `completeWith` encodes the proofValues through the pool's ProofValueEncoder when there is
// one, in this thread otherwise (as `complete` does).
const signAndProve = Effect.gen(function*() {
  const batch = yield* Issuance.signBatch({
    credentials,
    settings,
    signedAt: new Date("2025-06-30T10:00:00Z"),
    sign: (m) => Effect.sync(() => Issuance.signEd25519(secretKey, m))
  })
  return yield* Issuance.completeWith(batch, settings, anchor)
})

const measure = async (runtime: ManagedRuntime.ManagedRuntime<Canonicalizer.Canonicalizer, never>) => {
  for (let i = 0; i < 5; i++) await runtime.runPromise(signAndProve) // warm-up: workers load, JIT
  const ms: Array<number> = []
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now()
    await runtime.runPromise(signAndProve)
    ms.push(performance.now() - start)
  }
  return ms
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const best = (xs: ReadonlyArray<number>) => Math.min(...xs)

const oneCore = ManagedRuntime.make(Canonicalizer.layerFast)
const single = await measure(oneCore)
await oneCore.dispose()

// The default: one worker per core but one (the calling thread builds and signs).
const pooled = ManagedRuntime.make(SigningPool.layer().pipe(Layer.provideMerge(Canonicalizer.layerFast)))
const both = await measure(pooled)
await pooled.dispose()
const threads = Math.max(1, availableParallelism() - 1)

const line = (label: string, ms: ReadonlyArray<number>) =>
  console.log(`  ${label.padEnd(46)} ${best(ms).toFixed(1).padStart(6)} ms best, ${median(ms).toFixed(1).padStart(6)} ms median  (${((BATCH / best(ms)) * 1000).toFixed(0)} credentials/s)`)
console.log(`batch of ${BATCH} credentials, signBatch + Merkle proofs, wall time, ${ROUNDS} rounds, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}`)
line(`both cores (SigningPool: calling thread + ${threads} worker${threads === 1 ? "" : "s"}):`, both)
line("one core (no pool):", single)
console.log(`  speed-up: ${(median(single) / median(both)).toFixed(2)}x   (target ≤ 100 ms with both cores)`)
