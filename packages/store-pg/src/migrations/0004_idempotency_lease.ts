/**
 * Idempotency records in flight hold their key for a renewed lease: `expires_at` is the lease's
 * end while a record has no response (the ttl's once answered). Records left in flight before
 * this migration carry their 24 h expiry; they get the two-minute takeover they had then.
 *
 * @internal
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE idempotency_keys SET expires_at = LEAST(expires_at, created_at + interval '2 minutes')
    WHERE response_status IS NULL`
})
