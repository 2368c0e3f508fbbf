/**
 * `IdempotencyStore` in memory.
 *
 * @internal
 */
import { Effect } from "effect"
import type { Scope, Service, StoredResponse } from "../../Access/IdempotencyStore.js"
import { MemoryStore } from "../../Transactor.js"
import { copy, json, locked, requireTenant, tables } from "./store.js"

interface Row {
  readonly fingerprint: string
  readonly response: StoredResponse | undefined
  readonly createdAt: Date
  readonly expiresAt: Date
}

const keyOf = (s: Scope) => JSON.stringify([s.tenantId, s.environment, s.method, s.path, s.key])

/**
 * @internal The lease comes from the port, so this module imports only the port's types. A
 * record's `expiresAt` is its lease's end while in flight, its ttl's once answered.
 */
export const make = (inFlightLeaseMs: number): Effect.Effect<Service, never, MemoryStore> => Effect.map(MemoryStore, (store) => {
  const rows = store.table(tables.idempotency, () => new Map<string, Row>())
  /** The row the request started at `startedAt`, while it is in flight. */
  const owned = (scope: Scope, startedAt: Date) => {
    const row = rows.get(keyOf(scope))
    return row !== undefined && row.response === undefined && row.createdAt.getTime() === startedAt.getTime()
      ? row
      : undefined
  }

  return {
    begin: (scope, fingerprint, now, _ttlMs) =>
      locked(store, () => {
        requireTenant(store, scope.tenantId)
        const row = rows.get(keyOf(scope))
        if (row === undefined || row.expiresAt.getTime() <= now.getTime()) {
          rows.set(keyOf(scope), {
            fingerprint,
            response: undefined,
            createdAt: now,
            expiresAt: new Date(now.getTime() + inFlightLeaseMs)
          })
          return { _tag: "Started" } as const
        }
        if (row.fingerprint !== fingerprint) return { _tag: "Mismatch" } as const
        if (row.response !== undefined) return { _tag: "Replay", response: copy(row.response) } as const
        return { _tag: "InFlight" } as const
      }),
    renew: (scope, startedAt, now) =>
      locked(store, () => {
        const row = owned(scope, startedAt)
        if (row === undefined) return false
        rows.set(keyOf(scope), { ...row, expiresAt: new Date(now.getTime() + inFlightLeaseMs) })
        return true
      }),
    complete: (scope, startedAt, response, ttlMs) =>
      locked(store, () => {
        const row = owned(scope, startedAt)
        if (row !== undefined) {
          rows.set(keyOf(scope), {
            ...row,
            response: { status: response.status, headers: json(response.headers), body: response.body },
            expiresAt: new Date(startedAt.getTime() + ttlMs)
          })
        }
      }),
    release: (scope, startedAt) =>
      locked(store, () => {
        if (owned(scope, startedAt) !== undefined) rows.delete(keyOf(scope))
      }),
    purgeExpired: (now) =>
      locked(store, () => {
        let n = 0
        for (const [key, row] of rows) {
          if (row.expiresAt.getTime() <= now.getTime()) {
            rows.delete(key)
            n++
          }
        }
        return n
      })
  }
})
