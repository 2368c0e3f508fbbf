/**
 * Writes the issuer API's OpenAPI document to `docs/openapi.json` (the committed copy; a test
 * fails when it is stale). `--check` exits 1 instead of writing when the copy differs.
 *
 *   npx tsx packages/http/scripts/openapi.ts [--check]
 */
import { readFileSync, writeFileSync } from "node:fs"
import * as IssuerApi from "../src/IssuerApi.js"

const file = new URL("../../../docs/openapi.json", import.meta.url)
const text = IssuerApi.openApiText()
if (process.argv.includes("--check")) {
  let current = ""
  try {
    current = readFileSync(file, "utf8")
  } catch {
    // absent: stale
  }
  if (current !== text) {
    console.error("docs/openapi.json is stale: run npx tsx packages/http/scripts/openapi.ts")
    process.exit(1)
  }
} else {
  writeFileSync(file, text)
  console.log(`wrote ${file.pathname}`)
}
