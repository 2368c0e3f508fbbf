/**
 * The batches service: what `POST /batches`, `GET /batches` and `GET /batches/{id}` do.
 *
 * Creating a batch validates nothing more (the request is already decoded), reserves the
 * tenant's monthly quota, and stores the batch, its credentials, the recipients' personal data,
 * the `batch.created` event and the signing job in one transaction (decisions §4): a failure
 * anywhere leaves nothing, and a quota refusal stores nothing.
 *
 * @since 0.1.0
 */
import type { ChangeFeed } from "./ChangeFeed.js"
import { Array as Arr, Effect, Either, Option, Redacted, Schema } from "effect"
import type { Principal } from "./Access/Auth.js"
import * as BatchState from "@sigil/core/BatchState"
import type { BatchRecord, CredentialRecord, RecipientData } from "./Batches/BatchStore.js"
import { BatchStore } from "./Batches/BatchStore.js"
import * as CredentialState from "@sigil/core/CredentialState"
import * as Cursor from "./Cursor.js"
import type { JsonObject } from "@sigil/core/Document"
import * as Document from "@sigil/core/Document"
import * as Events from "./Events.js"
import type { EventStore } from "./Events/EventStore.js"
import type { BatchId } from "@sigil/core/Ids"
import * as Ids from "@sigil/core/Ids"
import type { CreateBatchRequest, CredentialInput } from "./Inputs/BatchInputs.js"
import { InvalidInput } from "./Inputs/InputErrors.js"
import { JobQueue } from "./Pipeline/JobQueue.js"
import * as Plans from "./Tenants/Plans.js"
import { Settings } from "./Settings.js"
import * as StatusList from "@sigil/core/StatusList"
import { StatusSlotStore } from "./Credentials/StatusSlotStore.js"
import { TenantStore } from "./Tenants/TenantStore.js"
import { Transactor } from "./Transactor.js"
import * as Views from "./Views.js"
import type { WebhookEndpointStore } from "./Webhooks/WebhookEndpointStore.js"
import * as Jobs from "./Pipeline/Jobs.js"

/**
 * @since 0.1.0
 * @category errors
 */
export class BatchNotFound extends Schema.TaggedError<BatchNotFound>()("BatchNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No batch ${this.id} in this tenant and environment.`
  }
}

/**
 * The plan's monthly credential quota would be exceeded; nothing was stored.
 *
 * @since 0.1.0
 * @category errors
 */
export class MonthlyQuotaExceeded extends Schema.TaggedError<MonthlyQuotaExceeded>()("MonthlyQuotaExceeded", {
  limit: Schema.Number,
  used: Schema.Number,
  requested: Schema.Number
}) {
  override get message() {
    return `This batch of ${this.requested} credentials would exceed the plan's monthly quota of ${this.limit} (${this.used} used this month).`
  }
}

/**
 * What a credential stores besides the recipient's personal data: the credential input with
 * the recipient reduced to its pseudonymous id, and the salt of its hashed name.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredContent {
  readonly recipient: { readonly id: string }
  readonly achievement: CredentialInput["achievement"]
  readonly issuanceDate: string
  readonly expirationDate?: string | undefined
  readonly evidence: CredentialInput["evidence"]
  /** The salt of the recipient's hashed name (hashed mode): fixed at creation, so signing needs no randomness. */
  readonly salt?: string | undefined
}

const storedContent = (input: CredentialInput, salt: string | undefined): JsonObject =>
  JSON.parse(JSON.stringify({
    recipient: { id: input.recipient.id },
    achievement: input.achievement,
    issuanceDate: input.issuanceDate,
    ...(input.expirationDate === undefined ? {} : { expirationDate: input.expirationDate }),
    evidence: input.evidence,
    ...(salt === undefined ? {} : { salt })
  }))

/**
 * The scope a list cursor belongs to.
 */
const cursorScope = (status: string | undefined) => `batches:${status ?? "*"}`

/**
 * @since 0.1.0
 * @category models
 */
export interface Page {
  readonly data: ReadonlyArray<Views.Batch>
  readonly next_cursor: string | null
  readonly has_more: boolean
}

/**
 * Stores a new batch (status `pending`) and queues its signing.
 *
 * @since 0.1.0
 * @category operations
 */
export const create = (
  principal: Principal,
  request: CreateBatchRequest,
  now: Date
): Effect.Effect<
  Views.Batch,
  MonthlyQuotaExceeded,
  Transactor | TenantStore | BatchStore | EventStore | WebhookEndpointStore | JobQueue | StatusSlotStore | Settings | ChangeFeed
> =>
  Effect.gen(function*() {
    const { tenant, environment } = principal
    const settings = yield* Settings
    const tenants = yield* TenantStore
    const store = yield* BatchStore
    const transactor = yield* Transactor
    const count = request.credentials.length
    const limit = Plans.limits[tenant.plan].credentialsPerMonth
    const month = Plans.monthOf(now)
    const batchId = yield* Ids.make("bat")
    const batch: BatchRecord = {
      ...BatchState.initial,
      id: batchId,
      tenantId: tenant.id,
      environment,
      credentialsCount: count,
      createdAt: now
    }
    const credentials: Array<CredentialRecord> = []
    const recipients: Array<RecipientData> = []
    for (const [position, input] of request.credentials.entries()) {
      const id = yield* Ids.make("crd")
      const salt = tenant.recipientNameMode === "hashed" ? Document.secureRandomness.salt() : undefined
      credentials.push({
        ...CredentialState.initial,
        id,
        batchId,
        tenantId: tenant.id,
        environment,
        position,
        recipientId: input.recipient.id,
        content: storedContent(input, salt),
        document: undefined,
        statusList: undefined,
        createdAt: now
      })
      recipients.push({ credentialId: id, name: input.recipient.name, email: input.recipient.email })
    }
    yield* transactor.withTransaction(Effect.gen(function*() {
      const reserved = yield* tenants.reserveCredentials(tenant.id, month, count, limit)
      if (!reserved) {
        const used = yield* tenants.credentialsIssued(tenant.id, month)
        return yield* new MonthlyQuotaExceeded({ limit, used, requested: count })
      }
      // Every credential gets its revocation slot now, so signing (and its retries) need no allocation.
      const slots = yield* Effect.flatMap(StatusSlotStore, (s) => s.allocate(tenant.id, count, StatusList.LIST_SIZE))
      yield* store.insert(batch, credentials.map((c, i) => ({ ...c, statusList: slots[i] })), recipients)
      yield* Events.emit({
        tenantId: tenant.id,
        environment,
        type: "batch.created",
        data: { batch_id: batchId, credentials_count: count, environment },
        now
      })
      // An outage of the vault or the chain must never strand a batch: pipeline jobs retry forever.
      yield* Jobs.enqueue(Jobs.SignBatch.make({ batchId }), now)
    }))
    return Views.batch(settings.publicBaseUrl, batch, undefined)
  })

/**
 * One batch of the principal's tenant and environment, with its credentials once anchored.
 *
 * @since 0.1.0
 * @category operations
 */
export const get = (
  principal: Principal,
  id: BatchId
): Effect.Effect<Views.Batch, BatchNotFound, BatchStore | Settings> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const store = yield* BatchStore
    const batch = yield* store.getBatch(principal.tenant.id, principal.environment, id)
    if (Option.isNone(batch)) return yield* new BatchNotFound({ id })
    const credentials = batch.value.status === "anchored" ? yield* store.credentialSummariesOf([id]) : undefined
    return Views.batch(settings.publicBaseUrl, batch.value, credentials)
  })

/**
 * A page of the principal's batches, newest first. A bad, forged or expired cursor, or one
 * issued for another status filter, is `invalid_field_format` on `cursor` (decisions §6).
 *
 * @since 0.1.0
 * @category operations
 */
export const list = (
  principal: Principal,
  query: { readonly cursor?: string | undefined; readonly limit: number; readonly status?: BatchState.BatchStatus | undefined },
  now: Date
): Effect.Effect<Page, InvalidInput, BatchStore | Settings> =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const store = yield* BatchStore
    const key = Redacted.value(settings.cursorKey)
    const scope = cursorScope(query.status)
    let before: { readonly createdAt: Date; readonly id: BatchId } | undefined
    if (query.cursor !== undefined) {
      const position = Cursor.decode(key, query.cursor, scope, now)
      if (Either.isLeft(position)) {
        return yield* new InvalidInput({
          code: "invalid_field_format",
          field: "cursor",
          message: `cursor: ${position.left}; pass the next_cursor of a previous page (valid 24 h)`
        })
      }
      before = { createdAt: position.right.createdAt, id: position.right.id as BatchId }
    }
    // One row more than asked tells whether another page exists.
    const rows = yield* store.listBatches(principal.tenant.id, principal.environment, {
      status: query.status,
      before,
      limit: query.limit + 1
    })
    const page = rows.slice(0, query.limit)
    const hasMore = rows.length > query.limit
    const last = page.at(-1)
    // One query for the credentials of every anchored batch of the page.
    const anchored = page.filter((b) => b.status === "anchored").map((b) => b.id)
    const summaries = yield* store.credentialSummariesOf(anchored)
    const byBatch = Arr.groupBy(summaries, (c) => c.batchId)
    const data = page.map((b) => Views.batch(settings.publicBaseUrl, b, b.status === "anchored" ? byBatch[b.id] ?? [] : undefined))
    return {
      data,
      has_more: hasMore,
      next_cursor: hasMore && last !== undefined ? Cursor.encode(key, { createdAt: last.createdAt, id: last.id, scope }, now) : null
    }
  })
