/**
 * `StatusSlotStore` in memory: per list an allocation bitmap and the revocation bits.
 *
 * @internal
 */
import { Effect, Option } from "effect"
import type { Service, Slot } from "../../Credentials/StatusSlotStore.js"
import { MemoryStore } from "../../Transactor.js"
import { markTaken, pickFree } from "../statusSlots.js"
import { locked, requireTenant, tables } from "./store.js"

interface List {
  readonly tenantId: string
  readonly listId: number
  readonly size: number
  readonly allocated: Uint8Array
  allocatedCount: number
  bits: Uint8Array
  updatedAt: Date
}

/** @internal */
export const make: Effect.Effect<Service, never, MemoryStore> = Effect.map(MemoryStore, (store) => {
  const lists = store.table(tables.statusLists, () => new Map<string, List>())
  const keyOf = (tenantId: string, listId: number) => `${tenantId}|${listId}`
  const listsOf = (tenantId: string) =>
    [...lists.values()].filter((l) => l.tenantId === tenantId).sort((a, b) => a.listId - b.listId)

  return {
    allocate: (tenantId, count, listSize) =>
      locked(store, () => {
        if (count <= 0) return []
        requireTenant(store, tenantId)
        if (listSize < 1) throw new Error(`status list size must be positive: ${listSize}`)
        const out: Array<Slot> = []
        const take = (list: List) => {
          const picked = pickFree(list.allocated, list.size, count - out.length)
          markTaken(list.allocated, picked)
          list.allocatedCount += picked.length
          for (const index of picked) out.push({ listId: list.listId, index })
        }
        const existing = listsOf(tenantId)
        for (const list of existing) {
          if (out.length >= count) break
          if (list.allocatedCount < list.size) take(list)
        }
        let next = (existing.at(-1)?.listId ?? 0) + 1
        while (out.length < count) {
          const list: List = {
            tenantId,
            listId: next++,
            size: listSize,
            allocated: new Uint8Array(Math.ceil(listSize / 8)),
            allocatedCount: 0,
            bits: new Uint8Array(Math.ceil(listSize / 8)),
            updatedAt: new Date()
          }
          lists.set(keyOf(tenantId, list.listId), list)
          take(list)
        }
        return out
      }),
    set: (tenantId, slot, at) =>
      locked(store, () => {
        const list = lists.get(keyOf(tenantId, slot.listId))
        if (list === undefined || slot.index < 0 || slot.index >= list.size) return
        const byte = slot.index >> 3
        const mask = 0x80 >> (slot.index & 7)
        if ((list.bits[byte]! & mask) !== 0) return
        const bits = list.bits.slice()
        bits[byte] = bits[byte]! | mask
        list.bits = bits
        list.updatedAt = at
      }),
    bits: (tenantId, listId) =>
      locked(store, () =>
        Option.map(
          Option.fromNullable(lists.get(keyOf(tenantId, listId))),
          (l) => ({ bits: l.bits.slice(), updatedAt: new Date(l.updatedAt.getTime()) })
        )),
    lists: (tenantId) => locked(store, () => listsOf(tenantId).map((l) => l.listId))
  }
})
