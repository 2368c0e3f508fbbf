/**
 * Port: a tenant's revocation status lists (decisions §1 "Status lists"): which slots are
 * allocated (at random, so a slot reveals nothing about issuance order) and which are set.
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer, type Option } from "effect"
import type { TenantId } from "@sigil/core/Ids"
import * as internal from "../internal/memory/statusListStore.js"
import * as slots from "../internal/statusSlots.js"
import type { MemoryStore } from "../Transactor.js"

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
export class StatusSlotStore extends Context.Tag("@sigil/core/StatusSlotStore")<StatusSlotStore, Service>() {}

/**
 * Picks `count` distinct free slots at random (fewer when fewer are free) from an allocation
 * bitmap of `size` slots (bit `i` set = slot `i` taken; bit 0 is the most significant bit of
 * byte 0). Every adapter allocates with it, so they all allocate alike.
 *
 * @since 0.1.0
 * @category combinators
 */
export const pickFree: (
  allocated: Uint8Array,
  size: number,
  count: number,
  random?: () => number
) => Array<number> = slots.pickFree

/**
 * Marks slots taken in an allocation bitmap, in place.
 *
 * @since 0.1.0
 * @category combinators
 */
export const markTaken: (allocated: Uint8Array, indexes: ReadonlyArray<number>) => void = slots.markTaken

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<StatusSlotStore, never, MemoryStore> = Layer.effect(StatusSlotStore, internal.make)
