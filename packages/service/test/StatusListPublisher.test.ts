/**
 * A status list is signed once per change: reading it again returns the document already
 * signed (the very same object); a revocation makes the next read sign the new bits.
 */
import { assert, describe, it } from "@effect/vitest"
import * as StatusList from "@sigil/core/StatusList"
import type { BatchId, CredentialId, TenantId } from "@sigil/core/Ids"
import { Effect, Either, Option } from "effect"
import type { Principal } from "../src/Access/Auth.js"
import * as Batches from "../src/Batches.js"
import { BatchStore } from "../src/Batches/BatchStore.js"
import * as Credentials from "../src/Credentials.js"
import * as StatusListPublisher from "../src/Credentials/StatusListPublisher.js"
import * as BatchInputs from "../src/Inputs/BatchInputs.js"
import * as Tenants from "../src/Tenants.js"
import { TenantStore } from "../src/Tenants/TenantStore.js"
import { makePipeline } from "./helpers/pipeline.js"

describe("StatusListPublisher", () => {
  it.live("signs a list once per change", () => {
    const pipeline = makePipeline()
    return Effect.gen(function*() {
      const created = yield* Tenants.create({ name: "List University", plan: "starter" }, new Date(Date.now() - 5000))
      const tenant = Option.getOrThrow(yield* Effect.flatMap(TenantStore, (s) => s.get(created.id as TenantId)))
      yield* Tenants.createKey(tenant.id, "test", new Date())
      const apiKey = (yield* Effect.flatMap(TenantStore, (s) => s.apiKeys(tenant.id)))[0]!
      const principal: Principal = { tenant, apiKey, environment: "test" }
      const request = yield* BatchInputs.decodeCreateBatchRequest({
        credentials: [0, 1].map((i) => ({
          recipient: { id: `urn:uuid:${crypto.randomUUID()}`, name: `Graduate ${i}` },
          achievement: { name: "Diploma", description: "Done." },
          issuanceDate: "2025-06-30T00:00:00Z"
        }))
      })
      const batch = yield* Batches.create(principal, request, new Date())
      yield* pipeline.drain
      const [first] = yield* Effect.flatMap(BatchStore, (s) => s.credentialsOf(batch.id as BatchId))
      const status = first!.document!.credentialStatus as { statusListCredential: string; statusListIndex: string }
      const listId = Number(status.statusListCredential.split("/").at(-1))

      const read = StatusListPublisher.credential(tenant.id, listId).pipe(Effect.map(Option.getOrThrow))
      const a = yield* read
      const b = yield* read
      assert.strictEqual(a, b, "the second read is the document signed by the first")

      yield* Credentials.revoke(principal, first!.id as CredentialId, { reason: "error", reason_code: "issuer_error" }, new Date())
      const c = yield* read
      assert.notStrictEqual(c, a)
      assert.notDeepEqual(c.proof, a.proof)
      const bits = Either.getOrThrow(StatusList.decode((c.credentialSubject as { encodedList: string }).encodedList))
      assert.isTrue(StatusList.isSet(bits, Number(status.statusListIndex)))
      assert.strictEqual(yield* read, c)
    }).pipe(Effect.provide(pipeline.layer))
  })
})
