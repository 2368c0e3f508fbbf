/**
 * Delivering webhooks (decisions §5): one attempt of one delivery, signed per Standard Webhooks
 * with the event id as `webhook-id` (stable across retries, so receivers can deduplicate).
 *
 * - any 2xx: delivered;
 * - `410 Gone`: the endpoint is disabled at once and its pending deliveries cancelled;
 * - anything else (another status, a timeout, a refused address): retried on the schedule —
 *   5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±10 % — then failed;
 * - an endpoint whose deliveries have all failed for 5 days is disabled (`active: false`);
 * - a deleted or disabled endpoint gets nothing more: its delivery is cancelled.
 *
 * @since 0.1.0
 */
import { Effect, Option, Redacted } from "effect"
import type { EventStore as EventStoreTag } from "../Events/EventStore.js"
import { EventStore } from "../Events/EventStore.js"
import * as Events from "../Events.js"
import type { DeliveryId } from "@sigil/core/Ids"
import { JobQueue } from "../Pipeline/JobQueue.js"
import * as WebhookSignature from "./WebhookSignature.js"
import { WebhookEndpointStore } from "./WebhookEndpointStore.js"
import { WebhookSender } from "./WebhookSender.js"
import * as Jobs from "../Pipeline/Jobs.js"

/**
 * The default delays before the 2nd, 3rd, … attempt.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_SCHEDULE_MS: ReadonlyArray<number> = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000
]

/**
 * How long an endpoint may fail every delivery before it is disabled.
 *
 * @since 0.1.0
 * @category constants
 */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000

/**
 * @since 0.1.0
 * @category models
 */
export type Outcome = "delivered" | "retrying" | "failed" | "cancelled" | "skipped"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly schedule: ReadonlyArray<number>
  /** In [0, 1): the jitter of the next delay (±10 %). */
  readonly random: number
}

const cancel = (id: DeliveryId, now: Date) =>
  Effect.flatMap(EventStore, (s) =>
    s.recordAttempt(id, { at: now, statusCode: undefined, error: "the endpoint was deleted or disabled", status: "cancelled", nextAttemptAt: undefined }))

/**
 * Makes one attempt of a pending delivery and schedules the next one if it fails.
 *
 * @since 0.1.0
 * @category operations
 */
export const deliver = (
  id: DeliveryId,
  now: Date,
  options: Options
): Effect.Effect<Outcome, never, EventStoreTag | WebhookEndpointStore | WebhookSender | JobQueue> =>
  Effect.gen(function*() {
    const events = yield* EventStore
    const webhooks = yield* WebhookEndpointStore
    const delivery = yield* events.delivery(id)
    if (Option.isNone(delivery) || delivery.value.status !== "pending") return "skipped" as const
    const endpoint = yield* webhooks.byId(delivery.value.endpointId)
    const secret = yield* webhooks.secret(delivery.value.endpointId)
    if (Option.isNone(endpoint) || !endpoint.value.active || Option.isNone(secret)) {
      yield* cancel(id, now)
      return "cancelled" as const
    }
    const event = yield* events.event(delivery.value.eventId)
    if (Option.isNone(event)) return yield* Effect.die(new Error(`delivery ${id} has no event`))
    const body = JSON.stringify(Events.envelope(event.value))
    const headers = {
      "content-type": "application/json",
      "user-agent": "Sigil-Webhooks/1.0",
      ...WebhookSignature.headers(Redacted.value(secret.value), event.value.id, now, body)
    }
    const result = yield* Effect.flatMap(WebhookSender, (t) => t.post(endpoint.value.url, headers, body)).pipe(Effect.either)
    const status = result._tag === "Right" ? result.right.status : undefined
    const error = result._tag === "Left" ? result.left.message : status !== undefined && (status < 200 || status >= 300) ? `HTTP ${status}` : undefined

    if (status !== undefined && status >= 200 && status < 300) {
      yield* events.recordAttempt(id, { at: now, statusCode: status, error: undefined, status: "delivered", nextAttemptAt: undefined })
      yield* webhooks.recordSuccess(endpoint.value.id, now)
      return "delivered" as const
    }
    if (status === 410) {
      yield* events.recordAttempt(id, { at: now, statusCode: status, error: "410 Gone: endpoint disabled", status: "failed", nextAttemptAt: undefined })
      yield* webhooks.disable(endpoint.value.id, now, "the endpoint answered 410 Gone")
      yield* events.cancelPending(endpoint.value.id)
      return "failed" as const
    }
    const failing = yield* webhooks.recordFailure(endpoint.value.id, now)
    const since = Option.flatMap(failing, (e) => Option.fromNullable(e.failingSince))
    if (Option.isSome(since) && now.getTime() - since.value.getTime() >= DISABLE_AFTER_MS) {
      yield* events.recordAttempt(id, { at: now, statusCode: status, error, status: "failed", nextAttemptAt: undefined })
      yield* webhooks.disable(endpoint.value.id, now, "every delivery failed for 5 days")
      yield* events.cancelPending(endpoint.value.id)
      return "failed" as const
    }
    const delay = options.schedule[delivery.value.attempts]
    if (delay === undefined) {
      yield* events.recordAttempt(id, { at: now, statusCode: status, error, status: "failed", nextAttemptAt: undefined })
      return "failed" as const
    }
    const next = new Date(now.getTime() + Math.round(delay * (0.9 + 0.2 * options.random)))
    yield* events.recordAttempt(id, { at: now, statusCode: status, error, status: "pending", nextAttemptAt: next })
    yield* Jobs.enqueue(Jobs.DeliverWebhook.make({ deliveryId: id }), now, {
      runAt: next,
      dedupeKey: `deliver:${id}:${delivery.value.attempts + 1}`
    })
    return "retrying" as const
  })
