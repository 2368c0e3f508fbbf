/**
 * JSON-RPC calls as Effects. viem's transports do the wire work with their own retries off
 * (`retryCount: 0`, research/feasibility.md §4: in-process providers otherwise add ~1 s per
 * call); retries happen here, with backoff, only for failures classified as transient.
 */
import { ChainUnavailable } from "@sigil/core/ChainReader"
import { Data, Duration, Effect, Redacted, Schedule } from "effect"
import { type Address, custom, type Hex, hexToBigInt, hexToNumber, http } from "viem"
import type * as ChainConfig from "../ChainConfig.js"
import * as RpcErrors from "./rpcErrors.js"

/** A call that failed for a reason other than "try again later". */
export class RpcFailure extends Data.TaggedError("RpcFailure")<{
  readonly kind: RpcErrors.Kind
  readonly method: string
  readonly message: string
}> {}

export interface RpcTransaction {
  readonly hash: Hex
  readonly from: Address
  readonly to: Address | null
  readonly input: Hex
  readonly nonce: Hex
  readonly blockNumber: Hex | null
  readonly blockHash: Hex | null
}

export interface RpcReceipt {
  readonly transactionHash: Hex
  readonly blockNumber: Hex
  readonly blockHash: Hex
  readonly from: Address
  readonly status: Hex
}

export interface RpcBlock {
  readonly number: Hex
  readonly hash: Hex
  readonly parentHash: Hex
  readonly timestamp: Hex
  readonly baseFeePerGas?: Hex | null
}

export type SendOutcome = "sent" | "known" | "nonceTooLow" | "nonceTooHigh" | "underpriced" | "feeTooLow"

export interface Rpc {
  /** The chain's name, for error messages. */
  readonly label: string
  /** A call whose failures the caller inspects; transient ones are retried and then become `ChainUnavailable`. */
  readonly call: <A>(method: string, params?: ReadonlyArray<unknown>) => Effect.Effect<A, RpcFailure | ChainUnavailable>
  /** A call where any failure means the chain cannot be used right now. */
  readonly read: <A>(method: string, params?: ReadonlyArray<unknown>) => Effect.Effect<A, ChainUnavailable>
  readonly chainId: Effect.Effect<number, ChainUnavailable>
  readonly blockNumber: Effect.Effect<number, ChainUnavailable>
  readonly block: (tag: "latest" | number) => Effect.Effect<RpcBlock | null, ChainUnavailable>
  readonly balance: (address: Address) => Effect.Effect<bigint, ChainUnavailable>
  /** Transactions sent from the address as of a block ("pending" counts the node's executable pool too). */
  readonly nonce: (address: Address, at: "latest" | "pending" | number) => Effect.Effect<number, ChainUnavailable>
  readonly transaction: (hash: Hex) => Effect.Effect<RpcTransaction | null, ChainUnavailable>
  readonly receipt: (hash: Hex) => Effect.Effect<RpcReceipt | null, ChainUnavailable>
  /** The market tip: `eth_maxPriorityFeePerGas`, or gasPrice − baseFee where that method is missing. */
  readonly priorityFee: (baseFee: bigint) => Effect.Effect<bigint, ChainUnavailable>
  /** Broadcasts signed bytes; the outcomes the anchoring flows handle come back as values. */
  readonly sendRaw: (raw: Hex) => Effect.Effect<SendOutcome, RpcFailure | ChainUnavailable>
}

const toHex = (n: number): Hex => `0x${n.toString(16)}`

export const make = (label: string, rpc: ChainConfig.Rpc, retry: ChainConfig.ResolvedRetry): Rpc => {
  const timeout = rpc._tag === "Url" ? Duration.decode(rpc.timeout ?? "10 seconds") : Duration.seconds(30)
  const transport = rpc._tag === "Url"
    ? http(Redacted.value(rpc.url), { retryCount: 0, timeout: Duration.toMillis(timeout) })
    : custom(rpc.provider, { retryCount: 0 })
  const { request } = transport({ retryCount: 0 })

  const schedule = Schedule.exponential(retry.base, 2).pipe(
    Schedule.modifyDelay((_, delay) => Duration.min(delay, retry.cap)),
    Schedule.jittered,
    Schedule.intersect(Schedule.recurs(retry.times))
  )

  const once = <A>(method: string, params: ReadonlyArray<unknown>) =>
    Effect.tryPromise<A, RpcFailure>({
      try: () => request({ method, params } as never) as Promise<A>,
      catch: (error) => new RpcFailure({ ...RpcErrors.classify(error), method })
    }).pipe(
      // A hung provider must not hang the worker: a timeout is just another transient failure.
      Effect.timeoutFail({
        duration: Duration.sum(timeout, Duration.seconds(1)),
        onTimeout: () => new RpcFailure({ kind: "transient", method, message: "request timed out" })
      })
    )

  const call = <A>(method: string, params: ReadonlyArray<unknown> = []): Effect.Effect<A, RpcFailure | ChainUnavailable> =>
    once<A>(method, params).pipe(
      Effect.retry({ schedule, while: (e) => e.kind === "transient" }),
      Effect.catchAll((e): Effect.Effect<never, RpcFailure | ChainUnavailable> =>
        e.kind === "transient"
          ? Effect.fail(new ChainUnavailable({ chain: label, message: `${method}: ${e.message}` }))
          : Effect.fail(e)
      )
    )

  const read = <A>(method: string, params: ReadonlyArray<unknown> = []): Effect.Effect<A, ChainUnavailable> =>
    call<A>(method, params).pipe(
      Effect.catchTag("RpcFailure", (e) => Effect.fail(new ChainUnavailable({ chain: label, message: `${method}: ${e.message}` })))
    )

  const sendRaw = (raw: Hex): Effect.Effect<SendOutcome, RpcFailure | ChainUnavailable> =>
    call<Hex>("eth_sendRawTransaction", [raw]).pipe(
      Effect.as<SendOutcome>("sent"),
      Effect.catchTag("RpcFailure", (e): Effect.Effect<SendOutcome, RpcFailure | ChainUnavailable> => {
        switch (e.kind) {
          case "known":
          case "nonceTooLow":
          case "nonceTooHigh":
          case "underpriced":
          case "feeTooLow":
            return Effect.succeed(e.kind)
          default:
            return Effect.fail(e)
        }
      })
    )

  const block = (tag: "latest" | number) =>
    read<RpcBlock | null>("eth_getBlockByNumber", [tag === "latest" ? tag : toHex(tag), false])

  return {
    label,
    call,
    read,
    chainId: Effect.map(read<Hex>("eth_chainId"), (h) => hexToNumber(h)),
    blockNumber: Effect.map(read<Hex>("eth_blockNumber"), (h) => hexToNumber(h)),
    block,
    balance: (address) => Effect.map(read<Hex>("eth_getBalance", [address, "latest"]), (h) => hexToBigInt(h)),
    nonce: (address, at) =>
      Effect.map(
        read<Hex>("eth_getTransactionCount", [address, typeof at === "number" ? toHex(at) : at]),
        (h) => hexToNumber(h)
      ),
    transaction: (hash) => read<RpcTransaction | null>("eth_getTransactionByHash", [hash]),
    receipt: (hash) => read<RpcReceipt | null>("eth_getTransactionReceipt", [hash]),
    priorityFee: (baseFee) =>
      call<Hex>("eth_maxPriorityFeePerGas").pipe(
        Effect.map((h) => hexToBigInt(h)),
        Effect.catchTag("RpcFailure", () =>
          Effect.map(read<Hex>("eth_gasPrice"), (h) => {
            const tip = hexToBigInt(h) - baseFee
            return tip > 0n ? tip : 0n
          }))
      ),
    sendRaw
  }
}
