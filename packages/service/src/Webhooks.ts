/**
 * The webhooks service: register, list, delete and test endpoints (decisions §5).
 *
 * @since 0.1.0
 */
import { Effect, Option, Redacted, Schema } from "effect"
import type { Principal } from "./Access/Auth.js"
import { EventStore } from "./Events/EventStore.js"
import * as Events from "./Events.js"
import type { WebhookId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { CreateWebhookRequest } from "./Inputs/WebhookInputs.js"
import { InvalidInput } from "./Inputs/InputErrors.js"
import * as WebhookSignature from "./Webhooks/WebhookSignature.js"
import { Transactor } from "./Transactor.js"
import * as Views from "./Views.js"
import type { WebhookEndpoint } from "./Webhooks/WebhookEndpointStore.js"
import { WebhookEndpointStore } from "./Webhooks/WebhookEndpointStore.js"
import { WebhookSender } from "./Webhooks/WebhookSender.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No webhook endpoint ${this.id} in this tenant and environment.`
  }
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Created extends Views.Webhook {
  readonly signing_secret: string
}

/**
 * Registers an endpoint; the signing secret is in this answer only. A URL the SSRF policy
 * refuses is `invalid_field_format` on `url`.
 *
 * @since 0.1.0
 * @category operations
 */
export const create = (
  principal: Principal,
  request: CreateWebhookRequest,
  now: Date
): Effect.Effect<Created, InvalidInput, WebhookEndpointStore | WebhookSender> =>
  Effect.gen(function*() {
    yield* Effect.flatMap(WebhookSender, (t) => t.checkUrl(request.url)).pipe(
      Effect.mapError((e) => new InvalidInput({ code: "invalid_field_format", field: "url", message: `url: ${e.message}` }))
    )
    const secret = WebhookSignature.generateSecret()
    const endpoint: WebhookEndpoint = {
      id: yield* Ids.make("whk"),
      tenantId: principal.tenant.id,
      environment: principal.environment,
      url: request.url,
      events: request.events,
      description: request.description,
      active: true,
      createdAt: now,
      failingSince: undefined,
      disabledAt: undefined,
      disabledReason: undefined
    }
    yield* Effect.flatMap(WebhookEndpointStore, (s) => s.create(endpoint, Redacted.make(secret)))
    return { ...Views.webhook(endpoint), signing_secret: secret }
  })

/**
 * @since 0.1.0
 * @category operations
 */
export const list = (principal: Principal): Effect.Effect<{ readonly data: ReadonlyArray<Views.Webhook> }, never, WebhookEndpointStore> =>
  Effect.map(
    Effect.flatMap(WebhookEndpointStore, (s) => s.list(principal.tenant.id, principal.environment)),
    (endpoints) => ({ data: endpoints.map(Views.webhook) })
  )

/**
 * Deletes an endpoint; its pending deliveries are cancelled in the same transaction, so no
 * further event reaches it.
 *
 * @since 0.1.0
 * @category operations
 */
export const remove = (
  principal: Principal,
  id: WebhookId
): Effect.Effect<void, WebhookNotFound, Transactor | WebhookEndpointStore | EventStore> =>
  Effect.flatMap(Transactor, (t) =>
    t.withTransaction(Effect.gen(function*() {
      const deleted = yield* Effect.flatMap(WebhookEndpointStore, (s) => s.delete(principal.tenant.id, principal.environment, id))
      if (!deleted) return yield* new WebhookNotFound({ id })
      yield* Effect.flatMap(EventStore, (s) => s.cancelPending(id))
    })))

/**
 * @since 0.1.0
 * @category models
 */
export interface TestResult {
  readonly delivered: boolean
  readonly status_code: number | null
  readonly delivered_at: string
}

/**
 * Sends a synthetic `webhook.test` event to the endpoint now and reports what happened.
 *
 * @since 0.1.0
 * @category operations
 */
export const test = (
  principal: Principal,
  id: WebhookId,
  now: Date
): Effect.Effect<TestResult, WebhookNotFound, WebhookEndpointStore | WebhookSender> =>
  Effect.gen(function*() {
    const store = yield* WebhookEndpointStore
    const endpoint = yield* store.get(principal.tenant.id, principal.environment, id)
    const secret = yield* store.secret(id)
    if (Option.isNone(endpoint) || Option.isNone(secret)) return yield* new WebhookNotFound({ id })
    const body = JSON.stringify(Events.envelope({
      id: yield* Ids.make("evt"),
      type: "webhook.test",
      tenantId: principal.tenant.id,
      environment: principal.environment,
      data: { sent_at: now.toISOString(), note: "A test event from Sigil: your endpoint is reachable and can verify signatures." },
      createdAt: now
    }))
    const envelope = JSON.parse(body) as { readonly id: string }
    const headers = {
      "content-type": "application/json",
      ...WebhookSignature.headers(Redacted.value(secret.value), envelope.id, now, body)
    }
    const response = yield* Effect.flatMap(WebhookSender, (t) => t.post(endpoint.value.url, headers, body)).pipe(Effect.either)
    const status = response._tag === "Right" ? response.right.status : undefined
    return {
      delivered: status !== undefined && status >= 200 && status < 300,
      status_code: status ?? null,
      delivered_at: now.toISOString()
    }
  })
