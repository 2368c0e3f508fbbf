/**
 * The property of the whole API (`apiPropertySuite`) over memory stores: 10,000 random requests
 * on CI, a few hundred locally (`SIGIL_API_PROPERTY_RUNS` to choose; `SIGIL_API_PROPERTY_STATS=1`
 * prints what the runs reached, by operation, status and code).
 */
import * as MemoryStores from "@sigil/service/MemoryStores"
import { apiPropertySuite, rateLimitPolicy } from "../testkit/blackbox/apiProperty.js"
import { start } from "../testkit/blackbox/harness.js"

const CI = process.env.CI === "true"

apiPropertySuite(() => start(MemoryStores.layer, { issuer: { rateLimitPolicy } }), {
  numRuns: CI ? 10_000 : Number(process.env.SIGIL_API_PROPERTY_RUNS ?? 400),
  timeout: CI ? 600_000 : 120_000
})
