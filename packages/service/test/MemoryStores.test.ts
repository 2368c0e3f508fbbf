/**
 * Every storage contract against the memory stores (`@sigil/store-pg` runs the same suites on
 * PGlite and Postgres).
 */
import * as MemoryStores from "../src/MemoryStores.js"
import { storeContracts } from "../testkit/stores.js"

storeContracts("memory", MemoryStores.layer)
