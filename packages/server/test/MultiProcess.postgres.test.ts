/**
 * Two server processes behind one Postgres stay coherent: a key revoked, or an allowlist set,
 * through one process is refused by the next request there and by the other process within its
 * authentication cache's TTL (`SIGIL_AUTH_CACHE_TTL`, 2 s here); a revocation made through one
 * is in the status list the other serves at once (status lists are read from the store on every
 * request). Skipped without a reachable Postgres (failing instead when CI=true).
 */
import { freshDatabase, postgresReachable, SKIP_MESSAGE } from "@sigil/store-pg/testkit/database"
import { Redacted } from "effect"
import { rmSync } from "node:fs"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { admin, createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"

const reachable = await postgresReachable()
if (!reachable) console.log(SKIP_MESSAGE)

let a: Running
let b: Running

describe.skipIf(!reachable)("two processes on one Postgres", () => {
  beforeAll(async () => {
    const url = Redacted.value(await freshDatabase())
    // One after the other: the first applies the migrations.
    a = await start({ dataDir: newDataDir(), env: { DATABASE_URL: url, SIGIL_AUTH_CACHE_TTL: "2s" } })
    b = await start({ dataDir: newDataDir(), env: { DATABASE_URL: url, SIGIL_AUTH_CACHE_TTL: "2s" } })
  }, 240_000)

  afterAll(async () => {
    for (const running of [a, b]) {
      if (running === undefined) continue
      await stop(running)
      rmSync(running.dataDir, { recursive: true, force: true })
    }
  })

  it("a key revoked through one process is refused by both: at once there, within the TTL in the other", async () => {
    const tenant = await createTenant(a, { name: "Twice Served University" })
    for (const running of [a, b]) assert.strictEqual((await running.api("GET", "/v1/tenants/me", tenant.key)).status, 200)
    const revoked = await admin(a, "POST", `/admin/keys/${tenant.keyId}/revoke`)
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    assert.strictEqual((await a.api("GET", "/v1/tenants/me", tenant.key)).status, 401, "at once in the process that revoked it")
    await eventually(async () => ((await b.api("GET", "/v1/tenants/me", tenant.key)).status === 401 ? true : undefined), 30_000, "the other process to refuse the key")
  })

  it("an allowlist set through one process applies in the other within the TTL", async () => {
    const tenant = await createTenant(a, { name: "Allowlisted University" })
    assert.strictEqual((await b.api("GET", "/v1/tenants/me", tenant.key)).status, 200)
    const updated = await admin(a, "PATCH", `/admin/tenants/${tenant.id}`, { ip_allowlist: ["198.51.100.0/24"] })
    assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
    const refused = await a.api("GET", "/v1/tenants/me", tenant.key)
    assert.strictEqual(refused.status, 401)
    assert.strictEqual(refused.body.error.code, "ip_not_allowed")
    await eventually(async () => ((await b.api("GET", "/v1/tenants/me", tenant.key)).status === 401 ? true : undefined), 30_000, "the other process to apply the allowlist")
  })
})
