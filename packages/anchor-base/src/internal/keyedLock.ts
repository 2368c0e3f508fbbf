/**
 * One permit per key (a sender address on a chain): nonce selection, signing, recording and
 * broadcasting of one sender's transactions never interleave inside this process. Processes
 * that share a journal can still race; the confirm flow heals that (see BaseAnchor).
 */
import { Effect } from "effect"

export type KeyedLock = <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

export const make = (): KeyedLock => {
  const locks = new Map<string, Effect.Semaphore>()
  return (key, effect) =>
    Effect.suspend(() => {
      let lock = locks.get(key)
      if (lock === undefined) {
        lock = Effect.unsafeMakeSemaphore(1)
        locks.set(key, lock)
      }
      return lock.withPermits(1)(effect)
    })
}
