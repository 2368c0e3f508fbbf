/**
 * The issuer API's black-box suite (packages/http) on the real store: embedded PGlite.
 */
import * as PgStore from "@sigil/store-pg/PgStore"
import * as PgStores from "@sigil/store-pg/PgStores"
import { Layer, Redacted } from "effect"
import { issuerApiSuite } from "@sigil/http/testkit/blackbox/issuerApiSuite"

issuerApiSuite("issuer API over PGlite", () =>
  PgStores.layer({ masterKey: Redacted.make("5e".repeat(32)) }).pipe(
    Layer.provideMerge(PgStore.layerPglite({ dataDir: undefined })),
    Layer.orDie
  ))
