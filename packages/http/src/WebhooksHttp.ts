/**
 * The handlers of `Webhooks`: each one call into core's `Webhooks`.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder } from "@effect/platform"
import * as WebhookInputs from "@sigil/service/Inputs/WebhookInputs"
import * as Webhooks from "@sigil/service/Webhooks"
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
export const layer = HttpApiBuilder.group(IssuerApi, "Webhooks", (handlers) =>
  handlers
    .handleRaw("createWebhook", ({ request }) =>
      Body.decode(request, WebhookInputs.decodeCreateWebhookRequest).pipe(
        Effect.flatMap((webhook) => Caller.use((principal, now) => Webhooks.create(principal, webhook, now))),
        Errors.inputCodes("missing_required_field", "invalid_field_format"),
        Errors.refail
      ))
    .handle("listWebhooks", () => Caller.use((principal) => Webhooks.list(principal)))
    .handle("deleteWebhook", ({ path }) =>
      PathIds.webhook(path.id).pipe(
        Effect.flatMap((id) => Caller.use((principal) => Webhooks.remove(principal, id))),
        Errors.refail
      ))
    // No body: `handleRaw` so that a body sent anyway is never parsed.
    .handleRaw("testWebhook", ({ path }) =>
      PathIds.webhook(path.id).pipe(
        Effect.flatMap((id) => Caller.use((principal, now) => Webhooks.test(principal, id, now))),
        Errors.refail
      )))
