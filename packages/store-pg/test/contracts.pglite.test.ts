/**
 * Every storage contract of `@sigil/core` against the embedded store (PGlite over its socket
 * server, the same client and repositories as on Postgres).
 */
import { storeContracts } from "../../core/test/contracts/stores.js"
import { pglite, stores } from "./utils.js"

storeContracts("PGlite", stores(pglite()))
