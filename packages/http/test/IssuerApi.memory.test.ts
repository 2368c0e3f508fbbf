/**
 * The black-box suite over memory stores.
 */
import * as MemoryStores from "@sigil/core/MemoryStores"
import { issuerApiSuite } from "./blackbox/issuerApiSuite.js"

issuerApiSuite("issuer API over memory stores", () => MemoryStores.layer)
