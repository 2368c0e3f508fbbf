/**
 * Port: a tenant's revocation status lists (decisions §1 "Status lists"): which slots are
 * allocated (at random, so a slot reveals nothing about issuance order) and which are set.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, type Option } from "effect"
import type { TenantId } from "./Ids.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Slot {
  readonly listId: number
  readonly index: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /**
   * Allocates `count` distinct unused slots of the tenant, at random within its lists of
   * `listSize` entries, opening a new list when the current ones are full.
   */
  readonly allocate: (tenantId: TenantId, count: number, listSize: number) => Effect.Effect<ReadonlyArray<Slot>>
  /** Sets a slot's bit (revocation); idempotent. */
  readonly set: (tenantId: TenantId, slot: Slot, at: Date) => Effect.Effect<void>
  /** The list's bits (`listSize / 8` bytes, bit 0 = MSB of byte 0) and when it last changed. */
  readonly bits: (
    tenantId: TenantId,
    listId: number
  ) => Effect.Effect<Option.Option<{ readonly bits: Uint8Array; readonly updatedAt: Date }>>
  readonly lists: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<number>>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class StatusListStore extends Context.Tag("@sigil/core/StatusListStore")<StatusListStore, Service>() {}
