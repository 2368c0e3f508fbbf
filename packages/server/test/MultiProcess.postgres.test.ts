/**
 * Two server processes behind one Postgres stay coherent: a key revoked, or an allowlist set,
 * through one process is refused by the next request there and by the other process as soon as
 * the change feed (`LISTEN/NOTIFY`) brings the change over — well within 5 s here, while the
 * authentication cache's TTL, the bound should a notification be lost, is a minute
 * (`SIGIL_AUTH_CACHE_TTL`), so only the feed can pass this test; a revocation made through one
 * is in the status list and the page the other had kept (`PublicCache`) by the same way.
 * Skipped without a reachable Postgres (failing instead when CI=true).
 */
import { freshDatabase, postgresReachable, SKIP_MESSAGE } from "@sigil/store-pg/testkit/database"
import { Redacted } from "effect"
import { rmSync } from "node:fs"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { admin, batchOf, createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"
import * as StatusList from "@sigil/core/StatusList"
import { Either } from "effect"

// What the change feed must do, with room for a loaded machine; far below the TTL below.
const FEED_DELAY_MS = 5_000

const reachable = await postgresReachable()
if (!reachable) console.log(SKIP_MESSAGE)

let a: Running
let b: Running

describe.skipIf(!reachable)("two processes on one Postgres", () => {
  beforeAll(async () => {
    const url = Redacted.value(await freshDatabase())
    // One after the other: the first applies the migrations.
    // Processes of one deployment share the master key (each would otherwise make its own, and
    // could not open the tenant keys the other sealed).
    const env = { DATABASE_URL: url, SIGIL_AUTH_CACHE_TTL: "60s", SIGIL_MASTER_KEY: "8f".repeat(32) }
    a = await start({ dataDir: newDataDir(), env })
    b = await start({ dataDir: newDataDir(), env })
  }, 240_000)

  afterAll(async () => {
    for (const running of [a, b]) {
      if (running === undefined) continue
      await stop(running)
      rmSync(running.dataDir, { recursive: true, force: true })
    }
  })

  it("a key revoked through one process is refused by both: at once there, through the change feed in the other", async () => {
    const tenant = await createTenant(a, { name: "Twice Served University" })
    for (const running of [a, b]) assert.strictEqual((await running.api("GET", "/v1/tenants/me", tenant.key)).status, 200)
    const revoked = await admin(a, "POST", `/admin/keys/${tenant.keyId}/revoke`)
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await a.api("GET", "/v1/tenants/me", tenant.key)).status, 401, "at once in the process that revoked it")
    await eventually(async () => ((await b.api("GET", "/v1/tenants/me", tenant.key)).status === 401 ? true : undefined), FEED_DELAY_MS, "the other process to refuse the key")
  })

  it("an allowlist set through one process applies in the other through the change feed", async () => {
    const tenant = await createTenant(a, { name: "Allowlisted University" })
    assert.strictEqual((await b.api("GET", "/v1/tenants/me", tenant.key)).status, 200)
    const updated = await admin(a, "PATCH", `/admin/tenants/${tenant.id}`, { ip_allowlist: ["198.51.100.0/24"] })
    assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
    const refused = await a.api("GET", "/v1/tenants/me", tenant.key)
    assert.strictEqual(refused.status, 401)
    assert.strictEqual(refused.body.error.code, "ip_not_allowed")
    await eventually(async () => ((await b.api("GET", "/v1/tenants/me", tenant.key)).status === 401 ? true : undefined), FEED_DELAY_MS, "the other process to apply the allowlist")
  })

  it("a revocation through one process: the status list and the page the other kept change with it", async () => {
    const tenant = await createTenant(a, { name: "Revoking University" })
    const created = await a.api("POST", "/v1/batches", tenant.key, batchOf(1))
    assert.strictEqual(created.status, 202, JSON.stringify(created.body))
    const credential = await eventually(async () => {
      const batch = await a.api("GET", `/v1/batches/${created.body.id}`, tenant.key)
      if (batch.body.status !== "anchored") return undefined
      return (await a.api("GET", `/v1/credentials/${batch.body.credentials[0].id}`, tenant.key)).body
    }, 90_000, "the batch to be anchored")
    const list = new URL(credential.signed_credential.credentialStatus.statusListCredential).pathname
    const index = Number(credential.signed_credential.credentialStatus.statusListIndex)
    const revokedIn = async (running: Running) => {
      const response = await fetch(`${running.baseUrl}${list}`)
      const body = await response.json()
      if (body.credentialSubject === undefined) throw new Error(`${response.status} ${JSON.stringify(body)}`)
      return StatusList.isSet(Either.getOrThrow(StatusList.decode(body.credentialSubject.encodedList as string)), index)
    }
    const pageTiming = async (running: Running) => (await fetch(`${running.baseUrl}/c/${credential.id}`)).headers.get("server-timing")
    // B keeps both: the page twice with one verification's timing.
    assert.isFalse(await revokedIn(b))
    const kept = await pageTiming(b)
    assert.strictEqual(await pageTiming(b), kept, "B answers its page from memory")

    const revocation = await a.api("POST", `/v1/credentials/${credential.id}/revoke`, tenant.key, {
      reason: "Issued in error",
      reason_code: "issuer_error"
    })
    assert.strictEqual(revocation.status, 200, JSON.stringify(revocation.body))
    await eventually(async () => ((await revokedIn(b)) ? true : undefined), FEED_DELAY_MS, "B's status list to show the revocation")
    assert.notStrictEqual(await pageTiming(b), kept, "B verified its page again")
  }, 120_000)
})
