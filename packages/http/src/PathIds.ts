/**
 * Ids in paths. The contract's path parameters are plain strings; an id that does not have the
 * resource's shape cannot exist, so it answers the resource's 404 rather than a 400.
 *
 * @since 0.1.0
 */
import { BatchNotFound } from "@sigil/service/Batches"
import { CredentialNotFound } from "@sigil/service/Credentials"
import * as Ids from "@sigil/core/Ids"
import { TenantNotFound, ApiKeyNotFound } from "@sigil/service/Tenants"
import { WebhookNotFound } from "@sigil/service/Webhooks"
import { Effect, Schema } from "effect"

// Messages quote the id; a path segment can be anything, so only its start.
const shown = (id: string) => (id.length > 64 ? `${id.slice(0, 64)}…` : id)

const parser = <A extends string, I, E>(schema: Schema.Schema<A, I>, notFound: (id: string) => E) => {
  const is = Schema.is(schema)
  return (id: string): Effect.Effect<A, E> => (is(id) ? Effect.succeed(id) : Effect.fail(notFound(shown(id))))
}

/**
 * @since 0.1.0
 * @category parsing
 */
export const batch = parser(Ids.BatchId, (id) => new BatchNotFound({ id }))

/**
 * @since 0.1.0
 * @category parsing
 */
export const credential = parser(Ids.CredentialId, (id) => new CredentialNotFound({ id }))

/**
 * @since 0.1.0
 * @category parsing
 */
export const webhook = parser(Ids.WebhookId, (id) => new WebhookNotFound({ id }))

/**
 * @since 0.1.0
 * @category parsing
 */
export const tenant = parser(Ids.TenantId, (id) => new TenantNotFound({ id }))

/**
 * @since 0.1.0
 * @category parsing
 */
export const apiKey = parser(Ids.ApiKeyId, (id) => new ApiKeyNotFound({ id }))
