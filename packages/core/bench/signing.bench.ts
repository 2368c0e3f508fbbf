/**
 * Signing throughput of a 500-credential batch (build documents, canonicalize, SHA-256,
 * eddsa-rdfc-2022, Merkle tree, Merkle proofs), beside the jsonld.js-only baseline
 * (canonicalize + SHA-256 per credential) measured in the same run.
 *
 * Run: `npm run bench -- signing` (or `npx tsx packages/core/bench/signing.bench.ts`).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { Effect } from "effect"
import { performance } from "node:perf_hooks"
import * as Canonicalizer from "../src/Canonicalizer.js"
import * as Document from "../src/Document.js"
import * as Issuance from "../src/Issuance.js"

const BATCH = 500
const ROUNDS = 3
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

const sign = Effect.gen(function*() {
  const batch = yield* Issuance.signBatch({
    credentials,
    settings,
    signedAt: new Date("2025-06-30T10:00:00Z"),
    sign: (m) => Effect.sync(() => Issuance.signEd25519(secretKey, m))
  })
  return Issuance.complete(batch, settings, { chainId: 31337, txHash: `0x${"ab".repeat(32)}`, created: new Date() })
}).pipe(Effect.provide(Canonicalizer.layerJsonld))

// The baseline: what jsonld.js alone costs for the same documents.
const documents = credentials.map((c) => Document.build(c, settings.issuer, { tenantId: settings.tenantId, recipientNameMode: "hashed" }))
const baseline = Effect.forEach(documents, (d) =>
  Effect.map(Canonicalizer.jsonldCanonicalize(d), Canonicalizer.hashHex))

const time = async (effect: Effect.Effect<unknown, unknown>) => {
  const start = performance.now()
  await Effect.runPromise(effect)
  return performance.now() - start
}

await time(sign) // warm-up: contexts, JIT
await time(baseline)
const signMs: Array<number> = []
const baseMs: Array<number> = []
for (let r = 0; r < ROUNDS; r++) {
  signMs.push(await time(sign))
  baseMs.push(await time(baseline))
}
const best = (xs: Array<number>) => Math.min(...xs)
const perSecond = (ms: number) => (BATCH / ms) * 1000
const rssMb = process.memoryUsage().rss / 1024 / 1024
console.log(`batch of ${BATCH} credentials, best of ${ROUNDS} rounds, one core`)
console.log(`  sign (build + canonicalize + sha256 + eddsa + tree + proofs): ${best(signMs).toFixed(0)} ms = ${perSecond(best(signMs)).toFixed(0)} credentials/s`)
console.log(`  jsonld.js baseline (canonicalize + sha256):                    ${best(baseMs).toFixed(0)} ms = ${perSecond(best(baseMs)).toFixed(0)} credentials/s`)
console.log(`  ratio sign / baseline throughput: ${(best(baseMs) / best(signMs)).toFixed(2)}x`)
console.log(`  RSS after the run: ${rssMb.toFixed(0)} MB`)
