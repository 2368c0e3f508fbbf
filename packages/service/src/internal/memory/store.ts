/**
 * What every memory adapter shares: the table names in the one `MemoryStore`, running an
 * operation under the store's lock, and copying values in and out the way a database does
 * (a caller never holds a reference into a table).
 *
 * @internal
 */
import { Effect } from "effect"
import { type MemoryStore, withLock } from "../../Transactor.js"

/** @internal */
export type Store = MemoryStore["Type"]

/** @internal */
export const tables = {
  tenants: "tenants",
  apiKeys: "api_keys",
  usage: "usage_counters",
  batches: "batches",
  credentials: "credentials",
  recipients: "recipients",
  events: "events",
  deliveries: "webhook_deliveries",
  webhooks: "webhook_endpoints",
  idempotency: "idempotency_keys",
  rateLimits: "rate_limits",
  audit: "audit_log",
  statusLists: "status_lists",
  jobs: "jobs",
  journal: "anchor_journal",
  emailDeliveries: "email_deliveries",
  claimTokens: "claim_tokens"
} as const

/**
 * Runs `f` under the store's lock (or inside the current transaction, which holds it). A throw
 * is a defect, as a constraint violation is on Postgres.
 *
 * @internal
 */
export const locked = <A>(store: Store, f: () => A): Effect.Effect<A> => withLock(store, Effect.sync(f))

/** A deep copy: what goes into a table and what comes out of it. @internal */
export const copy = <T>(value: T): T => structuredClone(value)

/**
 * A JSON value as it comes back from a `json` column: `undefined` members dropped, `-0` → `0`.
 *
 * @internal
 */
export const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** Ascending by time, then by id (ids compare as in the `C` collation). @internal */
export const ascending = <T>(time: (t: T) => Date, id: (t: T) => string) => (a: T, b: T): number => {
  const d = time(a).getTime() - time(b).getTime()
  return d !== 0 ? d : id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0
}

/** Descending by time, then by id. @internal */
export const descending = <T>(time: (t: T) => Date, id: (t: T) => string) => {
  const asc = ascending(time, id)
  return (a: T, b: T): number => asc(b, a)
}

/** Throws the defect a unique violation is. @internal */
export const duplicate = (table: string, key: string): never => {
  throw new Error(`duplicate key in ${table}: ${key}`)
}

/**
 * The foreign key every tenant-owned table has on Postgres: a row for an unknown tenant is a
 * defect there, so it is one here.
 *
 * @internal
 */
export const requireTenant = (store: Store, tenantId: string): void => {
  const tenants = store.table(tables.tenants, () => new Map<string, unknown>())
  if (!tenants.has(tenantId)) throw new Error(`foreign key violation: no tenant ${tenantId}`)
}

/**
 * The foreign key to `credentials` on Postgres. @internal
 */
export const requireCredential = (store: Store, credentialId: string): void => {
  const credentials = store.table(tables.credentials, () => new Map<string, unknown>())
  if (!credentials.has(credentialId)) throw new Error(`foreign key violation: no credential ${credentialId}`)
}
