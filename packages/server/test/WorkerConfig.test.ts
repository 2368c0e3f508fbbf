/**
 * `SIGIL_WORKER_IDLE_POLL`: the longest an idle worker sleeps without a wake-up, read and checked
 * with the rest of the configuration (unset: the pipeline's default, 15 s).
 */
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option } from "effect"
import * as ServerConfig from "../src/ServerConfig.js"

const load = (env: Record<string, string>) =>
  Effect.either(ServerConfig.load.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("SIGIL_WORKER_IDLE_POLL", () => {
  it.effect("unset leaves the pipeline's default; takes a duration from 1s to 1h; refuses anything else", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(Either.getOrThrow(yield* load({})).workerIdlePollMs))
      assert.deepStrictEqual(Either.getOrThrow(yield* load({ SIGIL_WORKER_IDLE_POLL: "5s" })).workerIdlePollMs, Option.some(5_000))
      assert.deepStrictEqual(Either.getOrThrow(yield* load({ SIGIL_WORKER_IDLE_POLL: "1h" })).workerIdlePollMs, Option.some(3_600_000))
      for (const bad of ["0s", "500ms", "2h", "soon", ""]) {
        assert.isTrue(Either.isLeft(yield* load({ SIGIL_WORKER_IDLE_POLL: bad })), JSON.stringify(bad))
      }
    }))
})
