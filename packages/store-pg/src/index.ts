/**
 * @since 0.1.0
 */
export * as Envelope from "./Envelope.js"
export * as PgAnchorJournal from "./PgAnchorJournal.js"
export * as PgAuditLog from "./PgAuditLog.js"
export * as PgBatchStore from "./PgBatchStore.js"
export * as PgEmailDeliveryStore from "./PgEmailDeliveryStore.js"
export * as PgEventStore from "./PgEventStore.js"
export * as PgIdempotencyStore from "./PgIdempotencyStore.js"
export * as PgJobQueue from "./PgJobQueue.js"
export * as PgKeyVault from "./PgKeyVault.js"
export * as PgRateLimiter from "./PgRateLimiter.js"
export * as PgStatusListStore from "./PgStatusListStore.js"
export * as PgStore from "./PgStore.js"
export * as PgStores from "./PgStores.js"
export * as PgTenantStore from "./PgTenantStore.js"
export * as PgTransactor from "./PgTransactor.js"
export * as PgWebhookStore from "./PgWebhookStore.js"
