/**
 * The handlers of `Batches`: each one call into core's `Batches`.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Batches from "@sigil/service/Batches"
import * as BatchInputs from "@sigil/service/Inputs/BatchInputs"
import { Effect } from "effect"
import * as Body from "./Body.js"
import * as Caller from "./Caller.js"
import * as Errors from "./Errors.js"
import { IssuerApi } from "./IssuerApi.js"
import * as PathIds from "./PathIds.js"

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = HttpApiBuilder.group(IssuerApi, "Batches", (handlers) =>
  handlers
    .handleRaw("createBatch", ({ request }) =>
      Body.decode(request, BatchInputs.decodeCreateBatchRequest).pipe(
        Effect.flatMap((batch) => Caller.use((principal, now) => Batches.create(principal, batch, now))),
        Errors.refail
      ))
    .handle("listBatches", ({ urlParams }) =>
      Caller.use((principal, now) => Batches.list(principal, urlParams, now)).pipe(
        Errors.inputCodes("invalid_field_format"),
        Errors.refail
      ))
    .handle("getBatch", ({ path }) =>
      PathIds.batch(path.id).pipe(
        Effect.flatMap((id) => Caller.use((principal) => Batches.get(principal, id))),
        Errors.refail
      )))
