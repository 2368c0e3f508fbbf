/**
 * A baseline of the memory benchmark, run as a process of its own (`node --import tsx`): the
 * two embedded engines of `npm start` and nothing else: the PGlite store (migrated, served on
 * its socket, as `PgStore.layerPglite` runs it) and the Hardhat EDR devnet, in the data
 * directory given as the first argument. Prints `ready` once both are up; then answers each line
 * on stdin with its `process.memoryUsage()` as one JSON line, so the benchmark can show where
 * the memory of this process is (V8 heap, or outside it: PGlite's WebAssembly memory).
 */
import * as Devnet from "@sigil/anchor-base/Devnet"
import * as PgStore from "@sigil/store-pg/PgStore"
import { Effect, Layer } from "effect"
import * as path from "node:path"

const dataDir = process.argv[2]!

process.stdin.on("data", () => process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`))

Effect.runFork(Effect.scoped(Effect.gen(function*() {
  yield* Layer.build(Layer.merge(PgStore.layerPglite({ dataDir: path.join(dataDir, "pglite") }), Devnet.layer({ dataDir })))
  process.stdout.write("ready\n")
  return yield* Effect.never
})))
