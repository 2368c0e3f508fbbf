/**
 * Signs one 500-credential batch (signBatch + Merkle proofs, fast path — or jsonld.js with
 * `--jsonld` — and node:crypto) in a fresh process and prints the RSS after loading and the
 * process's peak RSS, as JSON.
 * `signing.bench.ts` runs it under tsx, and bundled by esbuild under plain node (what the
 * code itself costs, without tsx's compiler and source maps in the process).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import { Effect } from "effect"
import * as Canonicalizer from "../../src/Canonicalizer.js"
import * as Issuance from "../../src/Issuance.js"
import * as Fixture from "../../testkit/benchBatch.js"

NodePrimitives.install()
const secretKey = ed25519.utils.randomSecretKey()
const loaded = process.memoryUsage().rss
const documents = await Effect.runPromise(Effect.gen(function*() {
  const batch = yield* Issuance.signBatch({
    credentials: Fixture.credentials(500),
    settings: Fixture.settings,
    signedAt: new Date("2025-06-30T10:00:00Z"),
    sign: (m) => Effect.sync(() => Issuance.signEd25519(secretKey, m))
  })
  return Issuance.complete(batch, Fixture.settings, { chainId: 31337, txHash: `0x${"ab".repeat(32)}`, created: new Date() })
}).pipe(Effect.provide(process.argv.includes("--jsonld") ? Canonicalizer.layerJsonld : Canonicalizer.layerFast)))
console.log(JSON.stringify({ loaded, peak: process.resourceUsage().maxRSS * 1024, documents: documents.length }))
