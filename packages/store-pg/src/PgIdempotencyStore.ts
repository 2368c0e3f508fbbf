/**
 * `IdempotencyStore` on Postgres. `begin` is one upsert that only writes when the key is new
 * or its record expired; of concurrent requests with one key (from any process), the first to
 * write starts and the others read its record: `InFlight` until it completes, then `Replay`.
 * `created_at` is the owner's start time, which `renew`, `complete` and `release` must match;
 * `expires_at` is the end of the owner's lease while in flight, of the ttl once answered, so a
 * record left in flight by a dead process is taken over as an expired one is.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { type Begin, IdempotencyStore, IN_FLIGHT_LEASE_MS, type Scope } from "@sigil/service/Access/IdempotencyStore"
import { Effect, Layer } from "effect"
import { type Count, countOf, jsonText, op } from "./internal/sql.js"

interface Row {
  readonly fingerprint: string
  readonly response_status: number | null
  readonly response_headers: Readonly<Record<string, string>> | null
  readonly response_body: string | null
  readonly expires_at: Date
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<IdempotencyStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => {
    const key = (s: Scope) =>
      sql.and([
        sql`tenant_id = ${s.tenantId}`,
        sql`environment = ${s.environment}`,
        sql`method = ${s.method}`,
        sql`path = ${s.path}`,
        sql`key = ${s.key}`
      ])

    const leaseEnd = (now: Date) => new Date(now.getTime() + IN_FLIGHT_LEASE_MS)
    const owned = (scope: Scope, startedAt: Date) =>
      sql.and([key(scope), sql`created_at = ${startedAt}`, sql`response_status IS NULL`])

    const attempt = (scope: Scope, fingerprint: string, now: Date) =>
      Effect.gen(function*() {
        const started = yield* sql`INSERT INTO idempotency_keys ${
          sql.insert({
            tenant_id: scope.tenantId,
            environment: scope.environment,
            method: scope.method,
            path: scope.path,
            key: scope.key,
            fingerprint,
            created_at: now,
            expires_at: leaseEnd(now)
          })
        }
          ON CONFLICT (tenant_id, environment, method, path, key) DO UPDATE SET
            fingerprint = EXCLUDED.fingerprint,
            response_status = NULL, response_headers = NULL, response_body = NULL,
            created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
          WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
          RETURNING 1`
        if (started.length > 0) return { _tag: "Started" } as const
        const [row] = yield* sql<Row>`SELECT fingerprint, response_status, response_headers, response_body, expires_at
          FROM idempotency_keys WHERE ${key(scope)}`
        // Gone (released or purged) since the upsert looked: look again.
        if (row === undefined || row.expires_at.getTime() <= now.getTime()) return undefined
        if (row.fingerprint !== fingerprint) return { _tag: "Mismatch" } as const
        if (row.response_status === null) return { _tag: "InFlight" } as const
        return {
          _tag: "Replay",
          response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body ?? "" }
        } as const
      })

    return IdempotencyStore.of({
      // The ttl applies from `complete`: in flight, a record holds the key for its lease.
      begin: (scope, fingerprint, now, _ttlMs) =>
        Effect.gen(function*() {
          for (let i = 0; i < 5; i++) {
            const result: Begin | undefined = yield* attempt(scope, fingerprint, now)
            if (result !== undefined) return result
          }
          return yield* Effect.dieMessage("IdempotencyStore.begin: the record kept changing under it")
        }).pipe(op("PgIdempotencyStore.begin")),
      renew: (scope, startedAt, now) =>
        sql`UPDATE idempotency_keys SET expires_at = ${leaseEnd(now)} WHERE ${owned(scope, startedAt)} RETURNING 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          op("PgIdempotencyStore.renew")
        ),
      // Only the record this request started (its created_at) and still in flight.
      complete: (scope, startedAt, response, ttlMs) =>
        sql`UPDATE idempotency_keys SET ${
          sql.update({
            response_status: response.status,
            response_headers: jsonText(response.headers),
            response_body: response.body,
            expires_at: new Date(startedAt.getTime() + ttlMs)
          })
        } WHERE ${owned(scope, startedAt)}`.pipe(
          Effect.asVoid,
          op("PgIdempotencyStore.complete")
        ),
      release: (scope, startedAt) =>
        sql`DELETE FROM idempotency_keys WHERE ${owned(scope, startedAt)}`.pipe(
          Effect.asVoid,
          op("PgIdempotencyStore.release")
        ),
      purgeExpired: (now) =>
        sql<Count>`WITH purged AS (DELETE FROM idempotency_keys WHERE expires_at <= ${now} RETURNING 1)
          SELECT count(*)::integer AS n FROM purged`.pipe(
          Effect.map(countOf),
          op("PgIdempotencyStore.purgeExpired")
        )
    })
  }
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(IdempotencyStore, make)
