/**
 * The behaviour every `StatusSlotStore` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import * as StatusList from "@sigil/core/StatusList"
import * as StatusSlotStore from "../src/Credentials/StatusSlotStore.js"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, newTenant, plus } from "./fixtures.js"

const distinct = (slots: ReadonlyArray<StatusSlotStore.Slot>) => new Set(slots.map((s) => `${s.listId}:${s.index}`)).size

export const statusListStoreContract = <E>(
  name: string,
  stores: Layer.Layer<StatusSlotStore.StatusSlotStore | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`StatusSlotStore contract: ${name}`, (it) => {
    const store = StatusSlotStore.StatusSlotStore

    it.effect("allocates distinct slots at random in the tenant's first list", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        assert.deepStrictEqual(yield* s.lists(tenant.id), [])
        const first = yield* s.allocate(tenant.id, 50, StatusList.LIST_SIZE)
        assert.strictEqual(first.length, 50)
        assert.strictEqual(distinct(first), 50)
        assert.isTrue(first.every((slot) => slot.listId === 1 && slot.index >= 0 && slot.index < StatusList.LIST_SIZE))
        // Random, not in issuance order: 50 draws from 131,072 are neither 0..49 nor bunched up.
        const sorted = first.map((slot) => slot.index).sort((a, b) => a - b)
        assert.isAbove(sorted.at(-1)! - sorted[0]!, 1000)
        const second = yield* s.allocate(tenant.id, 50, StatusList.LIST_SIZE)
        assert.strictEqual(distinct([...first, ...second]), 100)
        assert.deepStrictEqual(yield* s.lists(tenant.id), [1])
        assert.deepStrictEqual(yield* s.allocate(tenant.id, 0, StatusList.LIST_SIZE), [])
      }))

    it.effect("fills the open lists, then opens new ones", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const a = yield* s.allocate(tenant.id, 60, 64)
        const b = yield* s.allocate(tenant.id, 10, 64)
        assert.strictEqual(b.filter((slot) => slot.listId === 1).length, 4)
        assert.strictEqual(b.filter((slot) => slot.listId === 2).length, 6)
        // More than a whole list at once.
        const c = yield* s.allocate(tenant.id, 150, 64)
        assert.deepStrictEqual(yield* s.lists(tenant.id), [1, 2, 3, 4])
        const all = [...a, ...b, ...c]
        assert.strictEqual(distinct(all), 220)
        assert.isTrue(all.every((slot) => slot.index >= 0 && slot.index < 64))
        assert.strictEqual(all.filter((slot) => slot.listId === 4).length, 220 - 3 * 64)
        // Each tenant has its own lists.
        const other = yield* newTenant()
        assert.isTrue((yield* s.allocate(other.id, 5, 64)).every((slot) => slot.listId === 1))
      }))

    it.effect("sets a slot's bit, most significant bit first, once", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        yield* s.allocate(tenant.id, 3, 1024)
        yield* s.allocate(other.id, 3, 1024)
        const fresh = Option.getOrThrow(yield* s.bits(tenant.id, 1))
        assert.deepStrictEqual(fresh.bits, new Uint8Array(128))
        const when = at("2025-04-01T10:00:00.000Z")
        yield* s.set(tenant.id, { listId: 1, index: 9 }, when)
        yield* s.set(tenant.id, { listId: 1, index: 1023 }, when)
        const after = Option.getOrThrow(yield* s.bits(tenant.id, 1))
        assert.strictEqual(after.bits.length, 128)
        assert.strictEqual(after.bits[1], 0b0100_0000)
        assert.strictEqual(after.bits[127], 0b0000_0001)
        assert.isTrue(StatusList.isSet(after.bits, 9) && StatusList.isSet(after.bits, 1023) && !StatusList.isSet(after.bits, 8))
        assert.deepStrictEqual(after.updatedAt, when)
        // Setting it again changes nothing, not even the time.
        yield* s.set(tenant.id, { listId: 1, index: 9 }, plus(when, 60_000))
        assert.deepStrictEqual(yield* s.bits(tenant.id, 1), Option.some(after))
        // Another tenant's list with the same number is untouched.
        assert.deepStrictEqual(Option.getOrThrow(yield* s.bits(other.id, 1)).bits, new Uint8Array(128))
        assert.isTrue(Option.isNone(yield* s.bits(tenant.id, 2)))
      }))

    it.effect("concurrent allocations never share a slot", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const batches = yield* Effect.all(
          Array.from({ length: 6 }, () => s.allocate(tenant.id, 20, 64)),
          { concurrency: "unbounded" }
        )
        const all = batches.flat()
        assert.strictEqual(all.length, 120)
        assert.strictEqual(distinct(all), 120)
        assert.deepStrictEqual(yield* s.lists(tenant.id), [1, 2])
      }))
  })
}
