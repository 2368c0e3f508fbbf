#!/usr/bin/env node
// Writes each package's src/index.ts: one `export * as Module` line per PascalCase module in
// src/ and in its PascalCase feature folders (src/Batches/BatchStore.ts is `BatchStore`);
// internal/ and lower-case folders are left out. `--check` exits 1 when a barrel is stale.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const check = process.argv.includes("--check")
const root = new URL("..", import.meta.url).pathname
let stale = []
for (const pkg of readdirSync(join(root, "packages"))) {
  const src = join(root, "packages", pkg, "src")
  if (!existsSync(src)) continue
  const isModule = (f) => /^[A-Z][A-Za-z0-9]*\.ts$/.test(f)
  const features = readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory() && /^[A-Z]/.test(d.name))
  const modules = [
    ...readdirSync(src).filter(isModule).map((f) => f.slice(0, -3)),
    ...features.flatMap((d) => readdirSync(join(src, d.name)).filter(isModule).map((f) => `${d.name}/${f.slice(0, -3)}`))
  ].sort((a, b) => a.split("/").at(-1).localeCompare(b.split("/").at(-1)))
  const text = ["/**", " * @since 0.1.0", " */", ...modules.map((m) => `export * as ${m.split("/").at(-1)} from "./${m}.js"`), ""].join("\n")
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
