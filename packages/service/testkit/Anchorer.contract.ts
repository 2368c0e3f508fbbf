/**
 * The behaviour every `Anchorer` must show (the instant fake, Base and the devnet): one
 * transaction per batch, sent from the tenant's address and carrying the batch's Merkle root,
 * however often `submit` and `confirm` are called, even concurrently; followed to a final,
 * stable answer.
 *
 * A tenant with no key to anchor with is refused for good (`AnchorRejected`: the batch fails),
 * never taken for an outage to wait out (`ChainUnavailable`).
 *
 * The harness gives each test a fresh world: an `Anchorer`, a way to add a tenant (its sender
 * address is what the chain must show) or one without an anchoring key, and what the chain itself
 * recorded for a transaction, read independently of the anchorer (on the devnet: the transaction
 * by hash over JSON-RPC).
 */
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Either, Schedule, type Scope } from "effect"
import * as Chains from "@sigil/core/Chains"
import * as Hex from "@sigil/core/Hex"
import type { Hash32 } from "@sigil/core/Hex"
import * as Ids from "@sigil/core/Ids"
import type { TenantId } from "@sigil/core/Ids"
import type * as Anchorer from "../src/Batches/Anchorer.js"

/** What the chain recorded for a transaction, as a verifier would read it. */
export interface OnChain {
  readonly from: string
  /** The transaction's input data. */
  readonly input: string
}

export interface World {
  readonly anchorer: Anchorer.Service
  readonly chain: Chains.ChainName
  /** A new tenant able to anchor, and the address its transactions must come from. */
  readonly addTenant: Effect.Effect<{ readonly tenantId: TenantId; readonly sender: string }>
  /** A tenant with no key to anchor with. */
  readonly addTenantWithoutKey: Effect.Effect<TenantId>
  /** The transaction as the chain has it, or `undefined` when the chain has no such transaction. */
  readonly onChain: (txHash: Hash32) => Effect.Effect<OnChain | undefined>
}

const randomRoot = (): Hash32 => Hex.hash32(Hex.fromBytes(crypto.getRandomValues(new Uint8Array(32))))

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

const retryWhileUnavailable = {
  while: (e: { readonly _tag: string }) => e._tag === "ChainUnavailable",
  schedule: Schedule.spaced(Duration.millis(20))
}

/** Confirms until final (bounded), as the confirm job does. */
const untilFinal = (anchorer: Anchorer.Service, request: Anchorer.AnchorRequest) =>
  Effect.gen(function*() {
    for (let round = 0; round < 1_000; round++) {
      const status = yield* Effect.retry(anchorer.confirm(request), retryWhileUnavailable)
      if (status._tag === "Final") return status
      yield* Effect.sleep(Duration.millis(10))
    }
    return yield* Effect.dieMessage(`${request.batchId} never became final`)
  })

export const anchorerContract = <E>(name: string, world: Effect.Effect<World, E, Scope.Scope>): void => {
  describe(`Anchorer contract: ${name}`, () => {
    const requestFor = (w: World, tenantId: TenantId, merkleRoot = randomRoot()): Anchorer.AnchorRequest => ({
      batchId: Ids.unsafeMake("bat"),
      tenantId,
      chain: w.chain,
      merkleRoot
    })

    it.scopedLive("anchors each batch in one transaction from the tenant's address, whose input is the root", () =>
      Effect.gen(function*() {
        const w = yield* world
        const tenants = yield* Effect.all([w.addTenant, w.addTenant])
        const requests = Array.from({ length: 6 }, (_, i) => requestFor(w, tenants[i % 2]!.tenantId))
        const submitted = yield* Effect.forEach(requests, (r) => Effect.retry(w.anchorer.submit(r), retryWhileUnavailable))
        const finals = yield* Effect.forEach(requests, (r) => untilFinal(w.anchorer, r))
        assert.strictEqual(new Set(finals.map((f) => f.txHash)).size, requests.length, "one transaction per batch")
        for (const [i, request] of requests.entries()) {
          const final = finals[i]!
          const tenant = tenants[i % 2]!
          assert.strictEqual(final.txHash, submitted[i]!.txHash)
          assert.strictEqual(final.chainId, Chains.byName(w.chain).chainId)
          assert.strictEqual(submitted[i]!.chainId, final.chainId)
          assert.isTrue(sameAddress(final.sender, tenant.sender), "sender is the tenant's address")
          assert.isTrue(sameAddress(submitted[i]!.sender, tenant.sender))
          assert.isTrue(final.blockNumber > 0)
          assert.isFalse(Number.isNaN(final.blockTimestamp.getTime()))
          const tx = yield* w.onChain(final.txHash)
          assert.isDefined(tx, "the chain has the transaction")
          assert.strictEqual(tx!.input.toLowerCase(), request.merkleRoot.toLowerCase())
          assert.isTrue(sameAddress(tx!.from, tenant.sender))
        }
      }))

    it.scopedLive("is idempotent: concurrent and repeated submits, and confirms after final, change nothing", () =>
      Effect.gen(function*() {
        const w = yield* world
        const tenant = yield* w.addTenant
        const request = requestFor(w, tenant.tenantId)
        const [a, b] = yield* Effect.all(
          [w.anchorer.submit(request), w.anchorer.submit(request)].map((e) => Effect.retry(e, retryWhileUnavailable)),
          { concurrency: 2 }
        )
        assert.strictEqual(a!.txHash, b!.txHash)
        const final = yield* untilFinal(w.anchorer, request)
        const again = yield* Effect.retry(w.anchorer.submit(request), retryWhileUnavailable)
        assert.strictEqual(again.txHash, final.txHash)
        const confirmedAgain = yield* Effect.retry(w.anchorer.confirm(request), retryWhileUnavailable)
        assert.deepStrictEqual(confirmedAgain, final, "a final answer is stable")
      }))

    it.scopedLive("two batches with the same root are still two transactions", () =>
      Effect.gen(function*() {
        const w = yield* world
        const tenant = yield* w.addTenant
        const root = randomRoot()
        const first = requestFor(w, tenant.tenantId, root)
        const second = requestFor(w, tenant.tenantId, root)
        for (const r of [first, second]) yield* Effect.retry(w.anchorer.submit(r), retryWhileUnavailable)
        const [f1, f2] = yield* Effect.forEach([first, second], (r) => untilFinal(w.anchorer, r))
        assert.notStrictEqual(f1!.txHash, f2!.txHash)
      }))

    it.scopedLive("a tenant with no key to anchor with is refused for good, on submit and on confirm", () =>
      Effect.gen(function*() {
        const w = yield* world
        const request = requestFor(w, yield* w.addTenantWithoutKey)
        const attempts: ReadonlyArray<Effect.Effect<unknown, Anchorer.AnchorError>> = [w.anchorer.submit(request), w.anchorer.confirm(request)]
        for (const attempt of attempts) {
          const outcome = yield* Effect.either(Effect.retry(attempt, retryWhileUnavailable))
          assert.isTrue(Either.isLeft(outcome), "refused")
          if (Either.isLeft(outcome)) assert.strictEqual(outcome.left._tag, "AnchorRejected")
        }
      }))
  })
}
