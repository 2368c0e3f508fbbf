/**
 * The handlers of `Credentials`: each one call into core's `Credentials`.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Credentials from "@sigil/service/Credentials"
import * as CredentialInputs from "@sigil/service/Inputs/CredentialInputs"
import { Effect } from "effect"
import * as Body from "./Body.js"
import * as Caller from "./Caller.js"
import * as Errors from "./Errors.js"
import { IssuerApi } from "./IssuerApi.js"
import * as PathIds from "./PathIds.js"

const bodyCodes = Errors.inputCodes("missing_required_field", "invalid_field_format")

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = HttpApiBuilder.group(IssuerApi, "Credentials", (handlers) =>
  handlers
    .handle("getCredential", ({ path }) =>
      PathIds.credential(path.id).pipe(
        Effect.flatMap((id) => Caller.use((principal) => Credentials.get(principal, id))),
        Errors.refail
      ))
    .handleRaw("revokeCredential", ({ path, request }) =>
      Body.decode(request, CredentialInputs.decodeRevocationRequest).pipe(
        Effect.zip(PathIds.credential(path.id)),
        Effect.flatMap(([revocation, id]) =>
          Caller.use((principal, now) => Credentials.revoke(principal, id, revocation, now))
        ),
        bodyCodes,
        Errors.refail
      ))
    .handleRaw("eraseCredential", ({ path, request }) =>
      Body.decode(request, CredentialInputs.decodeErasureRequest).pipe(
        Effect.zip(PathIds.credential(path.id)),
        Effect.flatMap(([erasure, id]) => Caller.use((principal, now) => Credentials.erase(principal, id, erasure, now))),
        bodyCodes,
        Errors.refail
      )))
