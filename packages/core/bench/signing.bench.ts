/**
 * Signing throughput of a 500-credential batch on one core (build documents, canonicalize,
 * SHA-256, eddsa-rdfc-2022, Merkle tree, Merkle proofs), beside the jsonld.js-only baseline
 * (canonicalize + SHA-256 per credential with jsonld.js 9) measured in the same run, their
 * ratio, where the time goes, and the peak RSS of signing a 500 batch in a fresh process.
 *
 * The server's configuration: `Canonicalizer.layerFast` and the node:crypto primitives
 * (`@sigil/server/NodePrimitives`); the same run also shows the fast path with core's default
 * @noble primitives (what a browser or an integrator without the server gets).
 *
 * Targets (issue #8): ≥ 5,000 credentials/s and ≥ 10× the baseline; peak RSS < 150 MB.
 *
 * Run: `npm run bench -- signing` (or `npx tsx packages/core/bench/signing.bench.ts`).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import { Effect } from "effect"
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { availableParallelism, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as Document from "../src/Document.js"
import * as Eddsa from "../src/EddsaRdfc2022.js"
import * as FastCanonicalizer from "../src/FastCanonicalizer.js"
import * as Issuance from "../src/Issuance.js"
import * as Merkle from "../src/Merkle.js"
import * as Primitives from "../src/Primitives.js"
import * as Fixture from "../testkit/benchBatch.js"
import * as Timing from "./support/timing.js"

const { best, median } = Timing

const BATCH = Fixture.BATCH
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const secretKey = ed25519.utils.randomSecretKey()
const credentials = Fixture.credentials(BATCH)
const anchor = Fixture.anchor
const signedAt = Fixture.signedAt

// Signing a whole batch as the pipeline does: signBatch, then the Merkle proofs once anchored.
const signAll = (layer: typeof Canonicalizer.layerFast) =>
  Effect.gen(function*() {
    const batch = yield* Issuance.signBatch({
      credentials,
      settings: Fixture.settings,
      signedAt,
      sign: (m) => Effect.sync(() => Issuance.signEd25519(secretKey, m))
    })
    return Issuance.complete(batch, Fixture.settings, anchor)
  }).pipe(Effect.provide(layer))

const documents = credentials.map((c) => Document.build(c, Fixture.settings.issuer, { tenantId: Fixture.settings.tenantId, recipientNameMode: "hashed" }))
// The baseline: what jsonld.js alone costs for the same documents.
const baseline = Effect.forEach(documents, (d) => Effect.map(Canonicalizer.jsonldCanonicalize(d), Canonicalizer.hashHex))

const timeSync = (f: () => unknown) => {
  const start = performance.now()
  f()
  return performance.now() - start
}
const perSecond = (ms: number) => (BATCH / ms) * 1000
const measure = (effect: Effect.Effect<unknown, unknown>, rounds = ROUNDS) => Timing.measure(effect, rounds)
const rate = (ms: number) => perSecond(ms).toFixed(0).padStart(6)
const fmt = (t: Timing.Timing) =>
  `${rate(best(t.wall))} credentials/s (${best(t.wall).toFixed(1)} ms best wall); median: ${rate(median(t.wall))} wall, ${rate(median(t.cpu))} CPU time`

// Core's defaults first (pure JS), then the server's primitives.
Primitives.reset()
const nobleMs = await measure(signAll(Canonicalizer.layerFast), 3)
NodePrimitives.install()
const baseMs = await measure(baseline, Math.min(ROUNDS, 5))
const signMs = await measure(signAll(Canonicalizer.layerFast))
const jsonldSignMs = await measure(signAll(Canonicalizer.layerJsonld), 3)

// Where the time goes (node:crypto primitives), per credential.
const parts = (() => {
  const rounds = 5
  const acc = { build: 0, canonicalize: 0, sha256: 0, sign: 0, tree: 0, proofs: 0 }
  for (let r = 0; r < rounds + 1; r++) {
    let docs: Array<Document.JsonObject> = []
    let nquads: Array<string> = []
    let hashes: Array<Uint8Array> = []
    const t = {
      build: timeSync(() => (docs = credentials.map((c) => Document.build(c, Fixture.settings.issuer, { tenantId: Fixture.settings.tenantId, recipientNameMode: "hashed" })))),
      canonicalize: timeSync(() => (nquads = docs.map((d) => FastCanonicalizer.canonicalize(d)!))),
      sha256: timeSync(() => (hashes = nquads.map(Canonicalizer.sha256Bytes))),
      sign: timeSync(() => hashes.map((h) => Eddsa.proofObject({ verificationMethod: Fixture.settings.eddsaMethod, created: "2025-06-30T10:00:00Z" }, Issuance.signEd25519(secretKey, Eddsa.signingInput(h, h))))),
      tree: 0,
      proofs: 0
    }
    let tree: Merkle.Tree | undefined
    t.tree = timeSync(() => (tree = Merkle.build(hashes as [Uint8Array, ...Array<Uint8Array>])))
    t.proofs = timeSync(() => Issuance.merkleProofs({ targetHashes: hashes.map((h) => Merkle.rootHex({ levels: [], root: h })), anchor, verificationMethod: Fixture.settings.merkleMethod }))
    void tree
    if (r > 0) for (const k of Object.keys(acc) as Array<keyof typeof acc>) acc[k] += t[k] / rounds
  }
  return acc
})()

// Peak RSS of signing a 500 batch in a fresh process: under tsx (as `npm start` runs), and
// bundled by esbuild under plain node (the code's own footprint, without tsx in the process).
const childScript = new URL("./support/rssChild.ts", import.meta.url).pathname
const runChild = (args: ReadonlyArray<string>) => {
  const child = spawnSync(process.execPath, args, { encoding: "utf8" })
  if (child.status !== 0) return `failed: ${child.stderr.slice(0, 500)}`
  return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { loaded: number; peak: number }
}
const bundle = join(mkdtempSync(join(tmpdir(), "sigil-bench-")), "rssChild.mjs")
await esbuild.build({
  entryPoints: [childScript],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: bundle,
  external: ["rdf-canonize-native"],
  logLevel: "error",
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }
})
const rss = {
  tsx: runChild([...process.execArgv, childScript]),
  bundled: runChild([bundle]),
  bundledJsonld: runChild([bundle, "--jsonld"])
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
console.log(`batch of ${BATCH} credentials (build, canonicalize, sha256, eddsa proof, Merkle tree, Merkle proofs), one core, ${ROUNDS} rounds; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`)
console.log(`  signing, fast path + node:crypto (the server):  ${fmt(signMs)}`)
console.log(`  jsonld.js baseline (canonicalize + sha256):     ${fmt(baseMs)}`)
console.log(`  ratio signing / baseline: ${(best(baseMs.wall) / best(signMs.wall)).toFixed(1)}x (best wall), ${(median(baseMs.cpu) / median(signMs.cpu)).toFixed(1)}x (median CPU time)   (targets: ≥ 5,000 credentials/s, ≥ 10x)`)
console.log(`  signing, fast path + @noble (core's default):   ${fmt(nobleMs)}`)
console.log(`  signing, jsonld.js + node:crypto (before #8):   ${fmt(jsonldSignMs)}`)
console.log(`  per credential (µs): ${Object.entries(parts).map(([k, ms]) => `${k} ${((ms / BATCH) * 1000).toFixed(1)}`).join(", ")}`)
const rssLine = (label: string, r: string | { loaded: number; peak: number }) =>
  console.log(typeof r === "string"
    ? `  ${label}: ${r}`
    : `  ${label.padEnd(48)} peak ${mb(r.peak).padStart(6)} (${mb(r.loaded)} after loading)`)
console.log(`  peak RSS signing a ${BATCH} batch in a fresh process (target < 150 MB):`)
rssLine("  bundled (esbuild), plain node, fast path:", rss.bundled)
rssLine("  bundled (esbuild), plain node, jsonld.js:", rss.bundledJsonld)
rssLine("  under tsx (as npm start runs), fast path:", rss.tsx)
