/**
 * `npm start` on embedded defaults: the real server process boots on a fresh data directory,
 * prints a demo key that works, anchors a batch on the embedded devnet, stops cleanly on
 * SIGTERM, and after a restart still has the tenant, the batch and the chain.
 */
import { assert, describe, it } from "vitest"
import { rmSync } from "node:fs"
import { batchOf, demoKey, eventually, newDataDir, start } from "../testkit/process.js"

describe("the server process", () => {
  it("boots, anchors a batch, stops on SIGTERM, and keeps everything across a restart", async () => {
    const dataDir = newDataDir()
    try {
      const first = await start({ dataDir })
      const key = demoKey(first)
      assert.include(first.output(), "Admin channel")
      const created = await first.api("POST", "/v1/batches", key, batchOf(3))
      assert.strictEqual(created.status, 202, JSON.stringify(created.body))
      const anchored = await eventually(async () => {
        const batch = await first.api("GET", `/v1/batches/${created.body.id}`, key)
        return batch.body.status === "anchored" ? batch.body : undefined
      }, 60_000, "the batch to be anchored")
      assert.strictEqual(anchored.anchor_transaction.chain, "devnet")
      assert.strictEqual(anchored.credentials.length, 3)
      const credential = await first.api("GET", `/v1/credentials/${anchored.credentials[0].id}`, key)
      assert.strictEqual(credential.body.status, "anchored")
      assert.strictEqual(credential.body.signed_credential.proof[0].cryptosuite, "merkle-proof-2019")

      first.child.kill("SIGTERM")
      const stopped = await first.exited
      assert.isTrue(stopped.code === 0 || stopped.signal === "SIGTERM", JSON.stringify(stopped))

      const second = await start({ dataDir })
      try {
        // The key is printed by the first start only (BannerSecrets.test.ts), and still works.
        assert.notInclude(second.output(), key)
        assert.strictEqual((await second.api("GET", "/v1/tenants/me", key)).status, 200, "the same demo tenant and key after a restart")
        const again = await second.api("GET", `/v1/batches/${created.body.id}`, key)
        assert.strictEqual(again.body.status, "anchored")
        const tx = await fetch(`${second.baseUrl}/devnet/rpc`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getTransactionByHash", params: [anchored.anchor_transaction.hash] })
        }).then((r) => r.json() as Promise<{ result: { input: string; blockNumber: string } }>)
        assert.strictEqual(tx.result.input, anchored.merkle_root, "the devnet replayed the anchor transaction")
        assert.strictEqual(Number(tx.result.blockNumber), anchored.anchor_transaction.block_number)
      } finally {
        second.child.kill("SIGTERM")
        await second.exited
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 240_000)
})
