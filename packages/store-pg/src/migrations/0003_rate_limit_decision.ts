/**
 * Rate limiting in one statement: the bucket row remembers whether its last take was allowed,
 * so the upsert that refills and takes can return the decision (`RETURNING` sees only the new
 * row) instead of a locking transaction of four round trips.
 *
 * @internal
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE rate_limits ADD COLUMN allowed boolean NOT NULL DEFAULT true`
})
