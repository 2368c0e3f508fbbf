/**
 * The anchoring steps of the pipeline (decisions §4): a `signed` batch's root is sent on chain
 * through the `Anchorer`, and once its transaction has the configured confirmations every
 * credential gets its Merkle proof and the batch becomes `anchored`, with `batch.anchored`
 * carrying the credentials and, when the tenant has e-mail delivery on, one `send_email` job
 * per recipient with an address (`EmailDelivery`), in one transaction.
 *
 * A chain or vault that cannot be reached is an error the job retries (the batch waits); only
 * a rejection by the chain fails the batch (`batch.failed`).
 *
 * @since 0.1.0
 */
import type { ChangeFeed } from "../ChangeFeed.js"
import { hexToBytes } from "@noble/hashes/utils.js"
import { type Array as Arr, Effect, Option } from "effect"
import type { AnchorError, AnchorRejected, AnchorRequest, Status } from "./Anchorer.js"
import { Anchorer } from "./Anchorer.js"
import type { BatchRecord } from "./BatchStore.js"
import { BatchStore } from "./BatchStore.js"
import * as BatchState from "@sigil/core/BatchState"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import { ChainUnavailable } from "@sigil/core/ChainReader"
import * as Chains from "@sigil/core/Chains"
import * as CredentialState from "@sigil/core/CredentialState"
import * as Document from "@sigil/core/Document"
import * as Email from "../Email.js"
import type { EmailDeliveryStore } from "../Email/EmailDeliveryStore.js"
import * as Events from "../Events.js"
import type { EventStore } from "../Events/EventStore.js"
import type { BatchId } from "@sigil/core/Ids"
import * as Issuance from "@sigil/core/Issuance"
import * as Issuers from "../Tenants/Issuers.js"
import { JobQueue } from "../Pipeline/JobQueue.js"
import { KeyVault, type SigningKeyUnavailable } from "../Tenants/KeyVault.js"
import * as Merkle from "@sigil/core/Merkle"
import { DEFAULT_ANCHOR_REJECTION_GRACE_MS, Settings } from "../Settings.js"
import * as TenantDid from "@sigil/core/TenantDid"
import type { TenantStore } from "../Tenants/TenantStore.js"
import { Transactor } from "../Transactor.js"
import * as Views from "../Views.js"
import type { WebhookEndpointStore } from "../Webhooks/WebhookEndpointStore.js"
import * as Jobs from "../Pipeline/Jobs.js"

/**
 * What a confirmation check found: still waiting, done, or the batch failed for good.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = "submitted" | "pending" | "anchored" | "failed" | "skipped"

type Requirements =
  | Anchorer
  | Transactor
  | BatchStore
  | KeyVault
  | EventStore
  | WebhookEndpointStore
  | JobQueue
  | Settings
  | Canonicalizer.Canonicalizer
  | TenantStore
  | EmailDeliveryStore
  | ChangeFeed

const signedBatch = (batchId: BatchId) =>
  Effect.map(Effect.flatMap(BatchStore, (s) => s.batchById(batchId)), Option.filter((b) => b.status === "signed"))

const requestFor = (batch: BatchRecord) =>
  Effect.gen(function*() {
    const chain = (yield* Settings).chainFor(batch.environment)
    if (chain === undefined) {
      return yield* new ChainUnavailable({
        chain: batch.environment,
        message: `no chain is configured for the ${batch.environment} environment`
      })
    }
    return { batchId: batch.id, tenantId: batch.tenantId, chain, merkleRoot: batch.merkleRoot! } satisfies AnchorRequest
  })

/**
 * Sends a signed batch's transaction (or re-sends the recorded one) and queues its
 * confirmation.
 *
 * @since 0.1.0
 * @category operations
 */
export const anchor = (batchId: BatchId, now: Date): Effect.Effect<Outcome, AnchorError, Requirements> =>
  Effect.gen(function*() {
    const batch = yield* signedBatch(batchId)
    if (Option.isNone(batch)) return "skipped" as const
    const request = yield* requestFor(batch.value)
    const submitted = yield* Effect.flatMap(Anchorer, (a) => a.submit(request)).pipe(
      Effect.as("submitted" as const),
      Effect.catchTag("AnchorRejected", (e) => rejected(batch.value, e, now))
    )
    if (submitted === "submitted") {
      yield* Jobs.enqueue(Jobs.ConfirmAnchor.make({ batchId }), now)
    }
    return submitted
  })

/**
 * The chain refused the batch's transaction. Within the grace period the refusal is an error
 * (the job retries: an operator may fix its cause — a misconfigured chain, an empty treasury);
 * after it, the batch fails for good with `batch.failed`.
 */
const rejected = (batch: BatchRecord, error: AnchorRejected, now: Date) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const grace = settings.anchorRejectionGraceMs ?? DEFAULT_ANCHOR_REJECTION_GRACE_MS
    const since = batch.signedAt ?? batch.createdAt
    if (now.getTime() - since.getTime() < grace) return yield* Effect.fail(error)
    return yield* failBatch(batch, "anchor_rejected", `The chain kept refusing the anchoring transaction: ${error.message}`, now)
  })

/**
 * Checks a batch's transaction; once final, completes every credential's Merkle proof.
 * `pending` means "check again later".
 *
 * @since 0.1.0
 * @category operations
 */
export const confirm = (
  batchId: BatchId,
  now: Date
): Effect.Effect<
  Outcome,
  AnchorError | Canonicalizer.CanonicalizationError | SigningKeyUnavailable,
  Requirements
> =>
  Effect.gen(function*() {
    const batch = yield* signedBatch(batchId)
    if (Option.isNone(batch)) return "skipped" as const
    const request = yield* requestFor(batch.value)
    const status = yield* Effect.flatMap(Anchorer, (a) => a.confirm(request)).pipe(Effect.either)
    if (status._tag === "Left") {
      if (status.left._tag === "AnchorRejected") return yield* rejected(batch.value, status.left, now)
      return yield* Effect.fail(status.left)
    }
    if (status.right._tag === "Pending") return "pending" as const
    return yield* completeBatch(batch.value, status.right, now)
  })

const completeBatch = (
  batch: BatchRecord,
  final: Extract<Status, { _tag: "Final" }>,
  now: Date
) =>
  Effect.gen(function*() {
    const store = yield* BatchStore
    const settings = yield* Settings
    const canonicalizer = yield* Canonicalizer.Canonicalizer
    const credentials = yield* store.credentialsOf(batch.id)
    // The leaves are recomputed from the stored documents: they must still hash to the root
    // that was anchored.
    const targetHashes = yield* Effect.forEach(credentials, (c) =>
      Effect.map(canonicalizer.canonicalize(Document.withoutProof(c.document!)), Canonicalizer.hashHex))
    const root = `0x${Merkle.rootHex(Merkle.build(targetHashes.map((h) => hexToBytes(h)) as Arr.NonEmptyArray<Uint8Array>))}`
    if (root !== batch.merkleRoot) return yield* Effect.die(new Error(`batch ${batch.id}: stored documents no longer hash to ${batch.merkleRoot}`))
    const keys = yield* Effect.flatMap(KeyVault, (v) => v.keys(batch.tenantId))
    const key = Issuers.keyOfAddress(keys, final.sender)
    if (key === undefined) return yield* Effect.die(new Error(`batch ${batch.id}: sender ${final.sender} is no key of the tenant`))
    const did = TenantDid.urls(settings.publicBaseUrl, batch.tenantId).did
    const proofs = Issuance.merkleProofs({
      targetHashes,
      anchor: { chainId: final.chainId, txHash: final.txHash, created: final.blockTimestamp },
      verificationMethod: `${did}#${key.fragment}`
    })
    const chain = Chains.byChainId(final.chainId)?.name
    if (chain === undefined) return yield* Effect.die(new Error(`batch ${batch.id}: anchored on unknown chain ${final.chainId}`))
    const anchor = { chain, chainId: final.chainId, txHash: final.txHash, blockNumber: final.blockNumber }
    return yield* Effect.flatMap(Transactor, (t) =>
      t.withTransaction(Effect.gen(function*() {
        const current = yield* store.batchById(batch.id)
        if (Option.isNone(current) || current.value.status !== "signed") return "skipped" as const
        const state = BatchState.transition(
          current.value,
          BatchState.BatchEvent.Anchor({ anchor, anchoredAt: final.blockTimestamp })
        )
        if (state._tag === "Left") return yield* Effect.die(state.left)
        const anchored = yield* Effect.forEach(credentials, (c, i) => {
          const next = CredentialState.transition(c, CredentialState.CredentialEvent.Anchor())
          if (next._tag === "Left") return Effect.die(next.left)
          const record = { ...c, ...next.right, document: Issuance.withMerkleProof(c.document!, proofs[i]!) }
          return Effect.as(store.saveCredential(c.id, { state: next.right, document: record.document }), record)
        })
        yield* store.saveBatchState(batch.id, state.right)
        yield* Events.emit({
          tenantId: batch.tenantId,
          environment: batch.environment,
          type: "batch.anchored",
          data: {
            batch_id: batch.id,
            merkle_root: batch.merkleRoot!,
            anchor_transaction: { ...Views.anchorTransaction(anchor) },
            anchored_at: final.blockTimestamp.toISOString(),
            credentials: anchored.map((c) => ({ ...Views.credentialSummary(settings.publicBaseUrl, c) }))
          },
          now
        })
        // Magic-link e-mails, when the tenant has them on: queued with the state change.
        yield* Email.enqueueForBatch(batch, now)
        return "anchored" as const
      })))
  })

/**
 * Fails a batch for good, with `batch.failed`.
 *
 * @since 0.1.0
 * @category operations
 */
export const failBatch = (batch: BatchRecord, code: string, message: string, now: Date) =>
  Effect.flatMap(Transactor, (t) =>
    t.withTransaction(Effect.gen(function*() {
      const store = yield* BatchStore
      const current = yield* store.batchById(batch.id)
      if (Option.isNone(current)) return "skipped" as const
      const state = BatchState.transition(current.value, BatchState.BatchEvent.Fail({ error: { code, message }, failedAt: now }))
      if (state._tag === "Left") return "skipped" as const
      yield* store.saveBatchState(batch.id, state.right)
      yield* Events.emit({
        tenantId: batch.tenantId,
        environment: batch.environment,
        type: "batch.failed",
        data: { batch_id: batch.id, error_code: code, error_message: message, failed_at: now.toISOString() },
        now
      })
      return "failed" as const
    })))
