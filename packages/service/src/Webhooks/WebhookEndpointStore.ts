/**
 * Port: webhook endpoints of a tenant and environment, with their signing secrets (stored
 * encrypted by the Postgres adapter; returned only to the delivery worker).
 *
 * Storage failures are defects (see `Transactor`).
 *
 * @since 0.1.0
 */
import { Context, type Effect, Layer, type Option, type Redacted } from "effect"
import type { TenantId, WebhookId } from "@sigil/core/Ids"
import type { WebhookEventType } from "../Inputs/WebhookInputs.js"
import type { Environment } from "../Tenants/Plans.js"
import * as internal from "../internal/memory/webhookStore.js"
import type { MemoryStore } from "../Transactor.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface WebhookEndpoint {
  readonly id: WebhookId
  readonly tenantId: TenantId
  readonly environment: Environment
  readonly url: string
  readonly events: ReadonlyArray<WebhookEventType>
  readonly description: string | undefined
  readonly active: boolean
  readonly createdAt: Date
  /** Since when every delivery has failed; cleared by a success. */
  readonly failingSince: Date | undefined
  readonly disabledAt: Date | undefined
  readonly disabledReason: string | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly create: (endpoint: WebhookEndpoint, secret: Redacted.Redacted<string>) => Effect.Effect<void>
  /** Oldest first. */
  readonly list: (tenantId: TenantId, environment: Environment) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
  readonly get: (tenantId: TenantId, environment: Environment, id: WebhookId) => Effect.Effect<Option.Option<WebhookEndpoint>>
  /** Unscoped, for the delivery worker: `None` once deleted. */
  readonly byId: (id: WebhookId) => Effect.Effect<Option.Option<WebhookEndpoint>>
  readonly secret: (id: WebhookId) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
  /** `true` when it existed. */
  readonly delete: (tenantId: TenantId, environment: Environment, id: WebhookId) => Effect.Effect<boolean>
  /** Active endpoints of the tenant and environment subscribed to the event type. */
  readonly subscribers: (
    tenantId: TenantId,
    environment: Environment,
    type: WebhookEventType
  ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>>
  readonly recordSuccess: (id: WebhookId, at: Date) => Effect.Effect<void>
  /** Sets `failingSince` unless already set; returns the endpoint as updated. */
  readonly recordFailure: (id: WebhookId, at: Date) => Effect.Effect<Option.Option<WebhookEndpoint>>
  readonly disable: (id: WebhookId, at: Date, reason: string) => Effect.Effect<void>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class WebhookEndpointStore extends Context.Tag("@sigil/core/WebhookEndpointStore")<WebhookEndpointStore, Service>() {}

/**
 * In memory, in the shared `MemoryStore` of `Transactor.layerMemory` (so it takes part in
 * memory transactions), with the semantics of the Postgres adapter: same ordering, scoping,
 * dedupe and expiry. For tests and offline runs.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<WebhookEndpointStore, never, MemoryStore> = Layer.effect(WebhookEndpointStore, internal.make)
