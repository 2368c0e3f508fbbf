/**
 * Property: a malformed body on any POST or PATCH answers a 4xx with a contract code, never a
 * 5xx, and changes no row. The bodies and their arbitraries are `bodies.ts`'s.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Bodies from "./bodies.js"
import * as Fixtures from "./fixtures.js"
import type * as Harness from "./harness.js"

export const malformedBodiesSuite = (harness: () => Harness.Harness) =>
  describe("malformed bodies (property)", () => {
    it("every POST and PATCH answers 4xx with a contract code, never 5xx, and changes nothing", { timeout: 300_000 }, async () => {
      const h = harness()
      // The industry plan's 1,200 requests per minute leave room for the runs.
      const t = await h.tenant("industry")
      const created = await h.request("POST", "/v1/batches", { key: t.key, body: Fixtures.batch() })
      const [credentialId] = await h.run(Fixtures.credentialIds(created.body.id))
      const hook = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook() })

      const operations: ReadonlyArray<readonly [string, string, fc.Arbitrary<string>]> = [
        ["POST", "/v1/batches", Bodies.malformedOf(Bodies.createBatch)],
        ["POST", `/v1/credentials/${credentialId}/revoke`, Bodies.malformedOf(Bodies.revokeCredential)],
        ["POST", `/v1/credentials/${credentialId}/erase`, Bodies.malformedOf(Bodies.eraseCredential)],
        ["PATCH", "/v1/tenants/me", Bodies.malformedOf(Bodies.updateCurrentTenant)],
        ["POST", "/v1/webhooks", Bodies.malformedOf(Bodies.createWebhook)]
      ]

      const before = await h.run(Fixtures.snapshot)
      for (const [method, path, bodies] of operations) {
        await fc.assert(
          fc.asyncProperty(bodies, async (raw) => {
            const reply = await h.request(method, path, { key: t.key, raw })
            expect(reply.status, `${method} ${path} ${raw.slice(0, 200)}`).toBe(400)
            expect(Fixtures.CODES.has(reply.body?.error?.code), reply.text).toBe(true)
          }),
          { numRuns: 60 }
        )
      }
      // The administrative channel's bodies too.
      const admin: ReadonlyArray<readonly [string, string, fc.Arbitrary<string>]> = [
        ["POST", "/admin/tenants", Bodies.malformedOf(Bodies.createTenant)],
        ["PATCH", `/admin/tenants/${t.id}`, Bodies.malformedOf(Bodies.updateTenant)],
        ["POST", `/admin/tenants/${t.id}/keys`, Bodies.malformedOf(Bodies.createApiKey)]
      ]
      for (const [method, path, bodies] of admin) {
        await fc.assert(
          fc.asyncProperty(bodies, async (raw) => {
            const reply = await h.adminRaw(method, path, raw)
            expect(reply.status, `${method} ${path} ${raw.slice(0, 200)}`).toBe(400)
            expect(Fixtures.CODES.has(reply.body?.error?.code), reply.text).toBe(true)
          }),
          { numRuns: 40 }
        )
      }
      // testWebhook takes no body: whatever is sent is ignored, never a 5xx.
      await fc.assert(
        fc.asyncProperty(fc.oneof(Bodies.notJson, Bodies.notAnObject), async (raw) => {
          const reply = await h.request("POST", `/v1/webhooks/${hook.body.id}/test`, { key: t.key, raw })
          expect(reply.status).toBe(200)
        }),
        { numRuns: 20 }
      )
      expect(await h.run(Fixtures.snapshot)).toEqual(before)
    })
  })
