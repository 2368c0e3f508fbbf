/**
 * One permit per key (a sender address on a chain): nonce selection, signing, recording and
 * broadcasting of one sender's transactions never interleave inside this process. Processes
 * that share a journal can still race; the confirm flow heals that (see BaseAnchor).
 *
 * A key's lock is kept only while someone holds or waits for it, so the table holds the senders
 * busy at the moment, not every sender the process ever anchored for.
 */
import { Effect } from "effect"

export interface KeyedLock {
  <A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R>
  /** How many keys have a lock now. */
  readonly size: () => number
}

export const make = (): KeyedLock => {
  const locks = new Map<string, { readonly semaphore: Effect.Semaphore; users: number }>()
  const release = (key: string) =>
    Effect.sync(() => {
      const lock = locks.get(key)
      if (lock !== undefined && --lock.users === 0) locks.delete(key)
    })
  const withLock = <A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend(() => {
        let lock = locks.get(key)
        if (lock === undefined) {
          lock = { semaphore: Effect.unsafeMakeSemaphore(1), users: 0 }
          locks.set(key, lock)
        }
        lock.users++
        return restore(lock.semaphore.withPermits(1)(effect)).pipe(Effect.ensuring(release(key)))
      })
    )
  return Object.assign(withLock, { size: () => locks.size })
}
