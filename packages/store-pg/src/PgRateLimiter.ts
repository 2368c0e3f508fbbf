/**
 * `RateLimiter` on Postgres: one row per bucket, shared by every process. A take is one
 * upsert (it runs on every authenticated request): a missing bucket is created full minus
 * the take, an existing one is refilled and taken from under the row lock that `ON CONFLICT
 * DO UPDATE` holds, with the very floating-point operations of `RateLimiter.decide` (the
 * contract suite checks that the decisions are equal).
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { decide, decisionOf, RateLimiter, refillRatePerMs, spent } from "@sigil/service/Access/RateLimiter"
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
      take: (key, policy, now) => {
        const fresh = decide(undefined, policy, now)
        // decide: min(limit, tokens + max(0, now − updated) · rate), in float8 like JS numbers;
        // both instants are whole milliseconds, so the elapsed time is exact.
        const available = sql`LEAST(
          ${policy.limit}::double precision,
          b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (EXCLUDED.updated_at - b.updated_at)) * 1000)::double precision
            * ${refillRatePerMs(policy)}::double precision)`
        return sql<{ readonly tokens: number; readonly allowed: boolean }>`
          INSERT INTO rate_limits AS b (key, tokens, updated_at, allowed)
          VALUES (${key}, ${fresh.tokens}::double precision, ${now}, ${fresh.decision.allowed})
          ON CONFLICT (key) DO UPDATE SET
            tokens = CASE WHEN ${available} >= 1 THEN ${available} - 1 ELSE ${available} END,
            allowed = ${available} >= 1,
            updated_at = EXCLUDED.updated_at
          RETURNING tokens, allowed`.pipe(
          Effect.map(([bucket]) => decisionOf(policy, bucket!.allowed, bucket!.tokens)),
          op("PgRateLimiter.take")
        )
      },
      spend: (key, policy, count, now) => {
        const fresh = spent(undefined, policy, count, now)
        return sql<{ readonly tokens: number }>`
          INSERT INTO rate_limits AS b (key, tokens, updated_at, allowed)
          VALUES (${key}, ${fresh.tokens}::double precision, ${now}, true)
          ON CONFLICT (key) DO UPDATE SET
            tokens = LEAST(
              ${policy.limit}::double precision,
              b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (EXCLUDED.updated_at - b.updated_at)) * 1000)::double precision
                * ${refillRatePerMs(policy)}::double precision) - ${count}::double precision,
            updated_at = EXCLUDED.updated_at
          RETURNING tokens`.pipe(
          Effect.map(([bucket]) => bucket!.tokens),
          op("PgRateLimiter.spend")
        )
      }
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(RateLimiter, make)
