/**
 * Port: runs several store operations as one transaction — all of them happen or none does.
 *
 * Services use it where a state change and its consequences must not be separated: a batch,
 * its credentials, its `batch.created` event and its signing job (decisions §4: "no event
 * without its change, no change without its event"). On Postgres it is the SQL transaction
 * of `@sigil/store-pg` (every repository built on the same client joins it); in memory it is
 * `MemoryStore`: one lock and a snapshot of every memory table, restored on failure.
 *
 * Storage failures are defects throughout the store ports: a request fails with 500 and a job
 * is retried; nothing half-written survives.
 *
 * @since 0.1.0
 */
import { Context, Effect, FiberRef, Layer } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Transactor extends Context.Tag("@sigil/service/Transactor")<Transactor, Service>() {}

/**
 * Runs an effect in a transaction.
 *
 * @since 0.1.0
 * @category combinators
 */
export const transactionally = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Transactor> =>
  Effect.flatMap(Transactor, (t) => t.withTransaction(effect))

/**
 * Runs `hook` once the current transaction has committed, and not at all if it rolls back;
 * outside a transaction, at once. For news of a change that others must not act on before they
 * can see it (waking the workers for a job just enqueued, telling caches a row changed). A hook
 * registered inside a savepoint that rolls back while its transaction commits still runs: hooks
 * announce, they never write, so an extra one costs a wasted look.
 *
 * @since 0.1.0
 * @category combinators
 */
export const afterCommit = (hook: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(commitHooks), (hooks) => (hooks === undefined ? hook : Effect.sync(() => void hooks.push(hook))))

/**
 * What every `Transactor` adapter wraps its transaction with, so `afterCommit` works the same on
 * all of them: the outermost transaction collects the hooks and runs them after it commits.
 *
 * @since 0.1.0
 * @category adapters
 */
export const withCommitHooks = (
  transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
): Service["withTransaction"] =>
<A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(FiberRef.get(commitHooks), (outer) => {
    if (outer !== undefined) return transaction(effect)
    const hooks: Array<Effect.Effect<void>> = []
    return Effect.tap(
      transaction(Effect.locally(effect, commitHooks, hooks)),
      () => Effect.forEach(hooks, (hook) => Effect.catchAllCause(hook, (cause) => Effect.logWarning("after-commit hook", cause)), { discard: true })
    )
  })

// The hooks of the outermost transaction the current fiber runs in; `undefined` outside one.
const commitHooks = FiberRef.unsafeMake<Array<Effect.Effect<void>> | undefined>(undefined)

/**
 * The state every memory adapter keeps its tables in, so that one transaction can cover them
 * all. A table is any value the adapter owns; `snapshot` must deep-copy it (tables are plain
 * data: maps, arrays, records, dates, byte arrays).
 *
 * @since 0.1.0
 * @category memory
 */
export class MemoryStore extends Context.Tag("@sigil/service/Transactor/MemoryStore")<MemoryStore, {
  /** The table of an adapter, created on first use. */
  readonly table: <T>(name: string, make: () => T) => T
  /** Serializes writers: memory adapters run each operation under it, transactions hold it throughout. */
  readonly lock: Effect.Semaphore
}>() {}

const copy = <T>(value: T): T => structuredClone(value)

// Whether the current fiber (and the fibers it forks) runs inside a memory transaction, which
// already holds the store's lock.
const inMemoryTransaction = FiberRef.unsafeMake(false)

/**
 * One shared memory store and its `Transactor`: a transaction holds the lock, and on failure
 * (or interruption) every table is put back as it was. A transaction inside a transaction is a
 * savepoint, as on Postgres: its failure undoes only its own writes.
 *
 * Memory adapters run each operation through `withLock`, which takes the lock unless the
 * current fiber is inside a transaction that holds it already.
 *
 * @since 0.1.0
 * @category memory
 */
export const layerMemory: Layer.Layer<Transactor | MemoryStore> = Layer.effectContext(
  Effect.gen(function*() {
    const tables = new Map<string, unknown>()
    const lock = yield* Effect.makeSemaphore(1)
    const store = MemoryStore.of({
      table: <T>(name: string, make: () => T): T => {
        if (!tables.has(name)) tables.set(name, make())
        return tables.get(name) as T
      },
      lock
    })
    // A nested transaction is a savepoint, as on Postgres: it snapshots again, and its failure
    // rolls back only its own writes (the outer transaction may catch it and go on).
    const snapshotted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.suspend(() => {
        const saved = new Map([...tables].map(([k, v]) => [k, copy(v)]))
        return effect.pipe(
          Effect.locally(inMemoryTransaction, true),
          Effect.onExit((exit) =>
            Effect.sync(() => {
              // Restore in place: adapters hold references to their table objects. Tables
              // first used inside the transaction go back to empty.
              if (exit._tag === "Failure") {
                for (const [name, value] of tables) restoreInto(value, saved.has(name) ? saved.get(name) : emptyLike(value))
              }
            })
          )
        )
      })
    const transactor = Transactor.of({
      withTransaction: withCommitHooks((effect) =>
        Effect.flatMap(
          FiberRef.get(inMemoryTransaction),
          (nested) => nested ? snapshotted(effect) : lock.withPermits(1)(snapshotted(effect))
        )
      )
    })
    return Context.make(Transactor, transactor).pipe(Context.add(MemoryStore, store))
  })
)

/**
 * Runs a memory adapter's operation under the store's lock, unless the current fiber's
 * transaction already holds it.
 *
 * @since 0.1.0
 * @category memory
 */
export const withLock = <A, E, R>(store: MemoryStore["Type"], effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(inMemoryTransaction), (held) => (held ? effect : store.lock.withPermits(1)(effect)))

const emptyLike = (value: unknown): unknown =>
  value instanceof Map ? new Map() : value instanceof Set ? new Set() : Array.isArray(value) ? [] : {}

// Tables are mutable containers the adapters keep references to, so a rollback copies the saved
// contents back into the same objects.
const restoreInto = (target: unknown, saved: unknown): void => {
  if (target instanceof Map && saved instanceof Map) {
    target.clear()
    for (const [k, v] of saved) target.set(k, v)
  } else if (Array.isArray(target) && Array.isArray(saved)) {
    target.splice(0, target.length, ...saved)
  } else if (target instanceof Set && saved instanceof Set) {
    target.clear()
    for (const v of saved) target.add(v)
  } else if (typeof target === "object" && target !== null && typeof saved === "object" && saved !== null) {
    for (const key of Object.keys(target)) delete (target as Record<string, unknown>)[key]
    Object.assign(target, saved)
  }
}
