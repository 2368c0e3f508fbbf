/**
 * The handlers of `Tenants`: each one call into core's `Tenants`.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import * as TenantInputs from "@sigil/service/Inputs/TenantInputs"
import * as Tenants from "@sigil/service/Tenants"
import { Effect } from "effect"
import * as Body from "./Body.js"
import * as Caller from "./Caller.js"
import * as Errors from "./Errors.js"
import { IssuerApi } from "./IssuerApi.js"

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = HttpApiBuilder.group(IssuerApi, "Tenants", (handlers) =>
  handlers
    .handle("getCurrentTenant", () => Caller.use((principal, now) => Tenants.current(principal, now)))
    .handleRaw("updateCurrentTenant", ({ request }) =>
      Body.decode(request, TenantInputs.decodeTenantUpdate).pipe(
        Effect.flatMap((update) => Caller.use((principal, now) => Tenants.update(principal, update, now))),
        Errors.inputCodes("missing_required_field", "invalid_field_format"),
        Errors.refail
      )))
