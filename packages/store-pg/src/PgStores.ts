/**
 * Every storage port of `@sigil/core` over one SQL client (from `PgStore`): one transaction
 * (`Transactor`) covers every repository, as in the memory stores (`MemoryStores.layer`).
 *
 * ```ts
 * const stores = PgStores.layer({ masterKey }).pipe(
 *   Layer.provideMerge(PgStore.layer({ url: databaseUrl, dataDir }))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type { PgClient } from "@effect/sql-pg"
import * as ChangeFeed from "@sigil/service/ChangeFeed"
import * as PgChangeFeed from "./PgChangeFeed.js"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { AnchorJournal } from "@sigil/service/Batches/AnchorJournal"
import type { AuditLog } from "@sigil/service/Access/AuditLog"
import type { BatchStore } from "@sigil/service/Batches/BatchStore"
import type { EmailDeliveryStore } from "@sigil/service/Email/EmailDeliveryStore"
import type { EventStore } from "@sigil/service/Events/EventStore"
import type { IdempotencyStore } from "@sigil/service/Access/IdempotencyStore"
import type { JobQueue } from "@sigil/service/Pipeline/JobQueue"
import type { KeyVault } from "@sigil/service/Tenants/KeyVault"
import type { RateLimiter } from "@sigil/service/Access/RateLimiter"
import type { StatusSlotStore } from "@sigil/service/Credentials/StatusSlotStore"
import type { TenantStore } from "@sigil/service/Tenants/TenantStore"
import type { Transactor } from "@sigil/service/Transactor"
import type { WebhookEndpointStore } from "@sigil/service/Webhooks/WebhookEndpointStore"
import { Layer, type Redacted } from "effect"
import type { InvalidMasterKey } from "./Envelope.js"
import * as PgAnchorJournal from "./PgAnchorJournal.js"
import * as PgAuditLog from "./PgAuditLog.js"
import * as PgBatchStore from "./PgBatchStore.js"
import * as PgEmailDeliveryStore from "./PgEmailDeliveryStore.js"
import * as PgEventStore from "./PgEventStore.js"
import * as PgIdempotencyStore from "./PgIdempotencyStore.js"
import * as PgJobQueue from "./PgJobQueue.js"
import * as PgKeyVault from "./PgKeyVault.js"
import * as PgRateLimiter from "./PgRateLimiter.js"
import * as PgStatusSlotStore from "./PgStatusSlotStore.js"
import * as PgTenantStore from "./PgTenantStore.js"
import * as PgTransactor from "./PgTransactor.js"
import * as PgWebhookEndpointStore from "./PgWebhookEndpointStore.js"

/**
 * The ports this package implements.
 *
 * @since 0.1.0
 * @category models
 */
export type Ports =
  | Transactor
  | TenantStore
  | BatchStore
  | EventStore
  | WebhookEndpointStore
  | IdempotencyStore
  | RateLimiter
  | AuditLog
  | StatusSlotStore
  | JobQueue
  | AnchorJournal
  | EmailDeliveryStore
  | KeyVault
  | ChangeFeed.ChangeFeed

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * The key-encryption key (`SIGIL_MASTER_KEY`) sealing tenant keys and webhook secrets:
   * 32 bytes, or their hex / base64.
   */
  readonly masterKey: Redacted.Redacted<Uint8Array | string>
  /**
   * Several processes share this database (Postgres): job wake-ups cross processes through
   * `LISTEN/NOTIFY` (`PgJobQueue.layerCrossProcess`), and so do the changes caches must hear
   * of (`PgChangeFeed`). Default off (PGlite, tests).
   */
  readonly crossProcess?: boolean | undefined
}

/**
 * Every port, over the `SqlClient` of `PgStore.layerPostgres` / `PgStore.layerPglite`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<Ports, InvalidMasterKey, SqlClient.SqlClient | PgClient.PgClient> =>
  Layer.mergeAll(
    PgTransactor.layer,
    PgTenantStore.layer,
    PgBatchStore.layer,
    PgEventStore.layer,
    PgWebhookEndpointStore.layer(options),
    PgIdempotencyStore.layer,
    PgRateLimiter.layer,
    PgAuditLog.layer,
    PgStatusSlotStore.layer,
    options.crossProcess === true ? PgJobQueue.layerCrossProcess : PgJobQueue.layer,
    options.crossProcess === true ? PgChangeFeed.layer() : ChangeFeed.layerLocal,
    PgAnchorJournal.layer,
    PgEmailDeliveryStore.layer,
    PgKeyVault.layer(options)
  )
