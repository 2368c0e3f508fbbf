/**
 * Emitting events (decisions §4): an event is appended to the outbox inside the caller's
 * transaction, with one delivery per subscribed endpoint and one delivery job per delivery.
 * Call it inside `Transactor.withTransaction` together with the change it describes.
 *
 * @since 0.1.0
 */
import * as ChangeFeed from "./ChangeFeed.js"
import type { ChangeFeed as ChangeFeedTag } from "./ChangeFeed.js"
import { Effect } from "effect"
import type { JsonObject } from "@sigil/core/Document"
import type { EventRecord } from "./Events/EventStore.js"
import { EventStore } from "./Events/EventStore.js"
import type { TenantId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { WebhookEventType } from "./Inputs/WebhookInputs.js"
import { JobQueue } from "./Pipeline/JobQueue.js"
import type { Environment } from "./Tenants/Plans.js"
import { WebhookEndpointStore } from "./Webhooks/WebhookEndpointStore.js"
import * as Jobs from "./Pipeline/Jobs.js"

/**
 * The envelope of issuer-api.md ("Events"): what a webhook receives.
 *
 * @since 0.1.0
 * @category models
 */
export interface Envelope {
  readonly id: string
  readonly type: WebhookEventType
  readonly created_at: string
  readonly tenant_id: string
  readonly data: JsonObject
}

/**
 * @since 0.1.0
 * @category views
 */
export const envelope = (event: EventRecord): Envelope => ({
  id: event.id,
  type: event.type,
  created_at: event.createdAt.toISOString(),
  tenant_id: event.tenantId,
  data: event.data
})

/**
 * Appends an event and schedules its deliveries.
 *
 * @since 0.1.0
 * @category emitting
 */
export const emit = (args: {
  readonly tenantId: TenantId
  readonly environment: Environment
  readonly type: WebhookEventType
  readonly data: JsonObject
  readonly now: Date
}): Effect.Effect<EventRecord, never, EventStore | WebhookEndpointStore | JobQueue | ChangeFeedTag> =>
  Effect.gen(function*() {
    // Every event but a test ping is a change a public document may show (a credential's page
    // and JSON, a status list): the caches of every process hear of it at the commit.
    if (args.type !== "webhook.test") yield* ChangeFeed.announce(args.tenantId)
    const events = yield* EventStore
    const subscribers = yield* Effect.flatMap(WebhookEndpointStore, (s) => s.subscribers(args.tenantId, args.environment, args.type))
    const event: EventRecord = {
      id: yield* Ids.make("evt"),
      type: args.type,
      tenantId: args.tenantId,
      environment: args.environment,
      data: args.data,
      createdAt: args.now
    }
    const deliveries = yield* events.append(event, subscribers.map((s) => s.id))
    yield* Effect.forEach(deliveries, (d) =>
      Jobs.enqueue(Jobs.DeliverWebhook.make({ deliveryId: d.id }), args.now), { discard: true })
    return event
  })
