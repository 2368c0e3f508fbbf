/**
 * `RateLimiter` on Postgres: one row per bucket, shared by every process. A take locks the
 * bucket's row, computes with `RateLimiter.decide` (the arithmetic every adapter shares) and
 * writes the result back, in one short transaction.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { decide, RateLimiter } from "@sigil/core/RateLimiter"
import { Effect, Layer } from "effect"
import { op } from "./internal/sql.js"

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<RateLimiter["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    RateLimiter.of({
      take: (key, policy, now) =>
        sql.withTransaction(Effect.gen(function*() {
          // Creates the bucket full (what `decide` assumes of a missing one) or, with the
          // no-op update, locks the existing row until the transaction ends.
          const [bucket] = yield* sql<{ readonly tokens: number; readonly updated_at: Date }>`
            INSERT INTO rate_limits (key, tokens, updated_at)
            VALUES (${key}, ${policy.limit}::double precision, ${now})
            ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key
            RETURNING tokens, updated_at`
          const next = decide({ tokens: bucket!.tokens, updatedAt: bucket!.updated_at }, policy, now)
          yield* sql`UPDATE rate_limits SET tokens = ${next.tokens}::double precision, updated_at = ${next.updatedAt}
            WHERE key = ${key}`
          return next.decision
        })).pipe(op("PgRateLimiter.take"))
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(RateLimiter, make)
