/**
 * The issuer API's black-box suite (packages/http) on the machine's PostgreSQL, in a fresh
 * database; skipped with a message when no server answers on 127.0.0.1:5432.
 */
import { describe, it } from "vitest"
import { issuerApiSuite } from "@sigil/http/testkit/blackbox/issuerApiSuite"
import { postgres, SKIP_MESSAGE, stores } from "@sigil/store-pg/testkit/database"

const pg = await postgres()

if (pg === undefined) {
  describe.skip("issuer API over Postgres", () => {
    it.skip(SKIP_MESSAGE, () => {})
  })
} else {
  issuerApiSuite("issuer API over Postgres", () => stores(pg.runtime))
}
