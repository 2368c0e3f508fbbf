/**
 * Worker threads for the keyless parts of issuing a batch: canonicalizing and hashing each
 * document, and encoding the MerkleProof2019 proofValues once the root is anchored. It
 * provides core's `DocumentHasher`, which `Issuance.signBatch` (and so the pipeline's signing
 * step) uses when it is there, and core's `ProofValueEncoder`, which
 * `Issuance.merkleProofsWith` / `completeWith` use (the calling thread encodes a share too).
 *
 * Where the key is: nowhere near the workers. The calling thread builds the documents, the
 * workers return 32-byte hashes, and the calling thread signs `sha256(proof config) ‖ hash`
 * through the `KeyVault` as before. A worker sees unsigned documents (what the batch's
 * credentials say, which the issuer's database holds anyway) and never a key, a signature or a
 * vault handle; signing inside the workers would mean handing them the opened secret, which
 * the vault's port exists to prevent. `Issuance.signBatch` asks for the hashes chunk by chunk
 * and signs each chunk as it arrives, so the calling thread signs while the workers hash.
 *
 * The workers run an esbuild bundle of `internal/hashWorker.ts` written to a temporary
 * directory when the pool starts (≈40 MB a thread, against ≈120 MB for the TypeScript sources
 * under tsx, which remains the fallback); they start in the background and the first batch
 * waits for them.
 *
 * Batches below `minBatch` documents are hashed in the calling thread (posting costs more
 * than it saves). A worker that crashes is replaced; the chunk it held is hashed in the
 * calling thread, so a crash costs time, never a batch. A document that does not canonicalize
 * fails the batch with the same `CanonicalizationError` as in the calling thread.
 *
 * @since 0.1.0
 */
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as DocumentHasher from "@sigil/core/DocumentHasher"
import type { JsonObject } from "@sigil/core/Document"
import * as ProofValueEncoder from "@sigil/core/ProofValueEncoder"
import { Context, Effect, Layer, type Scope } from "effect"
import * as esbuild from "esbuild"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import * as Compact from "./internal/compactBatch.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Worker threads (default: one fewer than the machine's cores, at least one: the calling
   * thread, which builds and signs, is the other lane).
   */
  readonly threads?: number | undefined
  /** Batches smaller than this are hashed in the calling thread (default 32). */
  readonly minBatch?: number | undefined
}

type Request =
  | { readonly documents: ReadonlyArray<JsonObject> }
  | { readonly proofs: Compact.CompactBatch }

type Reply =
  | { readonly id: number; readonly hashes: Uint8Array }
  | { readonly id: number; readonly error: { readonly message: string; readonly undefinedTerms: ReadonlyArray<string> } }
  | { readonly id: number; readonly proofValues: ReadonlyArray<string> }
  | { readonly id: number; readonly crash: string }

interface Slot {
  worker: Worker | undefined
  readonly pending: Map<number, (reply: Reply) => void>
  /** Documents posted and not answered yet. */
  load: number
}

const WORKER_SOURCE = fileURLToPath(new URL("./internal/hashWorker.ts", import.meta.url))
// Without esbuild's bundle: the TypeScript worker under tsx (registered by the boot file).
const WORKER_FALLBACK = new URL("./internal/hashWorker.boot.mjs", import.meta.url)

/**
 * The worker, bundled by esbuild into one ES module in a temporary directory: a worker thread
 * that loads it costs ≈40 MB, against ≈120 MB for the TypeScript sources under tsx (a loader
 * and source maps per thread). Resolves to the fallback if bundling fails.
 */
const bundleWorker = async (): Promise<{ readonly url: URL; readonly dir: string | undefined }> => {
  try {
    const result = await esbuild.build({
      entryPoints: [WORKER_SOURCE],
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      target: ["node20"],
      // Not minified: V8 optimizes esbuild's minified base58 loops noticeably worse.
      external: ["rdf-canonize-native"],
      logLevel: "silent",
      // jsonld is CommonJS: its require() calls (node builtins) need a require in an ES module.
      banner: { js: "import { createRequire as __sigilRequire } from 'node:module'; const require = __sigilRequire(import.meta.url);" }
    })
    const dir = await mkdtemp(join(tmpdir(), "sigil-signing-pool-"))
    const file = join(dir, "hashWorker.mjs")
    await writeFile(file, result.outputFiles[0]!.contents)
    return { url: pathToFileURL(file), dir }
  } catch {
    return { url: WORKER_FALLBACK, dir: undefined }
  }
}

/**
 * What the pool provides.
 *
 * @since 0.1.0
 * @category models
 */
export interface Pool {
  readonly hasher: DocumentHasher.Service
  readonly encoder: ProofValueEncoder.Service
}

/**
 * Starts the workers (they load in the background; the first batch waits for them) and stops
 * them when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = {}
): Effect.Effect<Pool, never, Scope.Scope | Canonicalizer.Canonicalizer> =>
  Effect.gen(function*() {
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const local = DocumentHasher.sequential(canonicalizer)
    const threads = Math.max(1, options.threads ?? availableParallelism() - 1)
    const minBatch = options.minBatch ?? 32
    let nextId = 0
    let closed = false
    const bundle = bundleWorker()
    let workerUrl: URL | undefined

    const spawn = (slot: Slot): Worker => {
      const worker = new Worker(workerUrl!)
      const failAll = (why: string) => {
        if (slot.worker === worker) slot.worker = undefined
        for (const [id, resolve] of slot.pending) resolve({ id, crash: why })
        slot.pending.clear()
      }
      worker.on("message", (reply: Reply) => {
        const resolve = slot.pending.get(reply.id)
        slot.pending.delete(reply.id)
        resolve?.(reply)
      })
      worker.on("error", (e) => failAll(e.message))
      worker.on("exit", (code) => failAll(`the worker exited (${code})`))
      slot.worker = worker
      return worker
    }
    const slots: Array<Slot> = Array.from({ length: threads }, () => ({ worker: undefined, pending: new Map(), load: 0 }))
    // The workers start as soon as the bundle is written (in the background: the first batch
    // waits for it, nothing else does).
    const started = bundle.then(({ url }) => {
      workerUrl = url
      if (!closed) for (const slot of slots) spawn(slot)
    })
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        closed = true
        await started
        await Promise.all(slots.map((s) => s.worker?.terminate()))
        const { dir } = await bundle
        if (dir !== undefined) await rm(dir, { recursive: true, force: true })
      })
    )

    // Posts now (the pool must have started) and answers when the worker does; `weight` is
    // the work it adds to the slot's load.
    const request = (slot: Slot, message: Request, weight: number): Promise<Reply> =>
      new Promise((resolve) => {
        const id = nextId++
        if (closed) return resolve({ id, crash: "the pool is closed" })
        const worker = slot.worker ?? spawn(slot)
        slot.load += weight
        slot.pending.set(id, (reply) => {
          slot.load -= weight
          resolve(reply)
        })
        try {
          worker.postMessage({ ...message, id })
        } catch (e) {
          // Something that cannot be cloned (not JSON): the calling thread does it.
          slot.pending.delete(id)
          slot.load -= weight
          resolve({ id, crash: e instanceof Error ? e.message : String(e) })
        }
      })
    const whenStarted = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      workerUrl !== undefined ? effect : Effect.zipRight(Effect.promise(() => started), effect)

    const hashChunk = (slot: Slot, documents: ReadonlyArray<JsonObject>) =>
      Effect.flatMap(
        Effect.promise(() => request(slot, { documents }, documents.length)),
        (reply): Effect.Effect<ReadonlyArray<Uint8Array>, Canonicalizer.CanonicalizationError> => {
          if ("hashes" in reply) {
            return Effect.succeed(Array.from({ length: documents.length }, (_, i) => reply.hashes.subarray(i * 32, i * 32 + 32)))
          }
          if ("error" in reply) {
            return Effect.fail(new Canonicalizer.CanonicalizationError({
              message: reply.error.message,
              undefinedTerms: reply.error.undefinedTerms
            }))
          }
          const why = "crash" in reply ? reply.crash : "an unexpected answer"
          return local.hashAll(documents).pipe(
            Effect.tap(() => Effect.logWarning(`SigningPool: a worker failed (${why}); hashed in the calling thread`))
          )
        }
      )

    // The worker with the least work waiting.
    const idlest = (): Slot => slots.reduce((a, b) => (b.load < a.load ? b : a))

    const hasher = DocumentHasher.DocumentHasher.of({
      hashAll: (documents) => {
        if (documents.length < minBatch) return local.hashAll(documents)
        // Parts of at least minBatch documents, at most one per worker.
        const parts = Math.min(slots.length, Math.floor(documents.length / minBatch))
        const size = Math.ceil(documents.length / parts)
        const chunks = Array.from({ length: parts }, (_, i) => documents.slice(i * size, (i + 1) * size))
        return whenStarted(Effect.forEach(chunks, (chunk) => hashChunk(idlest(), chunk), { concurrency: "unbounded" })).pipe(
          Effect.map((hashes) => hashes.flat())
        )
      }
    })

    // The leaves in one part per worker plus one for this thread, which encodes its part while
    // the workers encode theirs.
    const encoder = ProofValueEncoder.ProofValueEncoder.of({
      encodeAll: (batch) =>
        batch.leaves.length < minBatch ? ProofValueEncoder.inThread.encodeAll(batch) : whenStarted(Effect.suspend(() => {
          const size = Math.ceil(batch.leaves.length / (slots.length + 1))
          const part = (k: number) => batch.leaves.slice(k * size, (k + 1) * size)
          const remote = slots.map((slot, k) => {
            const leaves = part(k + 1)
            return { leaves, reply: leaves.length === 0 ? undefined : request(slot, { proofs: Compact.compact({ ...batch, leaves }) }, leaves.length) }
          })
          const mine = ProofValueEncoder.encodeInThread({ ...batch, leaves: part(0) })
          return Effect.forEach(remote, ({ leaves, reply }) =>
            reply === undefined ? Effect.succeed([]) : Effect.map(Effect.promise(() => reply), (answer) =>
              // A worker that failed: this thread encodes its part.
              "proofValues" in answer ? answer.proofValues : ProofValueEncoder.encodeInThread({ ...batch, leaves }))).pipe(
            Effect.map((parts) => [...mine, ...parts.flat()])
          )
        }))
    })

    return { hasher, encoder }
  })

/**
 * The pool as the `DocumentHasher` and the `ProofValueEncoder` (it needs a `Canonicalizer`
 * for the calling thread's share).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<DocumentHasher.DocumentHasher | ProofValueEncoder.ProofValueEncoder, never, Canonicalizer.Canonicalizer> =>
  Layer.scopedContext(Effect.map(make(options), (pool) =>
    Context.make(DocumentHasher.DocumentHasher, pool.hasher).pipe(Context.add(ProofValueEncoder.ProofValueEncoder, pool.encoder))))
