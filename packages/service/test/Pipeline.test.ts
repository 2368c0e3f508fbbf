/**
 * The pipeline end to end in core, over the memory stores: a tenant is created, a batch is
 * accepted, the jobs run, the batch is anchored; every credential verifies with Sigil's
 * verifier resolving the tenant's DID document, profile and status list from the store; then
 * revocation and erasure behave as decisions §1–§2 say, with their events.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Principal } from "../src/Access/Auth.js"
import * as Batches from "../src/Batches.js"
import { BatchStore } from "../src/Batches/BatchStore.js"
import * as Credentials from "../src/Credentials.js"
import { EventStore } from "../src/Events/EventStore.js"
import type { BatchId, CredentialId } from "@sigil/core/Ids"
import * as BatchInputs from "../src/Inputs/BatchInputs.js"
import * as Tenants from "../src/Tenants.js"
import { TenantStore } from "../src/Tenants/TenantStore.js"
import * as Verifier from "@sigil/core/Verifier"
import * as Webhooks from "../src/Webhooks.js"
import { makePipeline } from "./helpers/pipeline.js"

const request = (n: number) =>
  BatchInputs.decodeCreateBatchRequest({
    credentials: Array.from({ length: n }, (_, i) => ({
      recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate ${i}`, email: `g${i}@example.org` },
      achievement: { name: "Diploma in Testing", description: "Thoroughly tested." },
      issuanceDate: "2025-06-30T00:00:00Z"
    }))
  })

describe("the pipeline over the memory stores", () => {
  it.live("pending → signed → anchored; credentials verify; revocation and erasure", () => {
    const pipeline = makePipeline()
    return Effect.gen(function*() {
      const created = yield* Tenants.create({ name: "Test University", plan: "starter" }, new Date(Date.now() - 5000))
      const tenant = Option.getOrThrow(yield* Effect.flatMap(TenantStore, (s) => s.get(created.id as never)))
      const key = yield* Tenants.createKey(tenant.id, "test", new Date())
      const apiKey = (yield* Effect.flatMap(TenantStore, (s) => s.apiKeys(tenant.id)))[0]!
      assert.strictEqual(apiKey.id, key.id)
      const principal: Principal = { tenant, apiKey, environment: "test" }
      const hook = yield* Webhooks.create(principal, { url: "https://hooks.example.org/in", events: ["batch.created", "batch.signed", "batch.anchored", "credential.revoked", "credential.erased"] }, new Date())

      const batch = yield* Batches.create(principal, yield* request(5), new Date())
      assert.strictEqual(batch.status, "pending")
      assert.isAbove(yield* pipeline.drain, 2)

      const anchored = yield* Batches.get(principal, batch.id as BatchId)
      assert.strictEqual(anchored.status, "anchored")
      assert.strictEqual(anchored.anchor_transaction?.chain, "devnet")
      assert.strictEqual(anchored.credentials?.length, 5)

      const records = yield* Effect.flatMap(BatchStore, (s) => s.credentialsOf(batch.id as BatchId))
      for (const record of records) {
        const result = yield* Verifier.verifyCredential(record.document)
        assert.strictEqual(result.outcome, "verified", JSON.stringify(result.steps, null, 1))
      }

      // Webhooks: one delivery per subscribed event, signed, with the event's data.
      const delivered = pipeline.transport.sent.map((s) => JSON.parse(s.body) as { type: string; data: Record<string, unknown> })
      assert.deepStrictEqual(delivered.map((e) => e.type), ["batch.created", "batch.signed", "batch.anchored"])
      assert.strictEqual((delivered[2]!.data.credentials as ReadonlyArray<unknown>).length, 5)
      assert.isTrue(pipeline.transport.sent.every((s) => s.url === hook.url && s.headers["webhook-signature"]!.startsWith("v1,")))

      // Revocation: the status list shows it to every verifier.
      const [first, second] = records
      const revoked = yield* Credentials.revoke(principal, first!.id, { reason: "Issued in error", reason_code: "issuer_error" }, new Date())
      assert.isTrue(revoked.revoked)
      const again = yield* Effect.flip(Credentials.revoke(principal, first!.id, { reason: "x", reason_code: "other" }, new Date()))
      assert.strictEqual(again._tag, "CredentialAlreadyRevoked")
      assert.strictEqual((yield* Verifier.verifyCredential(first!.document)).outcome, "revoked")
      assert.strictEqual((yield* Verifier.verifyCredential(second!.document)).outcome, "verified")

      // Erasure in hashed mode: the PII rows go, the credential still verifies.
      const erased = yield* Credentials.erase(principal, second!.id, { requester: "recipient", verified_at: "2025-07-01T00:00:00Z" }, new Date())
      assert.strictEqual(erased.verification_status_after_erasure, "verifiable")
      assert.isTrue(Option.isNone(yield* Effect.flatMap(BatchStore, (s) => s.recipient(second!.id as CredentialId))))
      const after = yield* Credentials.get(principal, second!.id as CredentialId)
      assert.isTrue(after.erased)
      assert.strictEqual((yield* Verifier.verifyCredential(after.signed_credential)).outcome, "verified")

      yield* pipeline.drain
      const events = yield* Effect.flatMap(EventStore, (s) => s.events(tenant.id, "test", { limit: 50 }))
      assert.deepStrictEqual(
        events.map((e) => e.type).reverse(),
        ["batch.created", "batch.signed", "batch.anchored", "credential.revoked", "credential.erased"]
      )
      assert.strictEqual(pipeline.transport.sent.length, 5)
    }).pipe(Effect.provide(pipeline.layer))
  })

  it.live("erasure in plain mode redacts the stored copy, which then no longer verifies", () => {
    const pipeline = makePipeline()
    return Effect.gen(function*() {
      const created = yield* Tenants.create({ name: "Plain University", plan: "starter" }, new Date(Date.now() - 5000))
      yield* Tenants.adminUpdate(created.id as never, { recipient_name_mode: "plain" })
      const tenant = Option.getOrThrow(yield* Effect.flatMap(TenantStore, (s) => s.get(created.id as never)))
      yield* Tenants.createKey(tenant.id, "test", new Date())
      const apiKey = (yield* Effect.flatMap(TenantStore, (s) => s.apiKeys(tenant.id)))[0]!
      const principal: Principal = { tenant, apiKey, environment: "test" }
      const batch = yield* Batches.create(principal, yield* request(2), new Date())
      yield* pipeline.drain
      const [record] = yield* Effect.flatMap(BatchStore, (s) => s.credentialsOf(batch.id as BatchId))
      const held = record!.document! // the recipient's own copy
      assert.strictEqual((held.credentialSubject as { name?: string }).name, "Graduate 0")
      const erased = yield* Credentials.erase(principal, record!.id, { requester: "dpo", verified_at: "2025-07-01T00:00:00Z" }, new Date())
      assert.strictEqual(erased.verification_status_after_erasure, "invalid")
      const stored = yield* Credentials.get(principal, record!.id as CredentialId)
      assert.notInclude(JSON.stringify(stored.signed_credential), "Graduate 0")
      assert.strictEqual((yield* Verifier.verifyCredential(stored.signed_credential)).failedStep, "documentHash")
      assert.strictEqual((yield* Verifier.verifyCredential(held)).outcome, "verified")
    }).pipe(Effect.provide(pipeline.layer))
  })
})
