/**
 * A chain that refuses a batch's transaction (decisions §4): the refusal is retried during the
 * grace period (24 h by default) and only then fails the batch, with `batch.failed`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as Anchorer from "../src/Batches/Anchorer.js"
import * as BatchAnchoring from "../src/Batches/BatchAnchoring.js"
import type { Principal } from "../src/Access/Auth.js"
import * as Batches from "../src/Batches.js"
import { BatchStore } from "../src/Batches/BatchStore.js"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import { EventStore } from "../src/Events/EventStore.js"
import type { BatchId } from "@sigil/core/Ids"
import * as BatchInputs from "../src/Inputs/BatchInputs.js"
import * as MemoryStores from "../src/MemoryStores.js"
import * as Settings from "../src/Settings.js"
import * as BatchSigning from "../src/Batches/BatchSigning.js"
import * as Tenants from "../src/Tenants.js"
import { TenantStore } from "../src/Tenants/TenantStore.js"
import * as WebhookSender from "../src/Webhooks/WebhookSender.js"

const HOUR = 3_600_000
const refusing = Layer.succeed(Anchorer.Anchorer, {
  submit: () => Effect.fail(new Anchorer.AnchorRejected({ chain: "devnet", message: "invalid sender" })),
  confirm: () => Effect.fail(new Anchorer.AnchorRejected({ chain: "devnet", message: "invalid sender" }))
})
const layer = Layer.mergeAll(
  refusing,
  Canonicalizer.layerJsonld,
  WebhookSender.layerMemory(),
  Settings.layer({
    publicBaseUrl: "https://sigil.example",
    chainFor: () => "devnet",
    cursorKey: Redacted.make(new Uint8Array(32)),
    allowPrivateWebhookUrls: true,
    anchorRejectionGraceMs: HOUR
  })
).pipe(Layer.provideMerge(MemoryStores.layer))

describe("Anchoring", () => {
  it.effect("retries a refused transaction during the grace period, then fails the batch", () =>
    Effect.gen(function*() {
      const t0 = new Date("2026-01-01T00:00:00Z")
      const created = yield* Tenants.create({ name: "U", plan: "starter" }, t0)
      const tenant = Option.getOrThrow(yield* Effect.flatMap(TenantStore, (s) => s.get(created.id as never)))
      yield* Tenants.createKey(tenant.id, "test", t0)
      const apiKey = (yield* Effect.flatMap(TenantStore, (s) => s.apiKeys(tenant.id)))[0]!
      const principal: Principal = { tenant, apiKey, environment: "test" }
      const request = yield* BatchInputs.decodeCreateBatchRequest({
        credentials: [{
          recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name: "Ada" },
          achievement: { name: "A", description: "B" },
          issuanceDate: "2025-06-30T00:00:00Z"
        }]
      })
      const batch = yield* Batches.create(principal, request, t0)
      const id = batch.id as BatchId
      assert.strictEqual(yield* BatchSigning.sign(id, t0), "signed")

      const early = yield* Effect.flip(BatchAnchoring.anchor(id, new Date(t0.getTime() + HOUR - 1)))
      assert.strictEqual(early._tag, "AnchorRejected")
      const waiting = Option.getOrThrow(yield* Effect.flatMap(BatchStore, (s) => s.batchById(id)))
      assert.strictEqual(waiting.status, "signed")

      assert.strictEqual(yield* BatchAnchoring.anchor(id, new Date(t0.getTime() + HOUR)), "failed")
      const failed = Option.getOrThrow(yield* Effect.flatMap(BatchStore, (s) => s.batchById(id)))
      assert.strictEqual(failed.status, "failed")
      assert.strictEqual(failed.error?.code, "anchor_rejected")
      assert.include(failed.error?.message ?? "", "invalid sender")
      const events = yield* Effect.flatMap(EventStore, (s) => s.events(tenant.id, "test", { limit: 10 }))
      assert.strictEqual(events[0]!.type, "batch.failed")
    }).pipe(Effect.provide(layer)))
})
