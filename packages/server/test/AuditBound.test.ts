/**
 * What a SIGKILL can cost the audit log (`BatchedAuditLog`): records of reads wait up to a
 * second in the process and are written together; records of calls that can change state are
 * written before their answer. Killed outright, a server loses at most the records of the
 * reads it answered since its last write of them, never the record of a call that changed
 * state. Here: reads whose records were seen written survive, a POST answered just before the
 * kill has its record, and at most the reads made after the last write are missing.
 */
import { rmSync } from "node:fs"
import { afterAll, assert, describe, it } from "vitest"
import { admin, createTenant, eventually, newDataDir, type Running, start, stop } from "../testkit/process.js"

let server: Running | undefined

afterAll(async () => {
  if (server !== undefined) {
    await stop(server, "SIGKILL")
    rmSync(server.dataDir, { recursive: true, force: true })
  }
})

const auditOf = async (running: Running, tenantId: string) => {
  const listed = await admin(running, "GET", `/admin/tenants/${tenantId}/audit?limit=1000`)
  assert.strictEqual(listed.status, 200, JSON.stringify(listed.body))
  return listed.body.data as ReadonlyArray<{ readonly method: string; readonly request_id: string }>
}

describe("the audit log across a SIGKILL", () => {
  it("loses at most the reads since its last write of them, never a call that changed state", async () => {
    const dataDir = newDataDir()
    server = await start({ dataDir, env: { SIGIL_RATE_LIMIT_PER_MINUTE: "100000" } })
    const tenant = await createTenant(server, { name: "Audited University" })
    const read = async () => {
      const answer = await server!.api("GET", "/v1/tenants/me", tenant.key)
      assert.strictEqual(answer.status, 200)
    }
    for (let i = 0; i < 20; i++) await read()
    // Written (listing the log writes what waits first).
    await eventually(async () => {
      const rows = await auditOf(server!, tenant.id)
      return rows.filter((r) => r.method === "GET").length >= 20 ? true : undefined
    }, 30_000, "the first reads' records")
    for (let i = 0; i < 5; i++) await read()
    const posted = await server.api("POST", "/v1/webhooks", tenant.key, { url: "http://127.0.0.1:9/hook", events: ["batch.anchored"] })
    assert.strictEqual(posted.status, 201, JSON.stringify(posted.body))
    await stop(server, "SIGKILL")

    server = await start({ dataDir, port: server.port, adminPort: server.adminPort, env: { SIGIL_RATE_LIMIT_PER_MINUTE: "100000" }, bannerTimeoutMs: 120_000 })
    const rows = await auditOf(server, tenant.id)
    assert.strictEqual(rows.filter((r) => r.method === "POST").length, 1, "the state-changing call's record")
    const reads = rows.filter((r) => r.method === "GET").length
    // The 20 written before the kill are there; of the 5 after, those not written yet are not.
    assert.isAtLeast(reads, 20, "the reads written before the kill")
    assert.isAtMost(reads, 25)
  }, 300_000)
})
