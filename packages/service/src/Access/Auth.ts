/**
 * Authentication of API calls (issuer-api.md "Authentication", decisions §3, §6): a bearer API
 * key gives a principal — the key's tenant and environment, which scope every query.
 *
 * @since 0.1.0
 */
import { Effect, Option, Schema } from "effect"
import * as ApiKeys from "./ApiKeys.js"
import * as Cidr from "./Cidr.js"
import type { Environment } from "../Tenants/Plans.js"
import * as Plans from "../Tenants/Plans.js"
import type { ApiKey, Tenant } from "../Tenants/TenantStore.js"
import { TenantStore } from "../Tenants/TenantStore.js"

/**
 * Who is calling: a tenant, through one of its keys, in the key's environment.
 *
 * @since 0.1.0
 * @category models
 */
export interface Principal {
  readonly tenant: Tenant
  readonly apiKey: ApiKey
  readonly environment: Environment
}

/** @since 0.1.0 @category errors */
export class ApiKeyMissing extends Schema.TaggedError<ApiKeyMissing>()("ApiKeyMissing", {
  message: Schema.String
}) {}
/** @since 0.1.0 @category errors */
export class ApiKeyInvalid extends Schema.TaggedError<ApiKeyInvalid>()("ApiKeyInvalid", {
  message: Schema.String
}) {}
/** @since 0.1.0 @category errors */
export class ApiKeyRevoked extends Schema.TaggedError<ApiKeyRevoked>()("ApiKeyRevoked", {
  message: Schema.String
}) {}
/** @since 0.1.0 @category errors */
export class IpNotAllowed extends Schema.TaggedError<IpNotAllowed>()("IpNotAllowed", {
  message: Schema.String
}) {}
/**
 * A feature the tenant's plan does not include (decisions §6).
 *
 * @since 0.1.0
 * @category errors
 */
export class TierRequired extends Schema.TaggedError<TierRequired>()("TierRequired", {
  message: Schema.String
}) {}
/**
 * A test key on a route only live keys may use (none in v1.0.0; the check exists).
 *
 * @since 0.1.0
 * @category errors
 */
export class EnvironmentMismatch extends Schema.TaggedError<EnvironmentMismatch>()("EnvironmentMismatch", {
  message: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export type AuthenticationError = ApiKeyMissing | ApiKeyInvalid | ApiKeyRevoked | IpNotAllowed | TierRequired

/**
 * Authenticates a request from its `Authorization` header and source address.
 *
 * @since 0.1.0
 * @category authentication
 */
export const authenticate = (request: {
  readonly authorization: string | undefined
  readonly address: string | undefined
}): Effect.Effect<Principal, AuthenticationError, TenantStore> =>
  Effect.gen(function*() {
    const header = request.authorization?.trim()
    if (header === undefined || header === "") {
      return yield* new ApiKeyMissing({ message: "The Authorization header is missing: send `Authorization: Bearer <API key>`." })
    }
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    const key = match?.[1]
    const environment = key === undefined ? undefined : ApiKeys.parse(key)
    if (key === undefined || environment === undefined) {
      return yield* new ApiKeyInvalid({ message: "The API key is malformed: expected `Bearer sigil_test_…` or `Bearer sigil_live_…`." })
    }
    const secretHash = ApiKeys.hash(key)
    const found = yield* Effect.flatMap(TenantStore, (store) => store.findApiKey(secretHash))
    if (Option.isNone(found) || found.value.apiKey.environment !== environment) {
      return yield* new ApiKeyInvalid({ message: "The API key is not known." })
    }
    const { apiKey, tenant } = found.value
    if (apiKey.revokedAt !== undefined) return yield* new ApiKeyRevoked({ message: "The API key has been revoked." })
    if (!Cidr.allows(tenant.ipAllowlist, request.address)) {
      return yield* new IpNotAllowed({ message: "The request's source address is not on the key's IP allowlist." })
    }
    if (environment === "live" && !Plans.limits[tenant.plan].liveEnvironment) {
      return yield* new TierRequired({ message: `The ${tenant.plan} plan has no live environment: use a test key or upgrade.` })
    }
    return { tenant, apiKey, environment }
  })

/**
 * Fails with `EnvironmentMismatch` unless the principal uses a live key.
 *
 * @since 0.1.0
 * @category authentication
 */
export const requireLive = (principal: Principal): Effect.Effect<void, EnvironmentMismatch> =>
  principal.environment === "live"
    ? Effect.void
    : Effect.fail(new EnvironmentMismatch({ message: "This operation needs a live API key." }))
