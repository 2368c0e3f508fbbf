/**
 * `EmailDeliveryStore` on Postgres: `email_deliveries` (one row per e-mailed credential, no
 * address) and `claim_tokens` (SHA-256 of each token, with its expiry).
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { type ClaimToken, type DeliveryRecord, type DeliveryStatus, EmailDeliveryStore } from "@sigil/service/Email/EmailDeliveryStore"
import type { BatchId, CredentialId, TenantId } from "@sigil/core/Ids"
import { Effect, Layer, Option } from "effect"
import { type Count, countOf, op, opt } from "./internal/sql.js"

interface DeliveryRow {
  readonly credential_id: string
  readonly tenant_id: string
  readonly batch_id: string
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly last_error: string | null
  readonly last_attempt_at: Date | null
  readonly sent_at: Date | null
  readonly claimed_at: Date | null
  readonly created_at: Date
}

interface TokenRow {
  readonly token_hash: string
  readonly credential_id: string
  readonly expires_at: Date
  readonly created_at: Date
}

const toDelivery = (r: DeliveryRow): DeliveryRecord => ({
  credentialId: r.credential_id as CredentialId,
  tenantId: r.tenant_id as TenantId,
  batchId: r.batch_id as BatchId,
  status: r.status,
  attempts: r.attempts,
  lastError: opt(r.last_error),
  lastAttemptAt: opt(r.last_attempt_at),
  sentAt: opt(r.sent_at),
  claimedAt: opt(r.claimed_at),
  createdAt: r.created_at
})

const toToken = (r: TokenRow): ClaimToken => ({
  tokenHash: r.token_hash,
  credentialId: r.credential_id as CredentialId,
  expiresAt: r.expires_at,
  createdAt: r.created_at
})

const first = <R, A>(f: (r: R) => A) => (rows: ReadonlyArray<R>) => Option.map(Option.fromNullable(rows[0]), f)

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<EmailDeliveryStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    EmailDeliveryStore.of({
      insert: (records) =>
        records.length === 0
          ? Effect.void
          : sql`INSERT INTO email_deliveries ${
            sql.insert(records.map((r) => ({
              credential_id: r.credentialId,
              tenant_id: r.tenantId,
              batch_id: r.batchId,
              status: r.status,
              attempts: r.attempts,
              last_error: r.lastError ?? null,
              last_attempt_at: r.lastAttemptAt ?? null,
              sent_at: r.sentAt ?? null,
              claimed_at: r.claimedAt ?? null,
              created_at: r.createdAt
            })))
          } ON CONFLICT (credential_id) DO NOTHING`.pipe(Effect.asVoid, op("PgEmailDeliveryStore.insert")),
      get: (credentialId) =>
        sql<DeliveryRow>`SELECT * FROM email_deliveries WHERE credential_id = ${credentialId}`.pipe(
          Effect.map(first(toDelivery)),
          op("PgEmailDeliveryStore.get")
        ),
      lock: (credentialId) =>
        sql<DeliveryRow>`SELECT * FROM email_deliveries WHERE credential_id = ${credentialId} FOR UPDATE`.pipe(
          Effect.map(first(toDelivery)),
          op("PgEmailDeliveryStore.lock")
        ),
      recordAttempt: (credentialId, attempt) =>
        sql<DeliveryRow>`UPDATE email_deliveries SET
            status = ${attempt.status},
            attempts = attempts + 1,
            last_error = ${attempt.error ?? null},
            last_attempt_at = ${attempt.at},
            sent_at = CASE WHEN ${attempt.status}::text = 'sent' THEN ${attempt.at}::timestamptz ELSE sent_at END
          WHERE credential_id = ${credentialId} RETURNING *`.pipe(
          Effect.map(first(toDelivery)),
          op("PgEmailDeliveryStore.recordAttempt")
        ),
      // Lock first: a send holding the row finishes, then its outcome is what is cancelled or kept.
      cancel: (credentialId) =>
        sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql<{ readonly status: DeliveryStatus }>`SELECT status FROM email_deliveries
            WHERE credential_id = ${credentialId} FOR UPDATE`
          if (rows.length === 0) return false
          yield* sql`UPDATE email_deliveries SET
              status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
              last_error = NULL
            WHERE credential_id = ${credentialId}`
          return rows[0]!.status === "queued"
        })).pipe(op("PgEmailDeliveryStore.cancel")),
      markClaimed: (credentialId, at) =>
        sql`UPDATE email_deliveries SET claimed_at = ${at}
          WHERE credential_id = ${credentialId} AND claimed_at IS NULL`.pipe(
          Effect.asVoid,
          op("PgEmailDeliveryStore.markClaimed")
        ),

      addToken: (token) =>
        sql`INSERT INTO claim_tokens ${
          sql.insert({
            token_hash: token.tokenHash,
            credential_id: token.credentialId,
            expires_at: token.expiresAt,
            created_at: token.createdAt
          })
        }`.pipe(Effect.asVoid, op("PgEmailDeliveryStore.addToken")),
      // One indexed statement whatever the token: unknown, another credential's and expired
      // tokens all come back empty from the same plan.
      findToken: (tokenHash, credentialId, now) =>
        sql<TokenRow>`SELECT * FROM claim_tokens
          WHERE token_hash = ${tokenHash} AND credential_id = ${credentialId} AND expires_at > ${now}`.pipe(
          Effect.map(first(toToken)),
          op("PgEmailDeliveryStore.findToken")
        ),
      deleteTokens: (credentialId) =>
        sql`DELETE FROM claim_tokens WHERE credential_id = ${credentialId}`.pipe(
          Effect.asVoid,
          op("PgEmailDeliveryStore.deleteTokens")
        ),
      purgeExpiredTokens: (now) =>
        sql<Count>`WITH purged AS (DELETE FROM claim_tokens WHERE expires_at <= ${now} RETURNING 1)
          SELECT count(*)::integer AS n FROM purged`.pipe(
          Effect.map(countOf),
          op("PgEmailDeliveryStore.purgeExpiredTokens")
        )
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<EmailDeliveryStore, never, SqlClient.SqlClient> = Layer.effect(EmailDeliveryStore, make)
