/**
 * The whole schema of Sigil's store. Ids are `text COLLATE "C"`: ULIDs sort by bytes, the order
 * keyset pagination and the memory adapters use, whatever the database's locale.
 *
 * @internal
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // Tenants, their API keys (SHA-256 of the key only), monthly usage and signing keys.
  yield* sql`CREATE TABLE tenants (
    id text COLLATE "C" PRIMARY KEY,
    name text NOT NULL,
    display_name text,
    plan text NOT NULL CHECK (plan IN ('developer', 'starter', 'institution', 'industry')),
    awarding_body jsonb,
    branding jsonb,
    recipient_name_mode text NOT NULL CHECK (recipient_name_mode IN ('hashed', 'plain')),
    ip_allowlist text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX tenants_age ON tenants (created_at, id)`

  yield* sql`CREATE TABLE api_keys (
    id text COLLATE "C" PRIMARY KEY,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    environment text NOT NULL CHECK (environment IN ('test', 'live')),
    secret_hash text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at, id)`

  yield* sql`CREATE TABLE usage_counters (
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    month text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
    credentials integer NOT NULL CHECK (credentials >= 0),
    PRIMARY KEY (tenant_id, month)
  )`

  yield* sql`CREATE TABLE tenant_keys (
    key_id text COLLATE "C" PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    kind text NOT NULL CHECK (kind IN ('ed25519', 'secp256k1')),
    fragment text NOT NULL,
    public_key bytea NOT NULL,
    secret_envelope bytea NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    UNIQUE (tenant_id, fragment)
  )`
  yield* sql`CREATE INDEX tenant_keys_tenant ON tenant_keys (tenant_id, seq)`

  // Batches and credentials; recipient personal data in its own table, deleted on erasure.
  yield* sql`CREATE TABLE batches (
    id text COLLATE "C" PRIMARY KEY,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    environment text NOT NULL CHECK (environment IN ('test', 'live')),
    status text NOT NULL CHECK (status IN ('pending', 'signed', 'anchored', 'failed')),
    credentials_count integer NOT NULL,
    merkle_root text,
    signed_at timestamptz,
    anchored_at timestamptz,
    anchor_chain text,
    anchor_chain_id integer,
    anchor_tx_hash text,
    anchor_block_number bigint,
    error_code text,
    error_message text,
    failed_at timestamptz,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX batches_page ON batches (tenant_id, environment, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX batches_page_by_status ON batches (tenant_id, environment, status, created_at DESC, id DESC)`

  yield* sql`CREATE TABLE credentials (
    id text COLLATE "C" PRIMARY KEY,
    batch_id text COLLATE "C" NOT NULL REFERENCES batches (id),
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    environment text NOT NULL CHECK (environment IN ('test', 'live')),
    position integer NOT NULL,
    recipient_id text NOT NULL,
    content json NOT NULL,
    document json,
    status text NOT NULL CHECK (status IN ('pending', 'signed', 'anchored')),
    revoked boolean NOT NULL,
    revoked_at timestamptz,
    revocation_reason text,
    revocation_reason_code text,
    erased boolean NOT NULL,
    erased_at timestamptz,
    erasure_requester text,
    erasure_verified_at timestamptz,
    erasure_verification_status text,
    status_list_id integer,
    status_list_index integer,
    created_at timestamptz NOT NULL,
    UNIQUE (batch_id, position)
  )`

  yield* sql`CREATE TABLE recipients (
    credential_id text COLLATE "C" PRIMARY KEY REFERENCES credentials (id),
    name text NOT NULL,
    email text
  )`

  // Revocation status lists: an allocation bitmap and the published bits per list.
  yield* sql`CREATE TABLE status_lists (
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    list_id integer NOT NULL CHECK (list_id > 0),
    size integer NOT NULL CHECK (size > 0),
    allocated bytea NOT NULL,
    allocated_count integer NOT NULL,
    bits bytea NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, list_id)
  )`

  // Idempotency records and rate-limit buckets.
  yield* sql`CREATE TABLE idempotency_keys (
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    environment text NOT NULL,
    method text NOT NULL,
    path text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    response_status integer,
    response_headers json,
    response_body text,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, environment, method, path, key)
  )`
  yield* sql`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)`

  yield* sql`CREATE TABLE rate_limits (
    key text PRIMARY KEY,
    tokens double precision NOT NULL,
    updated_at timestamptz NOT NULL
  )`

  // Webhook endpoints (secret sealed under the master key), the event outbox, deliveries.
  yield* sql`CREATE TABLE webhook_endpoints (
    id text COLLATE "C" PRIMARY KEY,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    environment text NOT NULL CHECK (environment IN ('test', 'live')),
    url text NOT NULL,
    events text[] NOT NULL,
    description text,
    active boolean NOT NULL,
    secret_envelope bytea NOT NULL,
    failing_since timestamptz,
    disabled_at timestamptz,
    disabled_reason text,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant_id, environment, created_at, id)`

  yield* sql`CREATE TABLE events (
    id text COLLATE "C" PRIMARY KEY,
    type text NOT NULL,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    environment text NOT NULL CHECK (environment IN ('test', 'live')),
    data json NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX events_page ON events (tenant_id, environment, created_at DESC, id DESC)`

  // No foreign key to the endpoint: deleting an endpoint keeps the history of its deliveries.
  yield* sql`CREATE TABLE webhook_deliveries (
    id text COLLATE "C" PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    event_id text COLLATE "C" NOT NULL REFERENCES events (id),
    endpoint_id text COLLATE "C" NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    attempts integer NOT NULL,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    last_status_code integer,
    last_error text,
    delivered_at timestamptz,
    created_at timestamptz NOT NULL,
    UNIQUE (event_id, endpoint_id)
  )`
  yield* sql`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id) WHERE status = 'pending'`

  // The audit log; purged by plan retention.
  yield* sql`CREATE TABLE audit_log (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    request_id text NOT NULL,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id),
    api_key_id text NOT NULL,
    method text NOT NULL,
    route text NOT NULL,
    status integer NOT NULL,
    at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX audit_log_tenant ON audit_log (tenant_id, at, seq)`
  yield* sql`CREATE INDEX audit_log_age ON audit_log (at)`

  // The job queue (docs/decisions/job-queue.md).
  yield* sql`CREATE TABLE jobs (
    id text COLLATE "C" PRIMARY KEY,
    kind text NOT NULL,
    payload jsonb NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'dead')),
    attempts integer NOT NULL,
    max_attempts integer NOT NULL CHECK (max_attempts > 0),
    run_at timestamptz NOT NULL,
    lease_until timestamptz,
    locked_by text,
    last_error text,
    dedupe_key text,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX jobs_due ON jobs (run_at, created_at, id) WHERE status = 'queued'`
  yield* sql`CREATE INDEX jobs_leased ON jobs (lease_until) WHERE status = 'running'`
  yield* sql`CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE status IN ('queued', 'running')`

  // Every signed anchoring transaction, written before it is broadcast.
  yield* sql`CREATE TABLE anchor_journal (
    chain_id integer NOT NULL,
    tx_hash text NOT NULL,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    batch_id text COLLATE "C",
    sender text NOT NULL,
    nonce bigint NOT NULL,
    raw_transaction text NOT NULL,
    max_fee_per_gas numeric(78, 0) NOT NULL,
    max_priority_fee_per_gas numeric(78, 0) NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (chain_id, tx_hash)
  )`
  yield* sql`CREATE INDEX anchor_journal_batch ON anchor_journal (chain_id, batch_id, seq)`
  yield* sql`CREATE INDEX anchor_journal_sender ON anchor_journal (chain_id, lower(sender), nonce DESC)`
})
