/**
 * Everything the anchoring flows need about one chain, built once per layer.
 */
import type * as AnchorJournal from "@sigil/service/Batches/AnchorJournal"
import { ChainUnavailable } from "@sigil/core/ChainReader"
import { Effect, Redacted } from "effect"
import type { Hex, PrivateKeyAccount } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import * as ChainConfig from "../ChainConfig.js"
import * as Rpc from "./rpc.js"

export interface ChainContext {
  readonly config: ChainConfig.Resolved
  readonly rpc: Rpc.Rpc
  readonly treasury: PrivateKeyAccount
  /** Set once the RPC has answered with the expected chain id. */
  chainIdChecked: boolean
}

export const make = (options: ChainConfig.ChainOptions): ChainContext => {
  const config = ChainConfig.resolve(options)
  return {
    config,
    rpc: Rpc.make(config.chain, config.rpc, config.retry),
    treasury: privateKeyToAccount(Redacted.value(config.treasuryKey) as Hex),
    chainIdChecked: false
  }
}

/** The journal is the store: when it is down the anchor waits, like when the chain is down. */
export const journalCall = <A>(
  ctx: ChainContext,
  effect: Effect.Effect<A, AnchorJournal.JournalUnavailable>
): Effect.Effect<A, ChainUnavailable> =>
  Effect.mapError(
    effect,
    (e) => new ChainUnavailable({ chain: ctx.config.chain, message: `anchor journal unavailable: ${e.message}` })
  )
