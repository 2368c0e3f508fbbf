/**
 * Rotating the master key (`SIGIL_MASTER_KEY`): every sealed secret — tenants' signing keys,
 * webhook signing secrets — has its data key re-wrapped under the new master key, in one
 * transaction, the sealed records themselves untouched (decisions/key-encryption.md).
 *
 * All or nothing: an envelope that opens under neither key, or is damaged, fails the rotation
 * and nothing is written. Run again after a failure or a crash, it carries on: envelopes
 * already under the new key are checked and left as they are.
 *
 * Processes still running with the old key keep signing with the keys they have opened; any
 * other open fails (`SigningKeyUnavailable`: the signing job waits and retries) until they are
 * restarted with the new key.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Either, Schema } from "effect"
import * as Envelope from "./Envelope.js"
import { bytes } from "./internal/sql.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class RotationFailed extends Schema.TaggedError<RotationFailed>()("RotationFailed", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export interface Rotated {
  /** Envelopes re-wrapped under the new key. */
  readonly rewrapped: number
  /** Envelopes that were under the new key already (a rotation run again). */
  readonly alreadyRotated: number
}

// The sealed columns, with the context each row's envelope was sealed for (PgKeyVault,
// PgWebhookEndpointStore).
const SEALED = [
  { table: "tenant_keys", id: "key_id", context: (id: string) => `tenant-key:${id}`, what: "tenant key" },
  { table: "webhook_endpoints", id: "id", context: (id: string) => `webhook-secret:${id}`, what: "webhook secret" }
] as const

/**
 * Re-wraps every envelope sealed under `from` under `to`.
 *
 * @since 0.1.0
 * @category rotation
 */
export const rotate = (
  from: Envelope.MasterKey,
  to: Envelope.MasterKey
): Effect.Effect<Rotated, RotationFailed, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    if (from.id === to.id) return yield* new RotationFailed({ message: "the new master key is the current one" })
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      let rewrapped = 0
      let alreadyRotated = 0
      for (const sealed of SEALED) {
        const rows = yield* sql<{ readonly id: string; readonly secret_envelope: Uint8Array }>`SELECT ${
          sql(sealed.id)
        } AS id, secret_envelope FROM ${sql(sealed.table)} ORDER BY 1 FOR UPDATE`
        for (const row of rows) {
          const result = Envelope.rewrap(from, to, bytes(row.secret_envelope), sealed.context(row.id))
          if (Either.isLeft(result)) {
            return yield* new RotationFailed({
              message: `${sealed.what} ${row.id}: ${
                result.left.reason === "other-master-key"
                  ? "sealed under neither the current nor the new master key"
                  : `its envelope does not open (${result.left.reason})`
              }; nothing was changed`
            })
          }
          if (!result.right.changed) {
            alreadyRotated++
            continue
          }
          yield* sql`UPDATE ${sql(sealed.table)} SET secret_envelope = ${result.right.envelope}
            WHERE ${sql(sealed.id)} = ${row.id}`
          rewrapped++
        }
      }
      return { rewrapped, alreadyRotated }
    }))
  }).pipe(
    Effect.catchTag("SqlError", (e) => Effect.die(e)),
    Effect.withSpan("MasterKeyRotation.rotate")
  )
