/**
 * `Transactor` on Postgres: `sql.withTransaction`. Every repository of this package built on
 * the same client joins the transaction (the transaction's connection travels in the fiber's
 * context); a nested transaction is a savepoint.
 *
 * @since 0.1.0
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Transactor, withCommitHooks } from "@sigil/service/Transactor"
import { Effect, Layer } from "effect"

// Tells the caller's own failures apart from the transaction's (BEGIN, COMMIT), which are
// storage failures and so defects.
class Inner<E> {
  constructor(readonly error: E) {}
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Transactor["Type"], never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) =>
    Transactor.of({
      withTransaction: withCommitHooks(<A, E, R>(effect: Effect.Effect<A, E, R>) =>
        sql.withTransaction(Effect.mapError(effect, (e) => new Inner(e))).pipe(
          Effect.catchAll((e): Effect.Effect<never, E> => e instanceof Inner ? Effect.fail(e.error as E) : Effect.die(e)),
          Effect.withSpan("PgTransactor.withTransaction")
        ))
    })
)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Transactor, never, SqlClient.SqlClient> = Layer.effect(Transactor, make)
