/**
 * `StatusSlotStore` on Postgres: per list an allocation bitmap and the published revocation
 * bits. Allocations of one tenant take turns on an advisory lock (also across processes) and
 * pick slots with `StatusSlotStore.pickFree`, as the memory adapter does; setting a bit is a
 * single `set_bit` that does nothing when the bit is already set.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { markTaken, pickFree, type Slot, StatusSlotStore } from "@sigil/service/Credentials/StatusSlotStore"
import { Effect, Layer, Option } from "effect"
import { bytes, op } from "./internal/sql.js"

interface ListRow {
  readonly list_id: number
  readonly size: number
  readonly allocated: Uint8Array
  readonly allocated_count: number
}

// Postgres numbers the bits of a bytea from the least significant bit of each byte; the lists
// number them from the most significant one.
const pgBit = (index: number) => (index & ~7) | (7 - (index & 7))

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<StatusSlotStore["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    StatusSlotStore.of({
      allocate: (tenantId, count, listSize) =>
        sql.withTransaction(Effect.gen(function*() {
          if (count <= 0) return []
          if (listSize < 1) return yield* Effect.dieMessage(`status list size must be positive: ${listSize}`)
          yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`sigil/status_lists/${tenantId}`}::text, 0))`
          const lists = yield* sql<ListRow>`SELECT list_id, size, allocated, allocated_count FROM status_lists
            WHERE tenant_id = ${tenantId} ORDER BY list_id`
          const out: Array<Slot> = []
          for (const list of lists) {
            if (out.length >= count) break
            if (list.allocated_count >= list.size) continue
            const allocated = bytes(list.allocated)
            const picked = pickFree(allocated, list.size, count - out.length)
            markTaken(allocated, picked)
            yield* sql`UPDATE status_lists SET allocated = ${allocated},
                allocated_count = allocated_count + ${picked.length}::integer
              WHERE tenant_id = ${tenantId} AND list_id = ${list.list_id}`
            for (const index of picked) out.push({ listId: list.list_id, index })
          }
          let next = (lists.at(-1)?.list_id ?? 0) + 1
          while (out.length < count) {
            const allocated = new Uint8Array(Math.ceil(listSize / 8))
            const picked = pickFree(allocated, listSize, count - out.length)
            markTaken(allocated, picked)
            yield* sql`INSERT INTO status_lists ${
              sql.insert({
                tenant_id: tenantId,
                list_id: next,
                size: listSize,
                allocated,
                allocated_count: picked.length,
                bits: new Uint8Array(Math.ceil(listSize / 8)),
                updated_at: new Date()
              })
            }`
            for (const index of picked) out.push({ listId: next, index })
            next++
          }
          return out
        })).pipe(op("PgStatusSlotStore.allocate")),
      set: (tenantId, slot, at) =>
        slot.index < 0
          ? Effect.void
          : sql`UPDATE status_lists SET bits = set_bit(bits, ${pgBit(slot.index)}::integer, 1), updated_at = ${at}
              WHERE tenant_id = ${tenantId} AND list_id = ${slot.listId}::integer
                AND ${slot.index}::integer < size AND get_bit(bits, ${pgBit(slot.index)}::integer) = 0`.pipe(
            Effect.asVoid,
            op("PgStatusSlotStore.set")
          ),
      bits: (tenantId, listId) =>
        sql<{ readonly bits: Uint8Array; readonly updated_at: Date }>`SELECT bits, updated_at FROM status_lists
          WHERE tenant_id = ${tenantId} AND list_id = ${listId}::integer`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (r) => ({ bits: bytes(r.bits), updatedAt: r.updated_at }))
          ),
          op("PgStatusSlotStore.bits")
        ),
      lists: (tenantId) =>
        sql<{ readonly list_id: number }>`SELECT list_id FROM status_lists WHERE tenant_id = ${tenantId}
          ORDER BY list_id`.pipe(Effect.map((rows) => rows.map((r) => r.list_id)), op("PgStatusSlotStore.lists"))
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<StatusSlotStore, never, SqlClient.SqlClient> = Layer.effect(StatusSlotStore, make)
