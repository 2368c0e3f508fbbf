/**
 * Magic-link e-mail delivery (issue #10): the tenant's setting, a delivery record per e-mailed
 * credential (no copy of the address: it stays in `recipients`, which erasure deletes), and
 * claim tokens stored only as their SHA-256.
 *
 * @internal
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`ALTER TABLE tenants
    ADD COLUMN email_delivery_enabled boolean NOT NULL DEFAULT false,
    ADD COLUMN email_sender_name text,
    ADD COLUMN email_reply_to text`

  yield* sql`CREATE TABLE email_deliveries (
    credential_id text COLLATE "C" PRIMARY KEY REFERENCES credentials (id),
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    batch_id text COLLATE "C" NOT NULL REFERENCES batches (id),
    status text NOT NULL CHECK (status IN ('queued', 'sent', 'bounced', 'failed', 'cancelled')),
    attempts integer NOT NULL CHECK (attempts >= 0),
    last_error text,
    last_attempt_at timestamptz,
    sent_at timestamptz,
    claimed_at timestamptz,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX email_deliveries_batch ON email_deliveries (batch_id)`

  yield* sql`CREATE TABLE claim_tokens (
    token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    credential_id text COLLATE "C" NOT NULL REFERENCES credentials (id),
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX claim_tokens_credential ON claim_tokens (credential_id)`
  yield* sql`CREATE INDEX claim_tokens_expiry ON claim_tokens (expires_at)`
})
