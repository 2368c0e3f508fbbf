/**
 * The caller of an issuer-API request, as the handlers see it: the principal of the bearer key
 * (its tenant and environment scope every query), and the time handlers use.
 *
 * @since 0.1.0
 */
import type { Principal } from "@sigil/service/Access/Auth"
import { Clock, Context, Effect } from "effect"

/**
 * The authenticated principal of the current request. Provided to handlers by the
 * `Authentication` middleware.
 *
 * @since 0.1.0
 * @category tags
 */
export class Caller extends Context.Tag("@sigil/http/Caller")<Caller, Principal>() {}

/**
 * Now, from the Clock (tests can move it).
 *
 * @since 0.1.0
 * @category time
 */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/**
 * Runs `f` with the caller's principal and the current time: the shape of every issuer handler.
 *
 * @since 0.1.0
 * @category combinators
 */
export const use = <A, E, R>(f: (principal: Principal, now: Date) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Caller> =>
  Effect.flatMap(Effect.zip(Caller, now), ([principal, date]) => f(principal, date))
