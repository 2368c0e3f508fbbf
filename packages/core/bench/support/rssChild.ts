/**
 * Signs one 500-credential batch (signBatch + Merkle proofs, fast path — or jsonld.js with
 * `--jsonld` — and node:crypto) in a fresh process and prints the RSS after loading and the
 * process's peak RSS, as JSON.
 * `signing.bench.ts` runs it under tsx, and bundled by esbuild under plain node (what the
 * code itself costs, without tsx's compiler and source maps in the process).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import * as NodePrimitives from "@sigil/server/NodePrimitives"
import { Effect } from "effect"
import * as Canonicalizer from "../../src/Canonicalizer.js"
import type * as Document from "../../src/Document.js"
import * as Issuance from "../../src/Issuance.js"

NodePrimitives.install()
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
const secretKey = ed25519.utils.randomSecretKey()
const loaded = process.memoryUsage().rss
const documents = await Effect.runPromise(Effect.gen(function*() {
  const batch = yield* Issuance.signBatch({
    credentials: Array.from({ length: 500 }, (_, i) => content(i)),
    settings,
    signedAt: new Date("2025-06-30T10:00:00Z"),
    sign: (m) => Effect.sync(() => Issuance.signEd25519(secretKey, m))
  })
  return Issuance.complete(batch, settings, { chainId: 31337, txHash: `0x${"ab".repeat(32)}`, created: new Date() })
}).pipe(Effect.provide(process.argv.includes("--jsonld") ? Canonicalizer.layerJsonld : Canonicalizer.layerFast)))
console.log(JSON.stringify({ loaded, peak: process.resourceUsage().maxRSS * 1024, documents: documents.length }))
