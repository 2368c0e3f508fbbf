/**
 * Helpers shared by the repositories: storage failures become defects, and the conversions
 * between `pg` values and core's types.
 *
 * @internal
 */
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * A repository operation: a storage failure is a defect (the port's contract), and the
 * operation gets a span named after it.
 *
 * @internal
 */
export const op = (name: string) => <A, R>(effect: Effect.Effect<A, SqlError, R>): Effect.Effect<A, never, R> =>
  effect.pipe(Effect.orDie, Effect.withSpan(name))

/** `pg` gives NULL as `null`; core's models use `undefined`. @internal */
export const opt = <T>(value: T | null | undefined): T | undefined => value ?? undefined

/** int8 and numeric come back as strings. @internal */
export const int = (value: string | number): number => typeof value === "number" ? value : Number(value)

/** A bytea as a plain `Uint8Array` (not a `Buffer`), copied. @internal */
export const bytes = (value: Uint8Array): Uint8Array => new Uint8Array(value)

/** A JSON value as the text a `json` / `jsonb` parameter takes. @internal */
export const jsonText = (value: unknown): string => JSON.stringify(value)

/** A `WITH d AS (… RETURNING 1) SELECT count(*)` result. @internal */
export interface Count {
  readonly n: number
}

/** The count a `Count` query answered. @internal */
export const countOf = (rows: ReadonlyArray<Count>): number => rows[0]?.n ?? 0
