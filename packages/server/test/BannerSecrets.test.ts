/**
 * The start banner shows the admin token only when Sigil made it: one an operator set in
 * `ADMIN_TOKEN` never reaches the output (a production log), yet still opens the admin channel
 * (issue #18, defect 6).
 */
import { randomBytes } from "node:crypto"
import { rmSync } from "node:fs"
import { afterAll, assert, describe, it } from "vitest"
import { newDataDir, type Running, start, stop } from "../testkit/process.js"

let server: Running | undefined

afterAll(async () => {
  if (server !== undefined) {
    await stop(server)
    rmSync(server.dataDir, { recursive: true, force: true })
  }
})

describe("the banner and the admin token", () => {
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
})
