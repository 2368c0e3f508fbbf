/**
 * The life of a batch: `pending` → `signed` → `anchored`, or `failed` from `pending` or
 * `signed` (decisions §4: a signed batch whose anchoring can never complete fails).
 * `anchored` and `failed` are final.
 *
 * The state is a record that accumulates what each move brings (the Merkle root when signed,
 * the anchor when anchored, the error when failed), so the API renders a `Batch` from it and a
 * failed batch still shows its root if it had one. The transitions are pure; `BatchMachine` is
 * the same as a service.
 *
 * @since 0.1.0
 */
import { Context, Data, Effect, Either, Layer, Schema } from "effect"
import type { ChainName } from "./Chains.js"
import type { Hash32 } from "./Hex.js"

/**
 * @since 0.1.0
 * @category models
 */
export const BatchStatus = Schema.Literal("pending", "signed", "anchored", "failed").annotations({
  description: "`pending`, `signed`, `anchored` or `failed`."
})
/**
 * @since 0.1.0
 * @category models
 */
export type BatchStatus = typeof BatchStatus.Type

/**
 * Where a batch's Merkle root is on chain.
 *
 * @since 0.1.0
 * @category models
 */
export interface AnchorRecord {
  readonly chain: ChainName
  /** The EVM chain id (8453 Base, 84532 Base Sepolia, the devnet's). */
  readonly chainId: number
  readonly txHash: Hash32
  readonly blockNumber: number
}

/**
 * Why a batch failed: a stable machine code and words for people.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchError {
  readonly code: string
  readonly message: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface BatchState {
  readonly status: BatchStatus
  /** `0x` + 64 hex; set when signed. */
  readonly merkleRoot: Hash32 | undefined
  readonly signedAt: Date | undefined
  readonly anchoredAt: Date | undefined
  readonly anchor: AnchorRecord | undefined
  readonly error: BatchError | undefined
  readonly failedAt: Date | undefined
}

/**
 * What happens to a batch. `Sign`: every credential carries the tenant's eddsa proof and the
 * tree is built. `Anchor`: the root's transaction is confirmed. `Fail`: the batch can never
 * complete.
 *
 * @since 0.1.0
 * @category events
 */
export type BatchEvent = Data.TaggedEnum<{
  Sign: { readonly merkleRoot: Hash32; readonly signedAt: Date }
  Anchor: { readonly anchor: AnchorRecord; readonly anchoredAt: Date }
  Fail: { readonly error: BatchError; readonly failedAt: Date }
}>

/**
 * Constructors and matchers: `BatchEvent.Sign({ merkleRoot, signedAt })`…
 *
 * @since 0.1.0
 * @category events
 */
export const BatchEvent = Data.taggedEnum<BatchEvent>()

/**
 * @since 0.1.0
 * @category events
 */
export const BatchEventTag = Schema.Literal("Sign", "Anchor", "Fail")
/**
 * @since 0.1.0
 * @category events
 */
export type BatchEventTag = BatchEvent["_tag"]

/**
 * A move the batch cannot make from where it is: repeating a move, skipping one, or leaving a
 * final state.
 *
 * @since 0.1.0
 * @category errors
 */
export class IllegalBatchTransition extends Schema.TaggedError<IllegalBatchTransition>()("IllegalBatchTransition", {
  from: BatchStatus,
  event: BatchEventTag
}) {}

/**
 * The whole table: for each status, the events it accepts and where they lead.
 *
 * @since 0.1.0
 * @category transitions
 */
export const transitions: { readonly [S in BatchStatus]: Partial<Record<BatchEventTag, BatchStatus>> } = {
  pending: { Sign: "signed", Fail: "failed" },
  signed: { Anchor: "anchored", Fail: "failed" },
  anchored: {},
  failed: {}
}

/**
 * A batch just accepted by `POST /batches`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const initial: BatchState = {
  status: "pending",
  merkleRoot: undefined,
  signedAt: undefined,
  anchoredAt: undefined,
  anchor: undefined,
  error: undefined,
  failedAt: undefined
}

/**
 * Whether `status` accepts an event of kind `event`.
 *
 * @since 0.1.0
 * @category transitions
 */
export const canApply = (status: BatchStatus, event: BatchEventTag): boolean => transitions[status][event] !== undefined

/**
 * Applies an event, or says why it cannot be applied.
 *
 * @since 0.1.0
 * @category transitions
 */
export const transition = (state: BatchState, event: BatchEvent): Either.Either<BatchState, IllegalBatchTransition> => {
  const to = transitions[state.status][event._tag]
  if (to === undefined) return Either.left(new IllegalBatchTransition({ from: state.status, event: event._tag }))
  switch (event._tag) {
    case "Sign":
      return Either.right({ ...state, status: to, merkleRoot: event.merkleRoot, signedAt: event.signedAt })
    case "Anchor":
      return Either.right({ ...state, status: to, anchor: event.anchor, anchoredAt: event.anchoredAt })
    case "Fail":
      return Either.right({ ...state, status: to, error: event.error, failedAt: event.failedAt })
  }
}

/**
 * Applies events in order, stopping at the first that cannot be applied.
 *
 * @since 0.1.0
 * @category transitions
 */
export const replay = (
  events: Iterable<BatchEvent>,
  from: BatchState = initial
): Either.Either<BatchState, IllegalBatchTransition> => {
  let state = from
  for (const event of events) {
    const next = transition(state, event)
    if (Either.isLeft(next)) return next
    state = next.right
  }
  return Either.right(state)
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Service {
  readonly transition: (state: BatchState, event: BatchEvent) => Effect.Effect<BatchState, IllegalBatchTransition>
}

/**
 * The batch state machine as a service, so workers and the API depend on it rather than on
 * this module's functions.
 *
 * @since 0.1.0
 * @category tags
 */
export class BatchMachine extends Context.Tag("@sigil/core/BatchMachine")<BatchMachine, Service>() {}

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BatchMachine> = Layer.succeed(BatchMachine, {
  transition: (state, event) => transition(state, event)
})
