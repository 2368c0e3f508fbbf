/**
 * Secrets outside the vault (issue #18, defect 6). The start banner shows the admin token only
 * when Sigil made it: one an operator set in `ADMIN_TOKEN` never reaches the output (a
 * production log), yet still opens the admin channel. The demo tenant's API key is printed by
 * the start that created it and kept nowhere: no file of the data directory (the store
 * included) holds it, a restart does not print it, and it still works.
 */
import { randomBytes } from "node:crypto"
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { afterAll, assert, describe, it } from "vitest"
import { demoKey, newDataDir, type Running, start, stop } from "../testkit/process.js"

let server: Running | undefined
const dataDirs: Array<string> = []

afterAll(async () => {
  if (server !== undefined) {
    await stop(server)
    rmSync(server.dataDir, { recursive: true, force: true })
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

/** The files of a directory, recursively, that contain `text` (as bytes: binary files too). */
const filesContaining = (dir: string, text: string): Array<string> =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => readFileSync(file).includes(text))

describe("secrets outside the vault: the admin token and the demo key", () => {
  it("does not print a token that came from ADMIN_TOKEN, which still works", async () => {
    const token = `sigil_admin_${randomBytes(32).toString("base64url")}`
    server = await start({ dataDir: newDataDir(), env: { ADMIN_TOKEN: token } })
    assert.notInclude(server.output(), token)
    assert.include(server.output(), "token: from ADMIN_TOKEN (not shown)")
    const create = (bearer: string) =>
      fetch(`${server!.adminUrl}/admin/tenants`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Token University", plan: "starter" })
      })
    assert.strictEqual((await create(token)).status, 201)
    assert.strictEqual((await create(`${token}x`)).status, 401)
  }, 120_000)

  it("prints the demo key on the start that created it only, and keeps it nowhere", async () => {
    const dataDir = newDataDir()
    dataDirs.push(dataDir)
    const first = await start({ dataDir })
    const key = demoKey(first)
    const tenantId = /Demo tenant\s+(tnt_\S+)/.exec(first.output())![1]!
    assert.include(first.output(), `npm run admin -- keys create ${tenantId} --environment test`)
    await stop(first)
    assert.deepStrictEqual(filesContaining(dataDir, key), [], "no file of the data directory holds the key")
    const kept = JSON.parse(readFileSync(path.join(dataDir, "demo-tenant.json"), "utf8"))
    assert.deepStrictEqual(Object.keys(kept).sort(), ["keyId", "tenantId"])

    const second = await start({ dataDir, port: first.port, adminPort: first.adminPort })
    try {
      assert.notInclude(second.output(), key, "a restart does not print the key")
      assert.include(second.output(), tenantId)
      assert.include(second.output(), `npm run admin -- keys create ${tenantId} --environment test`)
      assert.strictEqual((await second.api("GET", "/v1/tenants/me", key)).status, 200, "the key still works")
    } finally {
      await stop(second)
    }
  }, 240_000)

  it("drops a key an earlier version kept in demo-tenant.json, after showing it once more", async () => {
    const dataDir = newDataDir()
    dataDirs.push(dataDir)
    const first = await start({ dataDir })
    const key = demoKey(first)
    await stop(first)
    const file = path.join(dataDir, "demo-tenant.json")
    const kept = JSON.parse(readFileSync(file, "utf8"))
    // The file as the earlier version wrote it: the tenant id and the key in clear.
    writeFileSync(file, `${JSON.stringify({ tenantId: kept.tenantId, apiKey: key }, null, 2)}\n`)
    const second = await start({ dataDir, port: first.port, adminPort: first.adminPort })
    try {
      assert.strictEqual(demoKey(second), key)
      assert.deepStrictEqual(filesContaining(dataDir, key), [])
    } finally {
      await stop(second)
    }
  }, 240_000)
})
