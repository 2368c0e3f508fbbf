/**
 * `WebhookEndpointStore` in memory. Secrets are kept as they are (the Postgres adapter encrypts them).
 *
 * @internal
 */
import { Effect, Option, Redacted } from "effect"
import type { WebhookId } from "@sigil/core/Ids"
import { MemoryStore } from "../../Transactor.js"
import type { Service, WebhookEndpoint } from "../../Webhooks/WebhookEndpointStore.js"
import { ascending, copy, duplicate, locked, requireTenant, tables } from "./store.js"

interface Row {
  readonly endpoint: WebhookEndpoint
  readonly secret: string
}

const endpointRow = (e: WebhookEndpoint): WebhookEndpoint => ({
  id: e.id,
  tenantId: e.tenantId,
  environment: e.environment,
  url: e.url,
  events: [...e.events],
  description: e.description,
  active: e.active,
  createdAt: e.createdAt,
  failingSince: e.failingSince,
  disabledAt: e.disabledAt,
  disabledReason: e.disabledReason
})

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const rows = store.table(tables.webhooks, () => new Map<WebhookId, Row>())
  const oldestFirst = ascending<WebhookEndpoint>((e) => e.createdAt, (e) => e.id)
  const scoped = (tenantId: string, environment: string) =>
    [...rows.values()].map((r) => r.endpoint).filter((e) => e.tenantId === tenantId && e.environment === environment)
  const update = (id: WebhookId, f: (e: WebhookEndpoint) => WebhookEndpoint) => {
    const row = rows.get(id)
    if (row === undefined) return undefined
    const endpoint = f(row.endpoint)
    rows.set(id, { ...row, endpoint })
    return endpoint
  }

  return {
    create: (endpoint, secret) =>
      locked(store, () => {
        requireTenant(store, endpoint.tenantId)
        if (rows.has(endpoint.id)) duplicate(tables.webhooks, endpoint.id)
        rows.set(endpoint.id, { endpoint: copy(endpointRow(endpoint)), secret: Redacted.value(secret) })
      }),
    list: (tenantId, environment) => locked(store, () => scoped(tenantId, environment).sort(oldestFirst).map(copy)),
    get: (tenantId, environment, id) =>
      locked(store, () =>
        Option.fromNullable(rows.get(id)?.endpoint).pipe(
          Option.filter((e) => e.tenantId === tenantId && e.environment === environment),
          Option.map(copy)
        )),
    byId: (id) => locked(store, () => Option.map(Option.fromNullable(rows.get(id)?.endpoint), copy)),
    secret: (id) => locked(store, () => Option.map(Option.fromNullable(rows.get(id)?.secret), (s) => Redacted.make(s))),
    delete: (tenantId, environment, id) =>
      locked(store, () => {
        const e = rows.get(id)?.endpoint
        if (e === undefined || e.tenantId !== tenantId || e.environment !== environment) return false
        return rows.delete(id)
      }),
    subscribers: (tenantId, environment, type) =>
      locked(store, () =>
        scoped(tenantId, environment).filter((e) => e.active && e.events.includes(type)).sort(oldestFirst).map(copy)),
    recordSuccess: (id) => locked(store, () => void update(id, (e) => ({ ...e, failingSince: undefined }))),
    recordFailure: (id, at) =>
      locked(store, () =>
        Option.map(Option.fromNullable(update(id, (e) => ({ ...e, failingSince: e.failingSince ?? at }))), copy)),
    disable: (id, at, reason) =>
      locked(store, () =>
        void update(id, (e) =>
          // The first disabling is the one that counts.
          e.disabledAt !== undefined
            ? { ...e, active: false }
            : { ...e, active: false, disabledAt: at, disabledReason: reason }))
  }
})
