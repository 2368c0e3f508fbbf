#!/usr/bin/env node
// `npm run bench`: runs every packages/*/bench/*.bench.ts in turn (each a standalone script that
// prints its figures and ratios). Benchmarks are never tests: nothing here fails on a number.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"

const root = new URL("..", import.meta.url).pathname
const only = process.argv.slice(2)
const files = readdirSync(join(root, "packages")).flatMap((pkg) => {
  const dir = join(root, "packages", pkg, "bench")
  return existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).map((f) => join("packages", pkg, "bench", f))
    : []
}).filter((f) => only.length === 0 || only.some((o) => f.includes(o)))

let failed = 0
for (const file of files) {
  console.log(`\n=== ${file} ===`)
  const run = spawnSync("npx", ["--no-install", "tsx", file], { cwd: root, stdio: "inherit" })
  if (run.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
