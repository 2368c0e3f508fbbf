/**
 * Every storage contract of `@sigil/core` against the embedded store (PGlite over its socket
 * server, the same client and repositories as on Postgres).
 */
import { storeContracts } from "@sigil/service/testkit/stores"
import { pglite, stores } from "../testkit/database.js"

storeContracts("PGlite", stores(pglite()))
