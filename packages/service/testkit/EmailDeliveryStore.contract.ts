/**
 * The behaviour every `EmailDeliveryStore` must show (memory, PGlite, Postgres): delivery
 * records beside the credentials, claim tokens by hash with their expiry, and what erasure
 * does to both.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Fiber, type Layer, Option } from "effect"
import * as BatchStore from "../src/Batches/BatchStore.js"
import * as EmailDeliveryStore from "../src/Email/EmailDeliveryStore.js"
import * as Ids from "@sigil/core/Ids"
import type * as TenantStore from "../src/Tenants/TenantStore.js"
import * as Transactor from "../src/Transactor.js"
import { at, batchOf, DAY, newTenant, plus, randomHex, SECOND } from "./fixtures.js"

export const emailDeliveryStoreContract = <E>(
  name: string,
  stores: Layer.Layer<
    EmailDeliveryStore.EmailDeliveryStore | BatchStore.BatchStore | TenantStore.TenantStore | Transactor.Transactor,
    E
  >
): void => {
  layer(stores, { excludeTestServices: true, timeout: "60 seconds" })(`EmailDeliveryStore contract: ${name}`, (it) => {
    const store = EmailDeliveryStore.EmailDeliveryStore
    const t0 = at("2025-03-01T12:00:00.000Z")

    /** A stored batch and a queued delivery record for each of its credentials. */
    const setup = (n = 3) =>
      Effect.gen(function*() {
        const tenant = yield* newTenant()
        const made = batchOf(tenant.id, { n })
        yield* Effect.flatMap(BatchStore.BatchStore, (s) => s.insert(made.batch, made.credentials, made.recipients))
        const records = made.credentials.map((c): EmailDeliveryStore.DeliveryRecord => ({
          credentialId: c.id,
          tenantId: tenant.id,
          batchId: made.batch.id,
          status: "queued",
          attempts: 0,
          lastError: undefined,
          lastAttemptAt: undefined,
          sentAt: undefined,
          claimedAt: undefined,
          createdAt: t0
        }))
        return { tenant, ...made, records }
      })

    it.effect("stores queued records; a second insert for a credential keeps the first", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { records } = yield* setup()
        yield* s.insert(records)
        for (const r of records) assert.deepStrictEqual(yield* s.get(r.credentialId), Option.some(r))
        for (const r of records) assert.deepStrictEqual(yield* s.lock(r.credentialId), Option.some(r))
        assert.isTrue(Option.isNone(yield* s.lock(Ids.unsafeMake("crd"))))
        yield* s.insert([{ ...records[0]!, status: "sent", attempts: 7, createdAt: plus(t0, DAY) }])
        assert.deepStrictEqual(yield* s.get(records[0]!.credentialId), Option.some(records[0]!))
        yield* s.insert([])
        assert.isTrue(Option.isNone(yield* s.get(Ids.unsafeMake("crd"))))
      }))

    it.effect("refuses a record for an unknown credential", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { records } = yield* setup(1)
        const exit = yield* Effect.exit(s.insert([{ ...records[0]!, credentialId: Ids.unsafeMake("crd") }]))
        assert.isTrue(Exit.isFailure(exit))
      }))

    it.effect("records attempts: retry, then sent; bounced; failed", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { records } = yield* setup()
        yield* s.insert(records)
        const [a, b, c] = records.map((r) => r.credentialId)
        const retried = yield* s.recordAttempt(a!, { at: plus(t0, SECOND), status: "queued", error: "451 try later" })
        assert.deepStrictEqual(
          retried,
          Option.some({ ...records[0]!, attempts: 1, lastError: "451 try later", lastAttemptAt: plus(t0, SECOND) })
        )
        const sent = yield* s.recordAttempt(a!, { at: plus(t0, 2 * SECOND), status: "sent", error: undefined })
        assert.deepStrictEqual(
          sent,
          Option.some({ ...records[0]!, status: "sent" as const, attempts: 2, lastAttemptAt: plus(t0, 2 * SECOND), sentAt: plus(t0, 2 * SECOND) })
        )
        yield* s.recordAttempt(b!, { at: t0, status: "bounced", error: "550 no such user" })
        assert.deepStrictEqual(
          yield* s.get(b!),
          Option.some({ ...records[1]!, status: "bounced" as const, attempts: 1, lastError: "550 no such user", lastAttemptAt: t0 })
        )
        yield* s.recordAttempt(c!, { at: t0, status: "failed", error: "connection refused" })
        assert.strictEqual(Option.getOrThrow(yield* s.get(c!)).status, "failed")
        assert.strictEqual(Option.getOrThrow(yield* s.get(c!)).sentAt, undefined)
        assert.isTrue(Option.isNone(yield* s.recordAttempt(Ids.unsafeMake("crd"), { at: t0, status: "sent", error: undefined })))
      }))

    it.effect("cancel (erasure): a queued delivery becomes cancelled; any loses its last error", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { records } = yield* setup()
        yield* s.insert(records)
        const [a, b] = records.map((r) => r.credentialId)
        yield* s.recordAttempt(a!, { at: t0, status: "queued", error: "451 <r0@example.org> greylisted" })
        yield* s.recordAttempt(b!, { at: t0, status: "bounced", error: "550 <r1@example.org> unknown" })
        assert.isTrue(yield* s.cancel(a!))
        assert.deepStrictEqual(
          yield* s.get(a!),
          Option.some({ ...records[0]!, status: "cancelled" as const, attempts: 1, lastAttemptAt: t0, lastError: undefined })
        )
        assert.isFalse(yield* s.cancel(b!))
        assert.deepStrictEqual(
          yield* s.get(b!),
          Option.some({ ...records[1]!, status: "bounced" as const, attempts: 1, lastAttemptAt: t0, lastError: undefined })
        )
        assert.isFalse(yield* s.cancel(a!))
        assert.isFalse(yield* s.cancel(Ids.unsafeMake("crd")))
      }))

    it.effect("a cancel waits for the transaction holding the lock, so erasure deletes the token it issued", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { records } = yield* setup(1)
        yield* s.insert(records)
        const id = records[0]!.credentialId
        const token: EmailDeliveryStore.ClaimToken = { tokenHash: randomHex(32), credentialId: id, expiresAt: plus(t0, DAY), createdAt: t0 }
        // A send: finds its delivery queued under the lock, takes its time, issues a token.
        const send = yield* Effect.fork(Transactor.transactionally(Effect.gen(function*() {
          const locked = yield* s.lock(id)
          assert.strictEqual(Option.getOrThrow(locked).status, "queued")
          yield* Effect.sleep("300 millis")
          yield* s.addToken(token)
        })))
        yield* Effect.sleep("100 millis")
        // An erasure meanwhile: cancel (waits for the lock), then delete the tokens.
        const cancelled = yield* Transactor.transactionally(Effect.zipLeft(s.cancel(id), s.deleteTokens(id)))
        yield* Fiber.join(send)
        assert.isTrue(cancelled)
        assert.strictEqual(Option.getOrThrow(yield* s.get(id)).status, "cancelled")
        assert.isTrue(Option.isNone(yield* s.findToken(token.tokenHash, id, t0)))
      }))

    it.effect("marks the first claim only", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { records } = yield* setup(1)
        yield* s.insert(records)
        const id = records[0]!.credentialId
        yield* s.markClaimed(id, plus(t0, DAY))
        yield* s.markClaimed(id, plus(t0, 2 * DAY))
        assert.deepStrictEqual(Option.getOrThrow(yield* s.get(id)).claimedAt, plus(t0, DAY))
        yield* s.markClaimed(Ids.unsafeMake("crd"), t0)
      }))

    it.effect("finds a token by hash and credential until it expires, never after, never for another credential", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { credentials } = yield* setup(2)
        const [a, b] = credentials.map((c) => c.id)
        const token: EmailDeliveryStore.ClaimToken = {
          tokenHash: randomHex(32),
          credentialId: a!,
          expiresAt: plus(t0, 30 * DAY),
          createdAt: t0
        }
        yield* s.addToken(token)
        assert.deepStrictEqual(yield* s.findToken(token.tokenHash, a!, t0), Option.some(token))
        assert.deepStrictEqual(yield* s.findToken(token.tokenHash, a!, plus(t0, 30 * DAY - 1)), Option.some(token))
        assert.isTrue(Option.isNone(yield* s.findToken(token.tokenHash, a!, plus(t0, 30 * DAY))))
        assert.isTrue(Option.isNone(yield* s.findToken(token.tokenHash, b!, t0)))
        assert.isTrue(Option.isNone(yield* s.findToken(randomHex(32), a!, t0)))
        // The same hash twice is a defect (a 256-bit token never repeats).
        assert.isTrue(Exit.isFailure(yield* Effect.exit(s.addToken(token))))
        assert.isTrue(Exit.isFailure(yield* Effect.exit(s.addToken({ ...token, tokenHash: randomHex(32), credentialId: Ids.unsafeMake("crd") }))))
      }))

    it.effect("deletes every token of a credential, and only those; purges expired ones", () =>
      Effect.gen(function*() {
        const s = yield* store
        const { credentials } = yield* setup(2)
        const [a, b] = credentials.map((c) => c.id)
        const tok = (credentialId: typeof a, expiresAt: Date): EmailDeliveryStore.ClaimToken => ({
          tokenHash: randomHex(32),
          credentialId: credentialId!,
          expiresAt,
          createdAt: t0
        })
        const a1 = tok(a, plus(t0, DAY))
        const a2 = tok(a, plus(t0, 2 * DAY))
        const b1 = tok(b, plus(t0, DAY))
        const b2 = tok(b, plus(t0, 3 * DAY))
        for (const t of [a1, a2, b1, b2]) yield* s.addToken(t)
        yield* s.deleteTokens(a!)
        assert.isTrue(Option.isNone(yield* s.findToken(a1.tokenHash, a!, t0)))
        assert.isTrue(Option.isNone(yield* s.findToken(a2.tokenHash, a!, t0)))
        assert.isTrue(Option.isSome(yield* s.findToken(b1.tokenHash, b!, t0)))
        assert.strictEqual(yield* s.purgeExpiredTokens(plus(t0, DAY)), 1)
        assert.isTrue(Option.isNone(yield* s.findToken(b1.tokenHash, b!, t0)))
        assert.isTrue(Option.isSome(yield* s.findToken(b2.tokenHash, b!, t0)))
      }))
  })
}
