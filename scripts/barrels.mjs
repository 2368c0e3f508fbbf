#!/usr/bin/env node
// Writes each package's src/index.ts: one `export * as Module` line per PascalCase module in
// src/ (internal/ excluded). `--check` exits 1 when a barrel is stale instead of writing it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const check = process.argv.includes("--check")
const root = new URL("..", import.meta.url).pathname
let stale = []
for (const pkg of readdirSync(join(root, "packages"))) {
  const src = join(root, "packages", pkg, "src")
  if (!existsSync(src)) continue
  const modules = readdirSync(src)
    .filter((f) => /^[A-Z][A-Za-z0-9]*\.ts$/.test(f))
    .map((f) => f.slice(0, -3))
    .sort()
  const text = ["/**", " * @since 0.1.0", " */", ...modules.map((m) => `export * as ${m} from "./${m}.js"`), ""].join("\n")
  const file = join(src, "index.ts")
  const current = existsSync(file) ? readFileSync(file, "utf8") : ""
  if (current === text) continue
  if (check) stale.push(file)
  else writeFileSync(file, text)
}
if (stale.length > 0) {
  console.error(`stale barrels (run npm run codegen):\n${stale.join("\n")}`)
  process.exit(1)
}
