/**
 * The black-box suite over memory stores.
 */
import * as MemoryStores from "@sigil/service/MemoryStores"
import { issuerApiSuite } from "../testkit/blackbox/issuerApiSuite.js"

issuerApiSuite("issuer API over memory stores", () => MemoryStores.layer)
