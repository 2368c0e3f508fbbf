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
import * as Issuance from "@sigil/core/Issuance"
import { Effect, Layer, ManagedRuntime } from "effect"
import { availableParallelism, loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import * as SigningPool from "../src/SigningPool.js"
import * as Fixture from "@sigil/core/testkit/benchBatch"

const BATCH = Fixture.BATCH
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15)

NodePrimitives.install()
const secretKey = ed25519.utils.randomSecretKey()
const credentials = Fixture.credentials(BATCH)
const anchor = Fixture.anchor

// `completeWith` encodes the proofValues through the pool's ProofValueEncoder when there is
// one, in this thread otherwise (as `complete` does).
const signAndProve = Effect.gen(function*() {
  const batch = yield* Issuance.signBatch({
    credentials,
    settings: Fixture.settings,
    signedAt: new Date("2025-06-30T10:00:00Z"),
    sign: (m) => Effect.sync(() => Issuance.signEd25519(secretKey, m))
  })
  return yield* Issuance.completeWith(batch, Fixture.settings, anchor)
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
