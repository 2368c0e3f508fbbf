/**
 * Offline verification throughput on one core: every credential of an anchored 500 batch
 * through `Verifier.verifyCredential` — format, document hash, Merkle path, anchor, issuer
 * key, eddsa-rdfc-2022, status, expiry — with the chain's answers, the DID document and the
 * issuer profile served from memory ("chain answers cached"). Beside it, the same with
 * jsonld.js and @noble (core before issue #8), and the three integrity steps alone (hash,
 * path, eddsa).
 *
 * What a verifier remembers across the credentials of a batch, as the library does for any
 * caller: the hash of the eddsa proof configuration (the same for the whole batch), the Merkle
 * pairs it has hashed (the credentials share the upper part of their paths) and the issuer's
 * key points. Everything per credential — base58 and CBOR decoding of both proofs, the
 * canonical N-Quads and their hash, the lowest steps of the path, the Ed25519 verification —
 * is done for each one.
 *
 * Target (issue #8): ≥ 5,000 credentials/s on one core.
 *
 * Run: `npm run bench -- verify` (or `npx tsx packages/core/bench/verify.bench.ts`).
 */
import { bytesToHex } from "@noble/hashes/utils.js"
import * as NodePrimitives from "@sigil/core/node/NodePrimitives"
import { Effect, Either, Layer } from "effect"
import { availableParallelism, loadavg } from "node:os"
import * as Canonicalizer from "../src/Canonicalizer.js"
import type * as Document from "../src/Document.js"
import * as Eddsa from "../src/EddsaRdfc2022.js"
import * as Issuance from "../src/Issuance.js"
import * as Merkle from "../src/Merkle.js"
import * as MerkleProof2019 from "../src/MerkleProof2019.js"
import * as Primitives from "../src/Primitives.js"
import * as Verifier from "../src/Verifier.js"
import { makeTenant, makeWorld, sampleContent } from "../testkit/offlineTenant.js"
import * as Timing from "./support/timing.js"

const { best, median } = Timing

const BATCH = 500
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const now = new Date("2026-01-01T00:00:00Z")

NodePrimitives.install()
const tenant = makeTenant({ keysCreatedAt: new Date("2025-06-01T00:00:00Z") })
const world = makeWorld([tenant])
const credentials = await Effect.runPromise(Effect.gen(function*() {
  const batch = yield* Issuance.signBatch({
    credentials: Array.from({ length: BATCH }, (_, i) => sampleContent(i)),
    settings: tenant.settings,
    signedAt: new Date("2025-06-30T10:00:00Z"),
    sign: (m) => Effect.sync(() => Issuance.signEd25519(tenant.ed25519Secret, m))
  })
  return Issuance.complete(batch, tenant.settings, world.anchor(batch.merkleRoot, tenant.address, new Date("2025-06-30T10:00:30Z")))
}).pipe(Effect.provide(world.layer)))

// The world's ports (its layer provides the fast canonicalizer; a later layer overrides it).
const services = (canonicalizer: Layer.Layer<Canonicalizer.Canonicalizer>) =>
  Layer.merge(world.layer, canonicalizer)

const verifyAll = (canonicalizer: Layer.Layer<Canonicalizer.Canonicalizer>) =>
  Effect.forEach(credentials, (credential) =>
    Effect.map(Verifier.verifyCredential(credential, { now }), (result) => {
      if (result.outcome !== "verified") throw new Error(`${result.outcome}: ${result.message}`)
    }), { discard: true }).pipe(Effect.provide(services(canonicalizer)))

// The integrity steps alone: the document hash, the Merkle path, the eddsa proof.
const integrityAll = Effect.forEach(credentials, (credential) =>
  Effect.gen(function*() {
    const proofs = credential.proof as ReadonlyArray<Document.JsonObject>
    const merkle = MerkleProof2019.decode(proofs[0]!.proofValue as string)
    if (Either.isLeft(merkle)) throw merkle.left
    const { proof: _proof, ...unsecured } = credential
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const documentHash = Canonicalizer.sha256Bytes(yield* canonicalizer.canonicalize(unsecured))
    if (bytesToHex(documentHash) !== merkle.right.targetHash) throw new Error("hash")
    if (!Merkle.verify(merkle.right.targetHash, merkle.right.path, merkle.right.merkleRoot)) throw new Error("path")
    // As the verifier does: the eddsa proof covers the same document, hashed once.
    const problem = yield* Eddsa.verify(credential, proofs[1]!, tenant.keys[1]!.publicKey, { documentHash })
    if (problem !== undefined) throw new Error(problem)
  }), { discard: true }).pipe(Effect.provide(Canonicalizer.layerFast))

const measure = (effect: Effect.Effect<unknown, unknown>, rounds = ROUNDS) => Timing.measure(effect, rounds, 1)
const rate = (ms: number) => ((BATCH / ms) * 1000).toFixed(0).padStart(6)
const line = (label: string, m: Timing.Timing) =>
  console.log(`  ${label.padEnd(52)} ${rate(best(m.wall))} credentials/s (best wall), ${rate(median(m.wall))} (median wall), ${rate(median(m.cpu))} (median CPU time)`)

const fast = await measure(verifyAll(Canonicalizer.layerFast))
const integrity = await measure(integrityAll)
Primitives.reset()
const before = await measure(verifyAll(Canonicalizer.layerJsonld), 2)

console.log(`offline verification of ${BATCH} anchored credentials, one core, ${ROUNDS} rounds (chain, DID document and profile answered from memory); load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`)
line("verifyCredential, fast path + node:crypto:", fast)
line("  integrity steps alone (hash, path, eddsa):", integrity)
line("verifyCredential, jsonld.js + @noble (before #8):", before)
console.log(`  ratio: ${(median(before.cpu) / median(fast.cpu)).toFixed(1)}x (CPU time)   (target ≥ 5,000 credentials/s)`)
