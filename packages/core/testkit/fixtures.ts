/**
 * Reads the JSON test vectors under packages/core/test/fixtures.
 */
import { readFileSync } from "node:fs"

const FIXTURES = new URL("../test/fixtures/", import.meta.url)

/** Parses `test/fixtures/<path>`. */
export const readFixture = <A = unknown>(path: string): A =>
  JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8")) as A
