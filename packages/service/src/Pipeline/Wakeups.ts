/**
 * A broadcast wake-up for `JobQueue` adapters: `ticket` takes the next signal's ticket,
 * `notify` wakes every holder of the current one. Taking the ticket *before* looking for work
 * and waiting on it after closes the gap in which a signal would otherwise be missed.
 *
 * @since 0.1.0
 */
import { Deferred, type Duration, Effect, FiberId } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface WakeSignal {
  readonly notify: Effect.Effect<void>
  /** The next wake-up after this call: waiting on it returns on that signal or after the timeout. */
  readonly ticket: Effect.Effect<(timeout: Duration.DurationInput) => Effect.Effect<void>>
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = (): WakeSignal => {
  let current = Deferred.unsafeMake<void>(FiberId.none)
  return {
    notify: Effect.suspend(() => {
      const woken = current
      current = Deferred.unsafeMake<void>(FiberId.none)
      return Deferred.succeed(woken, undefined)
    }).pipe(Effect.asVoid),
    ticket: Effect.sync(() => {
      const held = current
      return (timeout) => Effect.asVoid(Effect.timeoutOption(Deferred.await(held), timeout))
    })
  }
}
