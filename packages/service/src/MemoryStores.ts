/**
 * Every storage port in memory, over one `MemoryStore`: a transaction (`Transactor`) covers
 * every table, as one SQL transaction covers every repository of `@sigil/store-pg`. The
 * adapters mirror the Postgres ones (ordering, scoping, dedupe, expiry, foreign keys); the
 * contract suites in `test/contracts/` hold both to the same behaviour.
 *
 * The key vault is `KeyVault.layerMemory` (plain keys, outside transactions): core stays free
 * of `node:crypto`, and the envelope-encrypted vault lives in `@sigil/store-pg`.
 *
 * @since 0.1.0
 */
import { Layer } from "effect"
import * as AnchorJournal from "./Batches/AnchorJournal.js"
import * as AuditLog from "./Access/AuditLog.js"
import * as BatchStore from "./Batches/BatchStore.js"
import * as EmailDeliveryStore from "./Email/EmailDeliveryStore.js"
import * as EventStore from "./Events/EventStore.js"
import * as IdempotencyStore from "./Access/IdempotencyStore.js"
import * as anchorJournal from "./internal/memory/anchorJournal.js"
import * as JobQueue from "./Pipeline/JobQueue.js"
import * as KeyVault from "./Tenants/KeyVault.js"
import * as RateLimiter from "./Access/RateLimiter.js"
import * as StatusSlotStore from "./Credentials/StatusSlotStore.js"
import * as TenantStore from "./Tenants/TenantStore.js"
import * as ChangeFeed from "./ChangeFeed.js"
import * as Transactor from "./Transactor.js"
import * as WebhookEndpointStore from "./Webhooks/WebhookEndpointStore.js"

/**
 * The services every store layer provides (the memory one adds `Transactor.MemoryStore`).
 *
 * @since 0.1.0
 * @category models
 */
export type Ports =
  | Transactor.Transactor
  | TenantStore.TenantStore
  | BatchStore.BatchStore
  | EventStore.EventStore
  | WebhookEndpointStore.WebhookEndpointStore
  | IdempotencyStore.IdempotencyStore
  | RateLimiter.RateLimiter
  | AuditLog.AuditLog
  | StatusSlotStore.StatusSlotStore
  | JobQueue.JobQueue
  | AnchorJournal.AnchorJournal
  | EmailDeliveryStore.EmailDeliveryStore
  | KeyVault.KeyVault
  | ChangeFeed.ChangeFeed

/**
 * The anchor journal in the shared memory store (core's `AnchorJournal.layerMemory` keeps its
 * own array, outside transactions).
 *
 * @since 0.1.0
 * @category layers
 */
export const anchorJournalLayer: Layer.Layer<AnchorJournal.AnchorJournal, never, Transactor.MemoryStore> = Layer.effect(
  AnchorJournal.AnchorJournal,
  anchorJournal.make
)

/**
 * Every port in memory, fresh each time the layer is built.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Ports | Transactor.MemoryStore> = Layer.mergeAll(
  TenantStore.layerMemory,
  BatchStore.layerMemory,
  EventStore.layerMemory,
  WebhookEndpointStore.layerMemory,
  IdempotencyStore.layerMemory,
  RateLimiter.layerMemory,
  AuditLog.layerMemory,
  StatusSlotStore.layerMemory,
  JobQueue.layerMemory,
  EmailDeliveryStore.layerMemory,
  anchorJournalLayer,
  ChangeFeed.layerLocal
).pipe(Layer.provideMerge(Transactor.layerMemory), Layer.merge(KeyVault.layerMemory))
