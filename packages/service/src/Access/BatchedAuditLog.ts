/**
 * The audit log without a store write per read: records of reads (`GET`, `HEAD`) wait in the
 * process and are written together, every `flushMs` or as soon as `maxBatch` are waiting;
 * records of every other call (a call that can change state) are written before its answer, as
 * before. The layer writes what waits when it closes, so a graceful shutdown loses nothing.
 *
 * The bound, tested with a real SIGKILL (packages/server/test/AuditBound.test.ts): a process
 * killed outright loses the records of the reads it answered in its last `flushMs` (at most
 * `maxBatch` of them), never the record of a call that changed state.
 *
 * @since 0.1.0
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { AuditLog, type Entry, type Service } from "./AuditLog.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly flushMs: number
  readonly maxBatch: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_OPTIONS: Options = { flushMs: 1_000, maxBatch: 500 }

const READS = new Set(["GET", "HEAD"])

/**
 * The log over `store`, and `flush` to write what waits.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (store: Service, options: Options = DEFAULT_OPTIONS) => {
  let waiting: Array<Entry> = []
  const flush = Effect.suspend(() => {
    if (waiting.length === 0) return Effect.void
    const batch = waiting
    waiting = []
    return store.recordAll(batch)
  })
  const log: Service = {
    ...store,
    record: (entry) =>
      READS.has(entry.method)
        ? Effect.suspend(() => {
          waiting.push(entry)
          return waiting.length >= options.maxBatch ? flush : Effect.void
        })
        : store.record(entry),
    // Listing reads the store: what waits is written first, so a tenant sees its own reads.
    list: (tenantId, query) => Effect.zipRight(flush, store.list(tenantId, query))
  }
  return { log, flush, waiting: () => waiting.length }
}

/**
 * Decorates the `AuditLog` of the layer below.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = DEFAULT_OPTIONS): Layer.Layer<AuditLog, never, AuditLog> =>
  Layer.scoped(
    AuditLog,
    Effect.gen(function*() {
      const batched = make(yield* AuditLog, options)
      yield* Effect.addFinalizer(() => Effect.ignore(batched.flush))
      yield* batched.flush.pipe(
        Effect.catchAllCause((cause) => Effect.logError("audit log: writing a batch of reads failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.millis(options.flushMs))),
        Effect.forkScoped
      )
      return batched.log
    })
  )
