/**
 * The behaviour every `BatchStore` must show (memory, PGlite, Postgres).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import * as BatchStore from "../src/Batches/BatchStore.js"
import type { Hash32 } from "@sigil/core/Hex"
import * as Ids from "@sigil/core/Ids"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import { at, batchOf, documentOf, newTenant, plus, randomHex, SECOND } from "./fixtures.js"

export const batchStoreContract = <E>(
  name: string,
  stores: Layer.Layer<BatchStore.BatchStore | TenantStore.TenantStore, E>
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`BatchStore contract: ${name}`, (it) => {
    const store = BatchStore.BatchStore

    it.effect("stores a batch with its credentials and recipients", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const { batch, credentials, recipients } = batchOf(tenant.id, { n: 4 })
        yield* s.insert(batch, credentials, recipients)
        assert.deepStrictEqual(yield* s.getBatch(tenant.id, "test", batch.id), Option.some(batch))
        assert.deepStrictEqual(yield* s.batchById(batch.id), Option.some(batch))
        assert.deepStrictEqual(yield* s.credentialsOf(batch.id), credentials)
        assert.deepStrictEqual(yield* s.getCredential(tenant.id, "test", credentials[2]!.id), Option.some(credentials[2]!))
        assert.deepStrictEqual(yield* s.credentialById(credentials[1]!.id), Option.some(credentials[1]!))
        assert.deepStrictEqual(yield* s.recipient(credentials[0]!.id), Option.some(recipients[0]!))
        assert.deepStrictEqual(yield* s.recipientsOf(batch.id), recipients)
        assert.isTrue(Option.isNone(yield* s.batchById(Ids.unsafeMake("bat"))))
        assert.isTrue(Option.isNone(yield* s.credentialById(Ids.unsafeMake("crd"))))
      }))

    it.effect("summarizes credentials batch by batch in the order asked, each in position order", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const first = batchOf(tenant.id, { n: 3 })
        const second = batchOf(tenant.id, { n: 2 })
        // Inserted out of position order: the store sorts, not the caller.
        yield* s.insert(first.batch, [...first.credentials].reverse(), first.recipients)
        yield* s.insert(second.batch, second.credentials, second.recipients)
        const summary = (c: BatchStore.CredentialRecord) => ({ id: c.id, batchId: c.batchId, recipientId: c.recipientId })
        assert.deepStrictEqual(
          yield* s.credentialSummariesOf([second.batch.id, first.batch.id]),
          [...second.credentials, ...first.credentials].map(summary)
        )
        assert.deepStrictEqual(yield* s.credentialSummariesOf([first.batch.id]), first.credentials.map(summary))
        assert.deepStrictEqual(yield* s.credentialSummariesOf([Ids.unsafeMake("bat")]), [])
        assert.deepStrictEqual(yield* s.credentialSummariesOf([]), [])
      }))

    it.effect("answers None for another tenant's or environment's batch and credential", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const other = yield* newTenant()
        const { batch, credentials, recipients } = batchOf(tenant.id, { environment: "live" })
        yield* s.insert(batch, credentials, recipients)
        assert.isTrue(Option.isSome(yield* s.getBatch(tenant.id, "live", batch.id)))
        assert.isTrue(Option.isNone(yield* s.getBatch(tenant.id, "test", batch.id)))
        assert.isTrue(Option.isNone(yield* s.getBatch(other.id, "live", batch.id)))
        assert.isTrue(Option.isNone(yield* s.getCredential(tenant.id, "test", credentials[0]!.id)))
        assert.isTrue(Option.isNone(yield* s.getCredential(other.id, "live", credentials[0]!.id)))
        assert.deepStrictEqual(yield* s.listBatches(other.id, "live", { limit: 10 }), [])
        assert.deepStrictEqual(yield* s.listBatches(tenant.id, "test", { limit: 10 }), [])
      }))

    it.effect("pages newest first on (created_at, id), ties broken by id", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const t0 = at("2025-03-01T12:00:00.000Z")
        // Three instants, several batches on each: the id decides within an instant.
        const times = [t0, plus(t0, SECOND), t0, plus(t0, 2 * SECOND), plus(t0, SECOND), t0, plus(t0, SECOND)]
        const made = times.map((createdAt) => batchOf(tenant.id, { n: 1, createdAt }))
        for (const m of made) yield* s.insert(m.batch, m.credentials, m.recipients)
        const expected = made
          .map((m) => m.batch)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        const pages: Array<ReadonlyArray<BatchStore.BatchRecord>> = []
        let before: BatchStore.ListQuery["before"] = undefined
        for (;;) {
          const page: ReadonlyArray<BatchStore.BatchRecord> = yield* s.listBatches(tenant.id, "test", { limit: 3, before })
          if (page.length === 0) break
          pages.push(page)
          const last = page.at(-1)!
          before = { createdAt: last.createdAt, id: last.id }
        }
        assert.deepStrictEqual(pages.map((p) => p.length), [3, 3, 1])
        assert.deepStrictEqual(pages.flat().map((b) => b.id), expected.map((b) => b.id))
        assert.deepStrictEqual(yield* s.listBatches(tenant.id, "test", { limit: 0 }), [])
      }))

    it.effect("filters the list by status", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const made = [0, 1, 2, 3].map((i) => batchOf(tenant.id, { n: 1, createdAt: plus(at("2025-03-01T00:00:00Z"), i) }))
        for (const m of made) yield* s.insert(m.batch, m.credentials, m.recipients)
        const root = `0x${randomHex(32)}` as Hash32
        const signedAt = at("2025-03-02T00:00:00.000Z")
        for (const i of [1, 3]) {
          yield* s.saveBatchState(made[i]!.batch.id, { ...made[i]!.batch, status: "signed", merkleRoot: root, signedAt })
        }
        const signed = yield* s.listBatches(tenant.id, "test", { status: "signed", limit: 10 })
        assert.deepStrictEqual(signed.map((b) => b.id), [made[3]!.batch.id, made[1]!.batch.id])
        const pending = yield* s.listBatches(tenant.id, "test", {
          status: "pending",
          limit: 10,
          before: { createdAt: made[2]!.batch.createdAt, id: made[2]!.batch.id }
        })
        assert.deepStrictEqual(pending.map((b) => b.id), [made[0]!.batch.id])
      }))

    it.effect("saves each state of a batch", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const { batch, credentials, recipients } = batchOf(tenant.id)
        yield* s.insert(batch, credentials, recipients)
        const signed: BatchStore.BatchRecord = {
          ...batch,
          status: "signed",
          merkleRoot: `0x${randomHex(32)}` as Hash32,
          signedAt: at("2025-03-01T12:00:05.250Z")
        }
        yield* s.saveBatchState(batch.id, signed)
        assert.deepStrictEqual(yield* s.batchById(batch.id), Option.some(signed))
        const anchored: BatchStore.BatchRecord = {
          ...signed,
          status: "anchored",
          anchoredAt: at("2025-03-01T12:01:00.000Z"),
          anchor: { chain: "base-sepolia", chainId: 84532, txHash: `0x${randomHex(32)}` as Hash32, blockNumber: 123456789 }
        }
        yield* s.saveBatchState(batch.id, anchored)
        assert.deepStrictEqual(yield* s.getBatch(tenant.id, "test", batch.id), Option.some(anchored))
        const failed: BatchStore.BatchRecord = {
          ...signed,
          status: "failed",
          error: { code: "anchoring_failed", message: "rejected after 24 h" },
          failedAt: at("2025-03-02T12:00:00.000Z")
        }
        yield* s.saveBatchState(batch.id, failed)
        assert.deepStrictEqual(yield* s.batchById(batch.id), Option.some(failed))
        // Unknown batch: nothing happens.
        yield* s.saveBatchState(Ids.unsafeMake("bat"), failed)
      }))

    it.effect("saves a credential's flags, document and status slot", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const { batch, credentials, recipients } = batchOf(tenant.id)
        yield* s.insert(batch, credentials, recipients)
        const c = credentials[1]!
        const document = documentOf(1)
        yield* s.saveCredential(c.id, {
          state: { ...c, status: "signed" },
          document,
          statusList: { listId: 3, index: 131071 }
        })
        const signed = { ...c, status: "signed" as const, document, statusList: { listId: 3, index: 131071 } }
        assert.deepStrictEqual(yield* s.credentialById(c.id), Option.some(signed))

        const revokedAt = at("2025-04-01T00:00:00.000Z")
        const erasedAt = at("2025-04-02T00:00:00.000Z")
        const state = {
          status: "anchored" as const,
          revoked: true,
          erased: true,
          revocation: { reason: "Issued by mistake", reasonCode: "issuer_error" as const, revokedAt },
          erasure: {
            requester: "dpo" as const,
            verifiedAt: at("2025-04-01T23:00:00.000Z"),
            erasedAt,
            verificationStatusAfterErasure: "verifiable" as const
          }
        }
        // No document given: the stored one stays.
        yield* s.saveCredential(c.id, { state })
        assert.deepStrictEqual(yield* s.credentialById(c.id), Option.some({ ...signed, ...state }))
        // The others are untouched.
        assert.deepStrictEqual(yield* s.credentialById(credentials[0]!.id), Option.some(credentials[0]!))
      }))

    it.effect("erasure deletes the recipient's row and nothing else", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const { batch, credentials, recipients } = batchOf(tenant.id, { n: 3, documentSize: 1024 })
        yield* s.insert(batch, credentials, recipients)
        yield* s.deleteRecipient(credentials[1]!.id)
        assert.isTrue(Option.isNone(yield* s.recipient(credentials[1]!.id)))
        assert.deepStrictEqual(yield* s.recipientsOf(batch.id), [recipients[0]!, recipients[2]!])
        assert.deepStrictEqual(yield* s.credentialById(credentials[1]!.id), Option.some(credentials[1]!))
        yield* s.deleteRecipient(credentials[1]!.id)
      }))

    it.effect("keeps JSON content exactly (unicode, numbers, nulls, nesting)", () =>
      Effect.gen(function*() {
        const s = yield* store
        const tenant = yield* newTenant()
        const { batch, credentials, recipients } = batchOf(tenant.id, { n: 1, documentSize: 4096 })
        yield* s.insert(batch, credentials, recipients)
        const stored = Option.getOrThrow(yield* s.credentialById(credentials[0]!.id))
        assert.deepStrictEqual(stored.content, credentials[0]!.content)
        assert.deepStrictEqual(stored.document, credentials[0]!.document)
        assert.strictEqual(JSON.stringify(stored.content), JSON.stringify(credentials[0]!.content))
      }))
  })
}
