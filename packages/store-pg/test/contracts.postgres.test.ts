/**
 * Every storage contract of `@sigil/core` against the machine's PostgreSQL (a fresh database
 * for this file); skipped, with a message, when no server answers on 127.0.0.1:5432.
 */
import { describe, it } from "vitest"
import { storeContracts } from "@sigil/service/testkit/stores"
import { postgres, SKIP_MESSAGE, stores } from "../testkit/database.js"

const pg = await postgres()

if (pg === undefined) {
  describe.skip("store contracts: Postgres", () => {
    it.skip(SKIP_MESSAGE, () => {})
  })
} else {
  storeContracts("Postgres", stores(pg.runtime))
}
