/**
 * Every storage contract at once, for a layer that provides every port (the memory stores,
 * `@sigil/store-pg` on PGlite or Postgres).
 */
import type { Layer } from "effect"
import type { Ports } from "../src/MemoryStores.js"
import { anchorJournalContract } from "./AnchorJournal.contract.js"
import { auditLogContract } from "./AuditLog.contract.js"
import { batchStoreContract } from "./BatchStore.contract.js"
import { emailDeliveryStoreContract } from "./EmailDeliveryStore.contract.js"
import { eventStoreContract } from "./EventStore.contract.js"
import { idempotencyStoreContract } from "./IdempotencyStore.contract.js"
import { jobQueueContract } from "./JobQueue.contract.js"
import { keyVaultContract } from "./KeyVault.contract.js"
import { rateLimiterContract } from "./RateLimiter.contract.js"
import { statusListStoreContract } from "./StatusSlotStore.contract.js"
import { tenantStoreContract } from "./TenantStore.contract.js"
import { transactorContract } from "./Transactor.contract.js"
import { webhookStoreContract } from "./WebhookEndpointStore.contract.js"

/**
 * Registers one suite per port. `stores` is built once per suite, so each suite must start
 * from empty tables (a fresh memory store; truncated tables on Postgres).
 */
export const storeContracts = <E>(name: string, stores: Layer.Layer<Ports, E>): void => {
  transactorContract(name, stores)
  tenantStoreContract(name, stores)
  batchStoreContract(name, stores)
  eventStoreContract(name, stores)
  webhookStoreContract(name, stores)
  idempotencyStoreContract(name, stores)
  rateLimiterContract(name, stores)
  auditLogContract(name, stores)
  statusListStoreContract(name, stores)
  jobQueueContract(name, stores)
  anchorJournalContract(name, stores)
  emailDeliveryStoreContract(name, stores)
  keyVaultContract(name, stores)
}
