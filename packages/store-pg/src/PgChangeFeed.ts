/**
 * The change feed across processes sharing one Postgres: `announce` sends
 * `NOTIFY sigil_changes, '<tenant id>'` inside the caller's transaction (so at its commit, and
 * never for a rollback) and tells this process's listeners after the commit; a connection of
 * its own `LISTEN`s and hands every process's announcements to the listeners.
 *
 * Whether that connection still hears is checked, not assumed (the Postgres client drops the
 * listening connection's errors silently): every `heartbeat` the process notifies a ping of its
 * own; the feed `isLive` while its last ping came back within `2 × heartbeat + 2 s`. A ping
 * that does not come back restarts the listening connection, and the first ping heard again
 * is a `Reset` (announcements of the gap may be lost: every cached answer goes). So a
 * cache answers from memory only while it hears every process, and a change made elsewhere
 * reaches it at the commit plus the notification's travel; the longest a lost connection can
 * go unnoticed is the live window (docs/decisions/serving.md).
 *
 * @since 0.1.0
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import * as ChangeFeed from "@sigil/service/ChangeFeed"
import { afterCommit } from "@sigil/service/Transactor"
import type { TenantId } from "@sigil/core/Ids"
import { Duration, Effect, Fiber, Layer, type Scope, Stream } from "effect"
import { randomUUID } from "node:crypto"

/**
 * @since 0.1.0
 * @category constants
 */
export const CHANNEL = "sigil_changes"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** How often the process checks that it hears the channel. */
  readonly heartbeat: Duration.DurationInput
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_OPTIONS: Options = { heartbeat: Duration.seconds(5) }

const PING = "ping:"

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = DEFAULT_OPTIONS
): Effect.Effect<ChangeFeed.Service, never, SqlClient.SqlClient | PgClient.PgClient | Scope.Scope> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const listeners = ChangeFeed.makeListeners()
    const heartbeatMs = Duration.toMillis(options.heartbeat)
    const liveWindowMs = 2 * heartbeatMs + 2_000
    const ping = `${PING}${randomUUID()}`
    let lastHeard = Number.NEGATIVE_INFINITY
    const isLive = () => Date.now() - lastHeard < liveWindowMs

    const heard = (payload: string) =>
      Effect.sync(() => {
        if (payload.startsWith(PING)) {
          if (payload !== ping) return
          const wasLive = isLive()
          lastHeard = Date.now()
          // Back after a gap (or the first time): whatever was announced meanwhile is unknown.
          if (!wasLive) listeners.emit({ _tag: "Reset" })
          return
        }
        listeners.emit({ _tag: "TenantChanged", tenantId: payload as TenantId })
      })

    const listen = pg.listen(CHANNEL).pipe(
      Stream.runForEach(heard),
      Effect.catchAllCause((cause) => Effect.logWarning("change feed: LISTEN failed", cause)),
      Effect.forkScoped
    )
    let listening = yield* listen
    let listeningSince = Date.now()
    // Every heartbeat: send a ping; when the previous ones did not come back, start listening
    // on a fresh connection (the old one is released with its fiber). Until a ping comes back
    // (at start, after a loss) it pings every quarter second, so the feed is live soon after
    // its connection is.
    yield* Effect.gen(function*() {
      if (!isLive() && Date.now() - listeningSince > liveWindowMs) {
        yield* Effect.logWarning("change feed: pings not heard back; listening on a new connection")
        yield* Fiber.interrupt(listening)
        listening = yield* listen
        listeningSince = Date.now()
      }
      // (`PgClient.notify` sends `NOTIFY channel, $1`, which Postgres refuses: no parameters there.)
      yield* Effect.ignore(sql`SELECT pg_notify(${CHANNEL}, ${ping})`)
      yield* Effect.sleep(isLive() ? options.heartbeat : Duration.millis(250))
    }).pipe(Effect.forever, Effect.forkScoped)

    return {
      announce: (tenantId) =>
        Effect.zipRight(
          Effect.orDie(sql`SELECT pg_notify(${CHANNEL}, ${tenantId})`),
          afterCommit(Effect.sync(() => listeners.emit({ _tag: "TenantChanged", tenantId })))
        ),
      subscribe: listeners.subscribe,
      isLive
    }
  })

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = DEFAULT_OPTIONS
): Layer.Layer<ChangeFeed.ChangeFeed, never, SqlClient.SqlClient | PgClient.PgClient> =>
  Layer.scoped(ChangeFeed.ChangeFeed, make(options))
