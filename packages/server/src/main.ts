/**
 * `npm start`: Sigil on the configuration of the environment, embedded defaults for the rest.
 * SIGTERM/SIGINT shut it down gracefully: the HTTP servers stop accepting and finish what is
 * in flight, and the workers release the jobs they hold.
 *
 * @since 0.1.0
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as Secrets from "./Secrets.js"
import * as Server from "./Server.js"
import * as ServerConfig from "./ServerConfig.js"
import * as Startup from "./Startup.js"

const program = Effect.gen(function*() {
  const config = yield* ServerConfig.load
  const masterKey = yield* Secrets.loadOrGenerate(config.masterKey, config.dataDir, "master.key", Secrets.newMasterKey)
  const adminToken = yield* Secrets.loadOrGenerate(config.adminToken, config.dataDir, "admin.token", Secrets.newAdminToken)
  const secrets = { masterKey: masterKey.value, adminToken: adminToken.value }
  return yield* Layer.launch(
    Startup.layer(config, secrets, { masterKey: masterKey.source, adminToken: adminToken.source }).pipe(Layer.provideMerge(Server.layer(config, secrets)))
  )
})

NodeRuntime.runMain(program)
