/**
 * Runs once per test run: initdb and the migrations on one PGlite data directory (the slow
 * part of starting PGlite, 3–5 s here), which every test file then copies.
 */
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import * as PgStore from "../src/PgStore.js"

declare module "vitest" {
  export interface ProvidedContext {
    readonly pgliteTemplate: string
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "sigil-pglite-template-"))
  await Effect.runPromise(Effect.scoped(Layer.build(PgStore.layerPglite({ dataDir: dir }))))
  project.provide("pgliteTemplate", dir)
  return () => rmSync(dir, { recursive: true, force: true })
}
