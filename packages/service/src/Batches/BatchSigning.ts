/**
 * The signing step of the pipeline (decisions §4): a `pending` batch becomes `signed` — every
 * credential built, canonicalized and signed eddsa-rdfc-2022 by the tenant's Ed25519 key (a
 * complete VC 2.0 credential already), the Merkle root computed — and the `batch.signed` event
 * and the anchoring job are stored with it, in one transaction.
 *
 * It runs as a job: safe to run twice (a batch that is no longer pending is left alone) and
 * failing with `SigningKeyUnavailable` when the vault cannot sign, so the job is retried.
 *
 * @since 0.1.0
 */
import type { ChangeFeed } from "../ChangeFeed.js"
import { Effect, Option } from "effect"
import { BatchStore } from "./BatchStore.js"
import type { StoredContent } from "../Batches.js"
import * as BatchState from "@sigil/core/BatchState"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as CredentialState from "@sigil/core/CredentialState"
import * as Document from "@sigil/core/Document"
import * as Events from "../Events.js"
import type { EventStore } from "../Events/EventStore.js"
import type { BatchId } from "@sigil/core/Ids"
import * as Issuance from "@sigil/core/Issuance"
import * as Issuers from "../Tenants/Issuers.js"
import { JobQueue } from "../Pipeline/JobQueue.js"
import { KeyVault, type SigningKeyUnavailable } from "../Tenants/KeyVault.js"
import { Settings } from "../Settings.js"
import { TenantStore } from "../Tenants/TenantStore.js"
import * as TenantDid from "@sigil/core/TenantDid"
import { Transactor } from "../Transactor.js"
import type { WebhookEndpointStore } from "../Webhooks/WebhookEndpointStore.js"
import * as Jobs from "../Pipeline/Jobs.js"

/**
 * @since 0.1.0
 * @category models
 */
export type Outcome = "signed" | "skipped"

/**
 * Signs a pending batch. `skipped` when there is nothing to do (unknown batch, already signed).
 *
 * @since 0.1.0
 * @category operations
 */
export const sign = (
  batchId: BatchId,
  now: Date
): Effect.Effect<
  Outcome,
  SigningKeyUnavailable | Issuers.NoActiveKey | Canonicalizer.CanonicalizationError,
  | Transactor
  | BatchStore
  | TenantStore
  | KeyVault
  | EventStore
  | WebhookEndpointStore
  | JobQueue
  | Settings
  | Canonicalizer.Canonicalizer
  | ChangeFeed
> =>
  Effect.gen(function*() {
    const store = yield* BatchStore
    const settings = yield* Settings
    const vault = yield* KeyVault
    const batch = yield* store.batchById(batchId)
    if (Option.isNone(batch) || batch.value.status !== "pending") return "skipped" as const
    const tenant = yield* Effect.flatMap(TenantStore, (s) => s.get(batch.value.tenantId))
    if (Option.isNone(tenant)) return yield* Effect.die(new Error(`batch ${batchId} belongs to no tenant`))
    const issuer = yield* Issuers.settings(settings.publicBaseUrl, tenant.value, yield* vault.keys(tenant.value.id))
    const credentials = yield* store.credentialsOf(batchId)
    const names = new Map((yield* store.recipientsOf(batchId)).map((r) => [r.credentialId, r.name]))
    const urls = TenantDid.urls(settings.publicBaseUrl, tenant.value.id)
    const contents = credentials.map((c): Document.Content => {
      const stored = c.content as unknown as StoredContent
      // The salt was fixed when the batch was accepted. Erased before signing: the document
      // names no one (decisions §2).
      return { ...stored, recipient: { id: stored.recipient.id, name: names.get(c.id), salt: stored.salt } }
    })
    const signed = yield* Issuance.signBatch({
      credentials: contents,
      settings: issuer.settings,
      signedAt: now,
      statusEntries: credentials.map((c) =>
        c.statusList === undefined
          ? undefined
          : { statusListCredential: `${urls.base}/status/${c.statusList.listId}`, statusListIndex: c.statusList.index }
      ),
      sign: (message) => vault.signEd25519(issuer.signingKey.keyId, message).pipe(
        Effect.catchTag("KeyNotFound", (e) => Effect.die(e))
      )
    })
    return yield* Effect.flatMap(Transactor, (t) =>
      t.withTransaction(Effect.gen(function*() {
        // Another worker may have signed it meanwhile: the first to commit wins.
        const current = yield* store.batchById(batchId)
        if (Option.isNone(current) || current.value.status !== "pending") return "skipped" as const
        const state = BatchState.transition(
          current.value,
          BatchState.BatchEvent.Sign({ merkleRoot: signed.merkleRoot, signedAt: now })
        )
        if (state._tag === "Left") return yield* Effect.die(state.left)
        yield* Effect.forEach(credentials, (c, i) => {
          const next = CredentialState.transition(c, CredentialState.CredentialEvent.Sign())
          return next._tag === "Left"
            ? Effect.die(next.left)
            : store.saveCredential(c.id, { state: next.right, document: signed.documents[i] })
        }, { discard: true })
        yield* store.saveBatchState(batchId, state.right)
        yield* Events.emit({
          tenantId: current.value.tenantId,
          environment: current.value.environment,
          type: "batch.signed",
          data: { batch_id: batchId, merkle_root: signed.merkleRoot, signed_at: now.toISOString() },
          now
        })
        yield* Jobs.enqueue(Jobs.AnchorBatch.make({ batchId }), now)
        return "signed" as const
      })))
  })
