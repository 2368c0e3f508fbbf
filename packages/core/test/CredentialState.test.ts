import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, FastCheck as fc } from "effect"
import * as CredentialState from "../src/CredentialState.js"

const ci = process.env["CI"] === "true"
const runs = (n: number) => (ci ? n * 5 : n)

const { Anchor, Erase, Revoke, Sign } = CredentialState.CredentialEvent

const t = (s: number) => new Date(Date.UTC(2025, 6, 1, 8, 0, s))
const revoke = Revoke({ reason: "Issued with a misspelt name.", reasonCode: "reissued", at: t(10) })
const eraseHashed = Erase({ requester: "recipient", verifiedAt: t(19), at: t(20), recipientNameMode: "hashed" })
const erasePlain = Erase({ requester: "dpo", verifiedAt: t(29), at: t(30), recipientNameMode: "plain" })
const events: ReadonlyArray<CredentialState.CredentialEvent> = [Sign(), Anchor(), revoke, eraseHashed, erasePlain]

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) assert.fail(`unexpected ${String(e.left)}`)
  return e.right
}
const apply = (sequence: ReadonlyArray<CredentialState.CredentialEvent>) =>
  sequence.reduce((s, e) => right(CredentialState.transition(s, e)), CredentialState.initial)

const statusPath: Record<CredentialState.CredentialStatus, ReadonlyArray<CredentialState.CredentialEvent>> = {
  pending: [],
  signed: [Sign()],
  anchored: [Sign(), Anchor()]
}
const flagPath = (revoked: boolean, erased: boolean) => [
  ...(revoked ? [revoke] : []),
  ...(erased ? [eraseHashed] : [])
]

type Outcome =
  | CredentialState.CredentialStatus
  | "revoked"
  | "erased"
  | "illegal"
  | "already revoked"
  | "already erased"

/** Written out independently of the module: what each event does from each status and flags. */
const expectedOutcome = (
  status: CredentialState.CredentialStatus,
  revoked: boolean,
  erased: boolean,
  event: CredentialState.CredentialEventTag
): Outcome => {
  switch (event) {
    case "Sign":
      return status === "pending" ? "signed" : "illegal"
    case "Anchor":
      return status === "signed" ? "anchored" : "illegal"
    case "Revoke":
      return revoked ? "already revoked" : "revoked"
    case "Erase":
      return erased ? "already erased" : "erased"
  }
}

describe("CredentialState", () => {
  describe("the full transition table: every status × flags × event", () => {
    for (const status of CredentialState.CredentialStatus.literals) {
      for (const revoked of [false, true]) {
        for (const erased of [false, true]) {
          // Flags set both before and after the status moves: the order must not matter.
          for (const flagsFirst of [false, true]) {
            const path = flagsFirst
              ? [...flagPath(revoked, erased), ...statusPath[status]]
              : [...statusPath[status], ...flagPath(revoked, erased)]
            const state = apply(path)
            for (const event of events) {
              const outcome = expectedOutcome(status, revoked, erased, event._tag)
              const label = `${status}${revoked ? "+revoked" : ""}${erased ? "+erased" : ""}${
                flagsFirst ? " (flags set first)" : ""
              } × ${event._tag}${event._tag === "Erase" ? `(${event.recipientNameMode})` : ""} → ${outcome}`
              it(label, () => {
                assert.deepStrictEqual([state.status, state.revoked, state.erased], [status, revoked, erased])
                const result = CredentialState.transition(state, event)
                switch (outcome) {
                  case "illegal": {
                    const error = Either.getLeft(result)
                    assert.isTrue(error._tag === "Some")
                    if (error._tag === "Some") {
                      assert.instanceOf(error.value, CredentialState.IllegalCredentialTransition)
                      if (error.value._tag === "IllegalCredentialTransition") {
                        assert.deepStrictEqual([error.value.from, error.value.event], [status, event._tag])
                      }
                    }
                    return
                  }
                  case "already revoked": {
                    const error = Either.getLeft(result)
                    assert.isTrue(error._tag === "Some" && error.value instanceof CredentialState.CredentialAlreadyRevoked)
                    if (error._tag === "Some" && error.value._tag === "CredentialAlreadyRevoked") {
                      assert.deepStrictEqual(error.value.revokedAt, t(10))
                    }
                    return
                  }
                  case "already erased": {
                    const error = Either.getLeft(result)
                    assert.isTrue(error._tag === "Some" && error.value instanceof CredentialState.CredentialAlreadyErased)
                    if (error._tag === "Some" && error.value._tag === "CredentialAlreadyErased") {
                      assert.deepStrictEqual(error.value.erasedAt, t(20))
                    }
                    return
                  }
                  case "revoked": {
                    const next = right(result)
                    assert.deepStrictEqual(next, {
                      ...state,
                      revoked: true,
                      revocation: { reason: "Issued with a misspelt name.", reasonCode: "reissued", revokedAt: t(10) }
                    })
                    return
                  }
                  case "erased": {
                    if (event._tag !== "Erase") return assert.fail("not an erase")
                    const next = right(result)
                    assert.deepStrictEqual(next, {
                      ...state,
                      erased: true,
                      erasure: {
                        requester: event.requester,
                        verifiedAt: event.verifiedAt,
                        erasedAt: event.at,
                        verificationStatusAfterErasure: event.recipientNameMode === "hashed" ? "verifiable" : "invalid"
                      }
                    })
                    return
                  }
                  default: {
                    const next = right(result)
                    // A status move touches nothing but the status.
                    assert.deepStrictEqual(next, { ...state, status: outcome })
                  }
                }
              })
            }
          }
        }
      }
    }
  })

  it("erasure result by recipient-name mode (decisions §2)", () => {
    assert.strictEqual(CredentialState.verificationStatusAfterErasure("hashed"), "verifiable")
    assert.strictEqual(CredentialState.verificationStatusAfterErasure("plain"), "invalid")
    assert.strictEqual(apply([erasePlain]).erasure?.verificationStatusAfterErasure, "invalid")
    assert.strictEqual(apply([Sign(), Anchor(), eraseHashed]).erasure?.verificationStatusAfterErasure, "verifiable")
  })

  it("the flag decides, even for a state loaded without details", () => {
    const loaded: CredentialState.CredentialState = { ...CredentialState.initial, revoked: true, erased: true }
    const revokeAgain = CredentialState.transition(loaded, revoke)
    assert.isTrue(Either.isLeft(revokeAgain) && revokeAgain.left._tag === "CredentialAlreadyRevoked")
    const eraseAgain = CredentialState.transition(loaded, eraseHashed)
    assert.isTrue(Either.isLeft(eraseAgain) && eraseAgain.left._tag === "CredentialAlreadyErased")
  })

  it.prop(
    "any event sequence: status follows Sign/Anchor only, each flag follows its own event only",
    { sequence: fc.array(fc.constantFrom(...events), { maxLength: 8 }) },
    ({ sequence }) => {
      let state = CredentialState.initial
      for (const event of sequence) {
        const result = CredentialState.transition(state, event)
        const outcome = expectedOutcome(state.status, state.revoked, state.erased, event._tag)
        if (outcome === "illegal" || outcome === "already revoked" || outcome === "already erased") {
          assert.isTrue(Either.isLeft(result), outcome)
          continue // a refused event leaves the state as it was
        }
        const next = right(result)
        assert.strictEqual(next.status, outcome === "revoked" || outcome === "erased" ? state.status : outcome)
        assert.strictEqual(next.revoked, state.revoked || event._tag === "Revoke")
        assert.strictEqual(next.erased, state.erased || event._tag === "Erase")
        assert.strictEqual(next.revocation !== undefined, next.revoked)
        assert.strictEqual(next.erasure !== undefined, next.erased)
        // The first revocation and the first erasure stay as they were.
        if (state.revocation !== undefined) assert.strictEqual(next.revocation, state.revocation)
        if (state.erasure !== undefined) assert.strictEqual(next.erasure, state.erasure)
        state = next
      }
    },
    { fastCheck: { numRuns: runs(300) } }
  )

  it.effect("the service: revoke then revoke again is CredentialAlreadyRevoked", () =>
    Effect.gen(function*() {
      const machine = yield* CredentialState.CredentialMachine
      const signed = yield* machine.transition(CredentialState.initial, Sign())
      const revoked = yield* machine.transition(signed, revoke)
      assert.isTrue(revoked.revoked)
      const again = yield* Effect.flip(machine.transition(revoked, revoke))
      assert.instanceOf(again, CredentialState.CredentialAlreadyRevoked)
      const erased = yield* machine.transition(revoked, erasePlain)
      assert.strictEqual(erased.erasure?.verificationStatusAfterErasure, "invalid")
      const illegal = yield* Effect.flip(machine.transition(erased, Sign()))
      assert.instanceOf(illegal, CredentialState.IllegalCredentialTransition)
    }).pipe(Effect.provide(CredentialState.layer)))
})
