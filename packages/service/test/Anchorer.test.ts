/**
 * The Anchorer contract on the instant fake (the devnet runs it in @sigil/anchor-base).
 */
import * as Hex from "@sigil/core/Hex"
import * as Ids from "@sigil/core/Ids"
import type { TenantId } from "@sigil/core/Ids"
import { Effect } from "effect"
import * as Anchorer from "../src/Batches/Anchorer.js"
import { anchorerContract, type OnChain } from "../testkit/Anchorer.contract.js"

anchorerContract(
  "instant (memory)",
  Effect.sync(() => {
    const chain = new Map<string, OnChain>()
    const senders = new Map<TenantId, string>()
    const anchorer = Anchorer.makeInstant({
      sender: (tenantId) => senders.get(tenantId),
      now: () => new Date(),
      onFinal: (request, status) => chain.set(status.txHash, { from: status.sender, input: request.merkleRoot })
    })
    return {
      anchorer,
      chain: "devnet" as const,
      addTenant: Effect.sync(() => {
        const tenantId = Ids.unsafeMake("tnt")
        const sender = Hex.fromBytes(crypto.getRandomValues(new Uint8Array(20)))
        senders.set(tenantId, sender)
        return { tenantId, sender }
      }),
      addTenantWithoutKey: Effect.sync(() => Ids.unsafeMake("tnt")),
      onChain: (txHash) => Effect.sync(() => chain.get(txHash))
    }
  })
)
