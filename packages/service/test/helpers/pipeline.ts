/**
 * The core's services wired over the memory stores, the way the server wires them over
 * Postgres: a fake chain that finalizes anchors at once (sending from the tenant's real
 * address), and a verifier that resolves DIDs, profiles and status lists from the store.
 */
import { Effect, Layer, Redacted } from "effect"
import * as Anchorer from "../../src/Batches/Anchorer.js"
import * as Canonicalizer from "@sigil/core/Canonicalizer"
import * as ChainReader from "@sigil/core/ChainReader"
import * as Chains from "@sigil/core/Chains"
import * as Pipeline from "../../src/Pipeline.js"
import * as JobRunner from "../../src/Pipeline/JobRunner.js"
import * as Jobs from "../../src/Pipeline/Jobs.js"
import * as LocalIdentity from "../../src/Tenants/LocalIdentity.js"
import { KeyVault, activeKey } from "../../src/Tenants/KeyVault.js"
import * as Keys from "@sigil/core/Keys"
import * as MemoryStores from "../../src/MemoryStores.js"
import * as Settings from "../../src/Settings.js"
import * as WebhookDelivery from "../../src/Webhooks/WebhookDelivery.js"
import * as WebhookSender from "../../src/Webhooks/WebhookSender.js"

export const PUBLIC_BASE_URL = "https://sigil.example"

/** A chain that mines every anchor at once, 2 s after the request (later than the key's second). */
const instantChain = (chain: ReturnType<typeof ChainReader.makeMemory>) =>
  Layer.effect(
    Anchorer.Anchorer,
    Effect.gen(function*() {
      const vault = yield* KeyVault
      let block = 0
      const finals = new Map<string, Extract<Anchorer.Status, { _tag: "Final" }>>()
      const anchor = (request: Anchorer.AnchorRequest) =>
        Effect.gen(function*() {
          const existing = finals.get(request.batchId)
          if (existing !== undefined) return existing
          const key = activeKey(yield* vault.keys(request.tenantId), "secp256k1")!
          const sender = Keys.ethereumAddress(key.publicKey)
          const chainId = Chains.byName(request.chain).chainId
          const txHash = `0x${request.merkleRoot.slice(34)}${request.merkleRoot.slice(2, 34)}` as never
          const blockTimestamp = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000)
          const final = { _tag: "Final" as const, chainId, txHash, blockNumber: ++block, blockTimestamp, sender }
          chain.record({ family: "eth", chainId }, {
            hash: txHash, input: request.merkleRoot, from: sender, blockNumber: block, blockTimestamp, confirmations: 1
          })
          finals.set(request.batchId, final)
          return final
        })
      return {
        submit: (r) => Effect.map(anchor(r), (f) => ({ chainId: f.chainId, txHash: f.txHash, sender: f.sender, nonce: 0 })),
        confirm: anchor
      }
    })
  )

export const makePipeline = () => {
  const chain = ChainReader.makeMemory()
  const transport = WebhookSender.makeMemory()
  const base = Layer.mergeAll(
    MemoryStores.layer,
    Canonicalizer.layerFast,
    Settings.layer({
      publicBaseUrl: PUBLIC_BASE_URL,
      chainFor: () => "devnet",
      cursorKey: Redacted.make(new Uint8Array(32).fill(7)),
      allowPrivateWebhookUrls: true
    }),
    Layer.succeed(ChainReader.ChainReader, chain.service),
    Layer.succeed(WebhookSender.WebhookSender, transport.service)
  )
  // Verification resolves the tenants from the store, as the server does.
  const layer = Layer.mergeAll(instantChain(chain), LocalIdentity.layer({ publicBaseUrl: PUBLIC_BASE_URL })).pipe(
    Layer.provideMerge(base)
  )
  // The pipeline's own handlers, but e-mail (this world has no mailer): the rest run as in the server.
  const all = Pipeline.handlers({
    confirmEvery: "1 second",
    webhookSchedule: [0, 0, 0],
    mail: { schedule: [0], tokenTtlMs: 86_400_000, renderHtml: () => "" }
  })
  const handlers = Pipeline.runnerHandlers({
    SignBatch: all.SignBatch,
    AnchorBatch: all.AnchorBatch,
    ConfirmAnchor: all.ConfirmAnchor,
    DeliverWebhook: (job: Jobs.JobOf<"DeliverWebhook">, now: Date) =>
      Effect.as(WebhookDelivery.deliver(job.deliveryId, now, { schedule: [0, 0, 0], random: 0.5 }), JobRunner.done)
  })
  /** Runs every due job until none is left. */
  const drain = Effect.gen(function*() {
    let ran = 0
    while (yield* JobRunner.runOne({
      workerId: "test",
      handlers,
      lease: "30 seconds",
      idle: "10 millis",
      concurrency: 1,
      backoff: { baseMs: 0, capMs: 0 }
    })) ran++
    return ran
  })
  return { layer, chain, transport, drain }
}
