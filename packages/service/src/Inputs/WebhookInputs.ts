/**
 * `POST /webhooks`: an endpoint and the events it receives.
 *
 * @since 0.1.0
 */
import { Effect, Schema } from "effect"
import * as S from "../internal/inputSchemas.js"
import { decodeUnknown, type InvalidInput } from "./InputErrors.js"
import { HttpUrl } from "./InputFormats.js"

/**
 * @since 0.1.0
 * @category enumerations
 */
export const WEBHOOK_EVENT_TYPES = [
  "batch.created",
  "batch.signed",
  "batch.anchored",
  "batch.failed",
  "credential.revoked",
  "credential.erased",
  "webhook.test"
] as const

/**
 * @since 0.1.0
 * @category enumerations
 */
export const WebhookEventType = Schema.Literal(...WEBHOOK_EVENT_TYPES).annotations({
  ...S.rule({ expected: S.oneOf(WEBHOOK_EVENT_TYPES) }),
  identifier: "WebhookEventType",
  description: "A webhook event type."
})
/**
 * @since 0.1.0
 * @category enumerations
 */
export type WebhookEventType = typeof WebhookEventType.Type


const WebhookEvents = Schema.transform(
  Schema.Array(WebhookEventType).pipe(
    Schema.filter((events) => events.length >= 1 || "must contain at least one event type", {
      jsonSchema: { minItems: 1 }
    })
  ).annotations(S.rule({ expected: "a non-empty array of webhook event types" })),
  Schema.Array(Schema.typeSchema(WebhookEventType)),
  { strict: true, decode: (events) => [...new Set(events)], encode: (events) => events }
).annotations({ description: "The event types to deliver; duplicates are collapsed." })

/**
 * `POST /webhooks`.
 *
 * @since 0.1.0
 * @category requests
 */
export const CreateWebhookRequest = S.object(
  Schema.Struct({
    url: HttpUrl.annotations({ description: "Where events are delivered.", examples: ["https://hooks.example.org/sigil"] }),
    events: WebhookEvents,
    description: S.optional(S.text(500).annotations({ description: "A note for the tenant's own use." }))
  })
).annotations({ identifier: "CreateWebhookRequest", parseOptions: { errors: "all" } })
/**
 * @since 0.1.0
 * @category requests
 */
export type CreateWebhookRequest = typeof CreateWebhookRequest.Type


/**
 * @since 0.1.0
 * @category decoding
 */
export const decodeCreateWebhookRequest: (u: unknown) => Effect.Effect<CreateWebhookRequest, InvalidInput> =
  decodeUnknown(CreateWebhookRequest)
