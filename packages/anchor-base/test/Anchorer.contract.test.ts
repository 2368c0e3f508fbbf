/**
 * The Anchorer contract (`@sigil/service/testkit/Anchorer.contract`) on the embedded devnet:
 * BaseAnchor with a memory vault and journal, the chain read back over JSON-RPC.
 */
import * as Ids from "@sigil/core/Ids"
import * as KeyVault from "@sigil/service/Tenants/KeyVault"
import { anchorerContract } from "@sigil/service/testkit/Anchorer.contract"
import { Effect, Layer, Redacted } from "effect"
import type { Hex } from "viem"
import * as BaseAnchor from "../src/BaseAnchor.js"
import * as ChainConfig from "../src/ChainConfig.js"
import * as Devnet from "../src/Devnet.js"
import { makeJournal, makeVault, quickRetry, rpc, tempDir } from "./helpers.js"

anchorerContract(
  "BaseAnchor on the devnet",
  Effect.gen(function*() {
    const devnet = yield* Devnet.make({ dataDir: yield* tempDir })
    const vault = makeVault()
    const journal = makeJournal()
    const anchorer = yield* BaseAnchor.make({
      chains: [{
        chain: "devnet",
        rpc: ChainConfig.rpcProvider(devnet.provider),
        treasuryKey: Redacted.make(Devnet.TREASURY_PRIVATE_KEY),
        retry: quickRetry
      }]
    }).pipe(Effect.provide(Layer.merge(vault.layer, journal.layer)))
    const call = rpc(devnet.provider)
    return {
      anchorer,
      chain: "devnet" as const,
      addTenant: Effect.sync(() => {
        const tenant = vault.addTenant()
        return { tenantId: tenant.tenantId, sender: tenant.address }
      }),
      // Known to the vault by its signing key only (ed25519): nothing to anchor with.
      addTenantWithoutKey: Effect.sync(() => {
        const tenantId = Ids.unsafeMake("tnt")
        vault.seed(tenantId, "ed25519", KeyVault.generateKeyPair("ed25519").secretKey, new Date(Date.now() - 3_600_000))
        return tenantId
      }),
      onChain: (txHash) =>
        Effect.map(call<{ readonly from: string; readonly input: Hex } | null>("eth_getTransactionByHash", txHash), (tx) =>
          tx === null ? undefined : { from: tx.from, input: tx.input })
    }
  })
)
