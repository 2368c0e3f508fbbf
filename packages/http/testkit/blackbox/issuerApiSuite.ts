/**
 * The black-box suite of the issuer API and the administrative channel: real servers on random
 * ports over a given store layer, driven with `fetch`. It knows nothing of the store: run it
 * against memory stores here, against PGlite and Postgres from packages/server:
 *
 *   issuerApiSuite("pglite", () => PgStores.layerPGlite(...))
 */
import { FetchHttpClient, HttpApiClient, HttpApiSchema, HttpClient, HttpClientRequest } from "@effect/platform"
import * as BatchStore from "@sigil/service/Batches/BatchStore"
import * as EventStore from "@sigil/service/Events/EventStore"
import type { BatchId, TenantId } from "@sigil/core/Ids"
import * as Plans from "@sigil/service/Tenants/Plans"
import * as WebhookSignature from "@sigil/service/Webhooks/WebhookSignature"
import * as TenantStore from "@sigil/service/Tenants/TenantStore"
import { Effect, Either, Schema } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ApiErrors from "../../src/ApiErrors.js"
import * as IssuerApi from "../../src/IssuerApi.js"
import * as Fixtures from "./fixtures.js"
import * as Harness from "./harness.js"
import { malformedBodiesSuite } from "./malformedBodies.js"

const REQUEST_ID = /^req_[0-9A-Z]{26}$/

/**
 * A contract error: status, code, exactly the body of the code's class, request id in body and
 * header.
 */
export const expectError = (reply: Harness.Reply, status: number, code: string) => {
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status, body: { error: { code } } })
  const cls = ApiErrors.classOf(code as ApiErrors.Code) as unknown as Schema.Schema<unknown, unknown>
  expect(HttpApiSchema.getStatusErrorAST(cls.ast)).toBe(status)
  Schema.decodeUnknownSync(Schema.encodedSchema(cls), { onExcessProperty: "error" })(reply.body)
  expect(reply.body.error.message).not.toBe("")
  expect(reply.body.error.request_id).toMatch(REQUEST_ID)
  expect(reply.headers.get("x-request-id")).toBe(reply.body.error.request_id)
  expect(reply.headers.get("content-type")).toContain("application/json")
}

export const issuerApiSuite = (name: string, makeLayer: () => Harness.StoreLayer) =>
  describe(name, () => {
    let h: Harness.Harness
    beforeAll(async () => {
      h = await Harness.start(makeLayer())
    })
    afterAll(async () => {
      await h?.close()
    })

    const createBatch = async (key: string, body: unknown = Fixtures.batch(), headers?: Record<string, string>) =>
      h.request("POST", "/v1/batches", { key, body, headers })

    const credentialsOf = (batchId: string) =>
      h.run(Effect.flatMap(BatchStore.BatchStore, (s) => s.credentialsOf(batchId as BatchId)))

    /** A batch of one credential; its ids. */
    const issue = async (key: string) => {
      const created = await createBatch(key)
      expect(created.status).toBe(202)
      const [credential] = await credentialsOf(created.body.id)
      return { batchId: created.body.id as string, credentialId: credential!.id as string }
    }

    // -----------------------------------------------------------------------------------------
    describe("every response", () => {
      it("carries X-Request-Id (req_ + ULID), equal to error.request_id", async () => {
        const t = await h.tenant()
        const ok = await h.request("GET", "/v1/tenants/me", { key: t.key })
        expect(ok.status).toBe(200)
        expect(ok.headers.get("x-request-id")).toMatch(REQUEST_ID)
        expectError(await h.request("GET", "/v1/tenants/me"), 401, "api_key_missing")
        expectError(await h.request("GET", "/v1/nowhere", { key: t.key }), 404, "route_not_found")
        expectError(await h.request("GET", "/elsewhere"), 404, "route_not_found")
        const spec = await h.request("GET", "/v1/openapi.json")
        expect(spec.headers.get("x-request-id")).toMatch(REQUEST_ID)
        const ids = new Set([ok, spec].map((r) => r.headers.get("x-request-id")))
        expect(ids.size).toBe(2)
      })

      it("answers unknown routes and methods 404 route_not_found, after authentication", async () => {
        const t = await h.tenant()
        expectError(await h.request("GET", "/v1/nowhere", { key: t.key }), 404, "route_not_found")
        expectError(await h.request("DELETE", "/v1/batches", { key: t.key }), 404, "route_not_found")
        expectError(await h.request("PUT", "/v1/tenants/me", { key: t.key, body: {} }), 404, "route_not_found")
        expectError(await h.request("GET", "/v1/nowhere"), 401, "api_key_missing")
        expectError(await h.request("POST", "/anything", { body: {} }), 404, "route_not_found")
      })

      it("answers a body over 40 MB 413 payload_too_large, declared or streamed", async () => {
        const t = await h.tenant()
        const declared = await h.raw(
          "POST",
          "/v1/batches",
          { authorization: `Bearer ${t.key}`, "content-type": "application/json", "content-length": String(41 * 1024 * 1024) },
          [new TextEncoder().encode("{\"credentials\": [")]
        )
        expectError(declared, 413, "payload_too_large")
        const chunk = new Uint8Array(1024 * 1024).fill(0x20)
        async function* chunked() {
          for (let i = 0; i < 42; i++) yield chunk
        }
        const streamed = await h.raw(
          "POST",
          "/v1/batches",
          { authorization: `Bearer ${t.key}`, "content-type": "application/json", "transfer-encoding": "chunked" },
          chunked()
        )
        expectError(streamed, 413, "payload_too_large")
        const page = await h.request("GET", "/v1/batches", { key: t.key })
        expect(page.body.data).toEqual([])
      })

      it("answers a defect 500 internal_error and logs it with the request id, without secrets", async () => {
        const t = await h.tenant()
        const hook = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook("https://die.example/hook") })
        expect(hook.status).toBe(201)
        const before = h.logs.length
        const reply = await h.request("POST", `/v1/webhooks/${hook.body.id}/test`, {
          key: t.key,
          headers: { "idempotency-key": "defect-1" }
        })
        expectError(reply, 500, "internal_error")
        const logged = h.logs.slice(before).join("\n")
        expect(logged).toContain(reply.body.error.request_id)
        expect(logged).toContain("transport exploded")
        expect(logged).not.toContain("3mJr7AoUXx2Wqd")
        expect(logged).not.toContain("s3cr3t-token")
        expect(logged).not.toContain(t.key)
        // A 5xx releases the idempotency key: the retry runs again rather than answering 409.
        const retry = await h.request("POST", `/v1/webhooks/${hook.body.id}/test`, {
          key: t.key,
          headers: { "idempotency-key": "defect-1" }
        })
        expectError(retry, 500, "internal_error")
        expect(retry.headers.get("idempotent-replayed")).toBeNull()
      })

      it("serves the OpenAPI document and its viewer without a key", async () => {
        const spec = await h.request("GET", "/v1/openapi.json")
        expect(spec.status).toBe(200)
        expect(spec.body).toEqual(IssuerApi.openApi())
        const committed = JSON.parse(readFileSync(new URL("../../../../docs/openapi.json", import.meta.url), "utf8"))
        expect(spec.body).toEqual(committed)
        expect(spec.headers.get("ratelimit")).toBeNull()
        const docs = await h.request("GET", "/v1/docs")
        expect(docs.status).toBe(200)
        expect(docs.headers.get("content-type")).toContain("text/html")
        expect(docs.text).toContain("swagger-ui")
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("authentication", () => {
      it("401 api_key_missing, api_key_invalid", async () => {
        const t = await h.tenant()
        expectError(await h.request("GET", "/v1/tenants/me"), 401, "api_key_missing")
        expectError(await h.request("GET", "/v1/tenants/me", { headers: { authorization: "" } }), 401, "api_key_missing")
        for (
          const authorization of [
            "Bearer nope",
            `Basic ${Buffer.from("a:b").toString("base64")}`,
            `Bearer ${t.key.replace("sigil_test_", "sigil_prod_")}`,
            `Bearer ${t.key.replace("sigil_test_", "sigil_live_")}`,
            `Bearer ${t.key.slice(0, -1)}${t.key.endsWith("2") ? "3" : "2"}`,
            `Bearer sigil_test_${"1".repeat(44)}`,
            t.key
          ]
        ) {
          expectError(await h.request("GET", "/v1/tenants/me", { headers: { authorization } }), 401, "api_key_invalid")
        }
        const ok = await h.request("GET", "/v1/tenants/me", { headers: { authorization: `bearer ${t.key}` } })
        expect(ok.status).toBe(200)
      })

      it("401 api_key_revoked once revoked; the tenant's other keys still work", async () => {
        const t = await h.tenant()
        const second = await h.admin("POST", `/admin/tenants/${t.id}/keys`, { environment: "test" })
        expect((await h.request("GET", "/v1/tenants/me", { key: t.key })).status).toBe(200)
        const revoked = await h.admin("POST", `/admin/keys/${t.keyId}/revoke`)
        expect(revoked.status).toBe(200)
        expect(revoked.body).toMatchObject({ id: t.keyId })
        expectError(await h.request("GET", "/v1/tenants/me", { key: t.key }), 401, "api_key_revoked")
        expect((await h.request("GET", "/v1/tenants/me", { key: second.body.key })).status).toBe(200)
      })

      it("401 ip_not_allowed outside the allowlist (CIDR), 200 inside", async () => {
        const t = await h.tenant("institution")
        const outside = await h.admin("PATCH", `/admin/tenants/${t.id}`, { ip_allowlist: ["10.0.0.0/8", "2001:db8::/32"] })
        expect(outside.status).toBe(200)
        expectError(await h.request("GET", "/v1/tenants/me", { key: t.key }), 401, "ip_not_allowed")
        await h.admin("PATCH", `/admin/tenants/${t.id}`, { ip_allowlist: ["10.0.0.0/8", "127.0.0.0/8", "::1/128"] })
        expect((await h.request("GET", "/v1/tenants/me", { key: t.key })).status).toBe(200)
        await h.admin("PATCH", `/admin/tenants/${t.id}`, { ip_allowlist: [] })
        expect((await h.request("GET", "/v1/tenants/me", { key: t.key })).status).toBe(200)
      })

      it("403 tier_required: a live key once the plan has no live environment", async () => {
        const t = await h.tenant("starter", "live")
        expect((await h.request("GET", "/v1/tenants/me", { key: t.key })).status).toBe(200)
        await h.admin("PATCH", `/admin/tenants/${t.id}`, { plan: "developer" })
        expectError(await h.request("GET", "/v1/tenants/me", { key: t.key }), 403, "tier_required")
      })

      it("scopes every resource to the key's environment", async () => {
        const t = await h.tenant("starter", "test")
        const live = await h.admin("POST", `/admin/tenants/${t.id}/keys`, { environment: "live" })
        const { batchId, credentialId } = await issue(t.key)
        const hook = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook() })
        const liveKey = live.body.key as string
        expectError(await h.request("GET", `/v1/batches/${batchId}`, { key: liveKey }), 404, "batch_not_found")
        expectError(await h.request("GET", `/v1/credentials/${credentialId}`, { key: liveKey }), 404, "credential_not_found")
        expectError(await h.request("DELETE", `/v1/webhooks/${hook.body.id}`, { key: liveKey }), 404, "webhook_not_found")
        expect((await h.request("GET", "/v1/batches", { key: liveKey })).body.data).toEqual([])
        expect((await h.request("GET", "/v1/webhooks", { key: liveKey })).body.data).toEqual([])
        const me = await h.request("GET", "/v1/tenants/me", { key: liveKey })
        expect(me.body).toMatchObject({ id: t.id, environment: "live" })
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("another tenant's resources", () => {
      it("answer 404 with the resource's code on every resource route, and change nothing", async () => {
        const owner = await h.tenant()
        const other = await h.tenant()
        const { batchId, credentialId } = await issue(owner.key)
        const hook = await h.request("POST", "/v1/webhooks", { key: owner.key, body: Fixtures.webhook() })
        const before = await h.run(Fixtures.snapshot)
        const matrix: ReadonlyArray<readonly [string, string, unknown, number, string]> = [
          ["GET", `/v1/batches/${batchId}`, undefined, 404, "batch_not_found"],
          ["GET", `/v1/credentials/${credentialId}`, undefined, 404, "credential_not_found"],
          ["POST", `/v1/credentials/${credentialId}/revoke`, Fixtures.revocation, 404, "credential_not_found"],
          ["POST", `/v1/credentials/${credentialId}/erase`, Fixtures.erasure, 404, "credential_not_found"],
          ["DELETE", `/v1/webhooks/${hook.body.id}`, undefined, 404, "webhook_not_found"],
          ["POST", `/v1/webhooks/${hook.body.id}/test`, undefined, 404, "webhook_not_found"]
        ]
        for (const [method, path, body, status, code] of matrix) {
          expectError(await h.request(method, path, { key: other.key, body }), status, code)
        }
        expect(await h.run(Fixtures.snapshot)).toEqual(before)
        expect((await h.request("GET", "/v1/batches", { key: other.key })).body.data).toEqual([])
        expect((await h.request("GET", "/v1/webhooks", { key: other.key })).body.data).toEqual([])
        expect((await h.request("GET", `/v1/credentials/${credentialId}`, { key: owner.key })).body.revoked).toBe(false)
      })

      it("malformed path ids answer the resource's 404", async () => {
        const t = await h.tenant()
        const bad = ["x", "bat_123", "crd_01ARZ3NDEKTSV4RRFFQ69G5FA", "whk_01arz3ndektsv4rrffq69g5fav", "%20"]
        for (const id of bad) {
          expectError(await h.request("GET", `/v1/batches/${id}`, { key: t.key }), 404, "batch_not_found")
          expectError(await h.request("GET", `/v1/credentials/${id}`, { key: t.key }), 404, "credential_not_found")
          expectError(
            await h.request("POST", `/v1/credentials/${id}/revoke`, { key: t.key, body: Fixtures.revocation }),
            404,
            "credential_not_found"
          )
          expectError(await h.request("DELETE", `/v1/webhooks/${id}`, { key: t.key }), 404, "webhook_not_found")
          expectError(await h.request("POST", `/v1/webhooks/${id}/test`, { key: t.key }), 404, "webhook_not_found")
        }
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("rate limiting", () => {
      it("reports RateLimit-Policy and RateLimit on every authenticated response", async () => {
        const t = await h.tenant()
        const first = await h.request("GET", "/v1/tenants/me", { key: t.key })
        expect(first.headers.get("ratelimit-policy")).toBe("\"default\";q=120;w=60")
        expect(first.headers.get("ratelimit")).toMatch(/^"default";r=119;t=\d+$/)
        const notFound = await h.request("GET", "/v1/batches/x", { key: t.key })
        expect(notFound.headers.get("ratelimit")).toMatch(/^"default";r=11[789];t=\d+$/)
        expect((await h.request("GET", "/v1/tenants/me")).headers.get("ratelimit")).toBeNull()
        const big = await h.tenant("institution")
        const reply = await h.request("GET", "/v1/tenants/me", { key: big.key })
        expect(reply.headers.get("ratelimit-policy")).toBe("\"default\";q=600;w=60")
      })

      it("429 rate_limited with Retry-After once the plan's bucket is empty (120 per minute)", async () => {
        const t = await h.tenant()
        let limited: Harness.Reply | undefined
        for (let i = 0; i < 400 && limited === undefined; i++) {
          const reply = await h.request("GET", "/v1/tenants/me", { key: t.key })
          if (reply.status === 429) limited = reply
          else expect(reply.status).toBe(200)
        }
        expect(limited).toBeDefined()
        expectError(limited!, 429, "rate_limited")
        expect(limited!.headers.get("retry-after")).toMatch(/^[1-9]\d*$/)
        expect(limited!.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/)
        expect(limited!.headers.get("ratelimit-policy")).toBe("\"default\";q=120;w=60")
      })

      it("a batch counts as one request; 429 for the tenant only; other tenants unaffected", async () => {
        // A small, slow bucket (5 per hour) so that nothing refills during the test.
        const request = await h.issuer({ rateLimitPolicy: () => ({ limit: 5, windowSeconds: 3600 }) })
        const t = await h.tenant()
        const other = await h.tenant()
        const batch = await request("POST", "/v1/batches", { key: t.key, body: Fixtures.batch(50) })
        expect(batch.status).toBe(202)
        expect(batch.headers.get("ratelimit")).toMatch(/^"default";r=4;t=\d+$/)
        for (let i = 0; i < 4; i++) expect((await request("GET", "/v1/tenants/me", { key: t.key })).status).toBe(200)
        const limited = await request("POST", "/v1/batches", { key: t.key, body: Fixtures.batch() })
        expectError(limited, 429, "rate_limited")
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(600)
        expect(limited.headers.get("ratelimit-policy")).toBe("\"default\";q=5;w=3600")
        expect(limited.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/)
        expectError(await request("GET", `/v1/batches/${batch.body.id}`, { key: t.key }), 429, "rate_limited")
        const unaffected = await request("GET", "/v1/tenants/me", { key: other.key })
        expect(unaffected.status).toBe(200)
        expect(unaffected.headers.get("ratelimit")).toMatch(/^"default";r=4;/)
        // Refused requests are audited too.
        const audit = await h.admin("GET", `/admin/tenants/${t.id}/audit`)
        expect(audit.body.data.map((r: any) => r.status)).toEqual([202, 200, 200, 200, 200, 429, 429])
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("idempotency", () => {
      it("replays the first response for the same key and body, with Idempotent-Replayed", async () => {
        const t = await h.tenant()
        const body = Fixtures.batch(2)
        const first = await createBatch(t.key, body, { "idempotency-key": "batch-1" })
        expect(first.status).toBe(202)
        expect(first.headers.get("idempotent-replayed")).toBeNull()
        const second = await createBatch(t.key, body, { "idempotency-key": "batch-1" })
        expect(second.status).toBe(202)
        expect(second.body).toEqual(first.body)
        expect(second.headers.get("idempotent-replayed")).toBe("true")
        expect(second.headers.get("content-type")).toContain("application/json")
        expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"))
        expect(second.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/)
        const page = await h.request("GET", "/v1/batches", { key: t.key })
        expect(page.body.data.map((b: any) => b.id)).toEqual([first.body.id])
      })

      it("409 idempotency_key_reused for the same key with another body", async () => {
        const t = await h.tenant()
        expect((await createBatch(t.key, Fixtures.batch(), { "idempotency-key": "k" })).status).toBe(202)
        expectError(await createBatch(t.key, Fixtures.batch(), { "idempotency-key": "k" }), 409, "idempotency_key_reused")
        expect((await h.request("GET", "/v1/batches", { key: t.key })).body.data).toHaveLength(1)
      })

      it("409 idempotency_key_in_use while the first request runs", async () => {
        const t = await h.tenant()
        const hook = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook("https://slow.example/hook") })
        const gate = h.hold()
        const path = `/v1/webhooks/${hook.body.id}/test`
        const first = h.request("POST", path, { key: t.key, headers: { "idempotency-key": "slow-1" } })
        await gate.entered
        expectError(
          await h.request("POST", path, { key: t.key, headers: { "idempotency-key": "slow-1" } }),
          409,
          "idempotency_key_in_use"
        )
        gate.release()
        const done = await first
        expect(done.status).toBe(200)
        const replay = await h.request("POST", path, { key: t.key, headers: { "idempotency-key": "slow-1" } })
        expect(replay.status).toBe(200)
        expect(replay.body).toEqual(done.body)
        expect(replay.headers.get("idempotent-replayed")).toBe("true")
      })

      it("stores 4xx answers too, and scopes keys by tenant and path", async () => {
        const t = await h.tenant()
        const other = await h.tenant()
        const bad = await createBatch(t.key, { credentials: [] }, { "idempotency-key": "same" })
        expectError(bad, 400, "invalid_field_format")
        const again = await createBatch(t.key, { credentials: [] }, { "idempotency-key": "same" })
        expect(again.status).toBe(400)
        expect(again.body).toEqual(bad.body)
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        // Same key, other path; same key, other tenant: independent.
        const hook = await h.request("POST", "/v1/webhooks", {
          key: t.key,
          body: Fixtures.webhook(),
          headers: { "idempotency-key": "same" }
        })
        expect(hook.status).toBe(201)
        expect((await createBatch(other.key, Fixtures.batch(), { "idempotency-key": "same" })).status).toBe(202)
      })

      it("400 invalid_field_format for an Idempotency-Key over 255 characters", async () => {
        const t = await h.tenant()
        const reply = await createBatch(t.key, Fixtures.batch(), { "idempotency-key": "k".repeat(256) })
        expectError(reply, 400, "invalid_field_format")
        expect(reply.body.error.message).toContain("Idempotency-Key")
        expect((await createBatch(t.key, Fixtures.batch(), { "idempotency-key": "k".repeat(255) })).status).toBe(202)
        expect((await h.request("GET", "/v1/batches", { key: t.key })).body.data).toHaveLength(1)
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("POST /batches", () => {
      it("202 pending batch; stores the batch, its credentials and a batch.created event", async () => {
        const t = await h.tenant()
        const reply = await createBatch(t.key, Fixtures.batch(3))
        expect(reply.status).toBe(202)
        expect(reply.body).toEqual({
          id: expect.stringMatching(/^bat_[A-Z0-9]{26}$/),
          status: "pending",
          credentials_count: 3,
          created_at: expect.any(String),
          environment: "test",
          anchored_at: null,
          merkle_root: null,
          anchor_transaction: null,
          credentials: null,
          error: null
        })
        expect(await credentialsOf(reply.body.id)).toHaveLength(3)
        const events = await h.run(
          Effect.flatMap(EventStore.EventStore, (s) => s.events(t.id as TenantId, "test", { limit: 10 }))
        )
        expect(events.map((e) => e.type)).toEqual(["batch.created"])
        const me = await h.request("GET", "/v1/tenants/me", { key: t.key })
        expect(me.body.credentials_issued_this_month).toBe(3)
      })

      it("400 with each validation code, naming the field", async () => {
        const t = await h.tenant("industry")
        const cases: ReadonlyArray<readonly [unknown, string, string]> = [
          [{}, "missing_required_field", "credentials"],
          [{ credentials: "x" }, "invalid_field_format", "credentials"],
          [{ credentials: [] }, "invalid_field_format", "credentials"],
          [{ credentials: [{ ...Fixtures.credential(), issuanceDate: "30/06/2025" }] }, "invalid_field_format", "issuanceDate"],
          [
            { credentials: [{ ...Fixtures.credential(), recipient: { id: "urn:uuid:NOT-A-UUID", name: "Ada" } }] },
            "recipient_id_invalid",
            "recipient.id"
          ],
          [
            { credentials: [Fixtures.credential(), { ...Fixtures.credential(), recipient: { name: "Ada" } }] },
            "missing_required_field",
            "credentials[1].recipient.id"
          ],
          [
            {
              credentials: [{
                ...Fixtures.credential(),
                achievement: { name: "Big", description: "x".repeat(70_000) }
              }]
            },
            "achievement_too_large",
            "achievement"
          ],
          [{ credentials: Array.from({ length: 501 }, Fixtures.credential) }, "batch_too_large", "credentials"],
          [
            {
              credentials: [{
                ...Fixtures.credential(),
                achievement: {
                  name: "BSc",
                  description: "d",
                  alignment: [{ targetFramework: "SFIA", targetCode: "1", targetName: "n" }]
                }
              }]
            },
            "alignment_framework_unknown",
            "targetFramework"
          ]
        ]
        for (const [body, code, field] of cases) {
          const reply = await createBatch(t.key, body)
          expectError(reply, 400, code)
          expect(reply.body.error.message).toContain(field)
        }
        expectError(await h.request("POST", "/v1/batches", { key: t.key, raw: "{\"credentials\": [" }), 400, "invalid_json")
        expectError(await h.request("POST", "/v1/batches", { key: t.key, raw: "" }), 400, "invalid_json")
        // Bytes that are not UTF-8 (a lone surrogate's encoding, 0xFF, an overlong "/") inside a
        // valid batch: refused, not read with replacement characters and issued (issue #18).
        const valid = new TextEncoder().encode(JSON.stringify(Fixtures.batch(1)).replace("Ada Lovelace", "Ada @@"))
        const at = valid.findIndex((b, i) => b === 0x40 && valid[i + 1] === 0x40)
        const invalid = new Uint8Array([...valid.slice(0, at), 0xed, 0xa0, 0x80, 0xff, 0xc0, 0xaf, ...valid.slice(at + 2)])
        const notUtf8 = await h.raw("POST", "/v1/batches", { authorization: `Bearer ${t.key}`, "content-type": "application/json" }, [invalid])
        expectError(notUtf8, 400, "invalid_json")
        expect(notUtf8.body.error.message).toContain("UTF-8")
        const list = await h.request("GET", "/v1/batches", { key: t.key })
        expect(list.body.data).toEqual([])
        // A tenant's data: never kept by a shared cache, never sniffed (issue #18).
        expect(list.headers.get("cache-control")).toBe("no-store")
        expect(list.headers.get("x-content-type-options")).toBe("nosniff")
        expect(notUtf8.headers.get("x-content-type-options")).toBe("nosniff")
      })

      it("accepts 500 credentials and ignores unknown members", async () => {
        const t = await h.tenant("industry")
        const body = { ...Fixtures.batch(500), extra: true }
        const reply = await createBatch(t.key, body)
        expect(reply.status).toBe(202)
        expect(reply.body.credentials_count).toBe(500)
      })

      it("422 monthly_quota_exceeded before anything is stored", async () => {
        const t = await h.tenant()
        const month = Plans.monthOf(new Date())
        // 999 of the developer plan's 1,000 credentials are used.
        const reserved = await h.run(
          Effect.flatMap(TenantStore.TenantStore, (s) => s.reserveCredentials(t.id as TenantId, month, 999, 1000))
        )
        expect(reserved).toBe(true)
        const before = await h.run(Fixtures.snapshot)
        expectError(await createBatch(t.key, Fixtures.batch(2)), 422, "monthly_quota_exceeded")
        expect(await h.run(Fixtures.snapshot)).toEqual(before)
        expect((await createBatch(t.key, Fixtures.batch(1))).status).toBe(202)
        expectError(await createBatch(t.key, Fixtures.batch(1)), 422, "monthly_quota_exceeded")
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("GET /batches", () => {
      it("walks 60 batches by cursor, newest first, with no gap and no duplicate", async () => {
        const t = await h.tenant()
        const created: Array<string> = []
        for (let i = 0; i < 60; i++) {
          const reply = await createBatch(t.key)
          expect(reply.status).toBe(202)
          created.push(reply.body.id)
        }
        const seen: Array<string> = []
        let cursor: string | null = null
        let pages = 0
        do {
          const query: string = cursor === null ? "?limit=7" : `?limit=7&cursor=${encodeURIComponent(cursor)}`
          const page = await h.request("GET", `/v1/batches${query}`, { key: t.key })
          expect(page.status).toBe(200)
          expect(page.body.data.length).toBeLessThanOrEqual(7)
          seen.push(...page.body.data.map((b: any) => b.id))
          expect(page.body.has_more).toBe(page.body.next_cursor !== null)
          cursor = page.body.next_cursor
          pages++
        } while (cursor !== null)
        expect(pages).toBe(9)
        expect(seen).toEqual([...created].reverse())
      })

      it("limit defaults to 25 and must be an integer from 1 to 100", async () => {
        const t = await h.tenant("industry")
        for (let i = 0; i < 26; i++) expect((await createBatch(t.key)).status).toBe(202)
        const first = await h.request("GET", "/v1/batches", { key: t.key })
        expect(first.body.data).toHaveLength(25)
        expect(first.body.has_more).toBe(true)
        expect((await h.request("GET", "/v1/batches?limit=1", { key: t.key })).body.data).toHaveLength(1)
        const all = await h.request("GET", "/v1/batches?limit=100", { key: t.key })
        expect(all.body.data).toHaveLength(26)
        expect(all.body).toMatchObject({ has_more: false, next_cursor: null })
        for (const limit of ["0", "101", "-1", "1.5", "abc", ""]) {
          const reply = await h.request("GET", `/v1/batches?limit=${limit}`, { key: t.key })
          expectError(reply, 400, "invalid_field_format")
          expect(reply.body.error.message).toContain("limit")
        }
      })

      it("filters by status; a bad status or cursor is 400 invalid_field_format naming it", async () => {
        const t = await h.tenant()
        await createBatch(t.key)
        await createBatch(t.key)
        expect((await h.request("GET", "/v1/batches?status=pending", { key: t.key })).body.data).toHaveLength(2)
        expect((await h.request("GET", "/v1/batches?status=anchored", { key: t.key })).body.data).toHaveLength(0)
        const status = await h.request("GET", "/v1/batches?status=done", { key: t.key })
        expectError(status, 400, "invalid_field_format")
        expect(status.body.error.message).toContain("status")
        const forged = await h.request("GET", "/v1/batches?cursor=abc.def", { key: t.key })
        expectError(forged, 400, "invalid_field_format")
        expect(forged.body.error.message).toContain("cursor")
        const page = await h.request("GET", "/v1/batches?limit=1&status=pending", { key: t.key })
        const otherFilter = await h.request("GET", `/v1/batches?cursor=${encodeURIComponent(page.body.next_cursor)}`, {
          key: t.key
        })
        expectError(otherFilter, 400, "invalid_field_format")
        // Another tenant's cursor does not reveal its batches.
        const other = await h.tenant()
        const stolen = await h.request("GET", `/v1/batches?limit=1&status=pending&cursor=${encodeURIComponent(page.body.next_cursor)}`, {
          key: other.key
        })
        expect(stolen.status).toBe(200)
        expect(stolen.body.data).toEqual([])
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("GET /batches/{id}", () => {
      it("200 the batch, 404 batch_not_found", async () => {
        const t = await h.tenant()
        const { batchId } = await issue(t.key)
        const reply = await h.request("GET", `/v1/batches/${batchId}`, { key: t.key })
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({ id: batchId, status: "pending", credentials_count: 1, credentials: null })
        expectError(
          await h.request("GET", "/v1/batches/bat_01ARZ3NDEKTSV4RRFFQ69G5FAV", { key: t.key }),
          404,
          "batch_not_found"
        )
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("credentials", () => {
      it("GET: 200 with signed_credential null while pending; 404 credential_not_found", async () => {
        const t = await h.tenant()
        const { credentialId } = await issue(t.key)
        const reply = await h.request("GET", `/v1/credentials/${credentialId}`, { key: t.key })
        expect(reply.body).toEqual({
          id: credentialId,
          verify_url: `http://localhost:8080/c/${credentialId}`,
          status: "pending",
          revoked: false,
          erased: false,
          signed_credential: null,
          email_delivery: null
        })
        expectError(
          await h.request("GET", "/v1/credentials/crd_01ARZ3NDEKTSV4RRFFQ69G5FAV", { key: t.key }),
          404,
          "credential_not_found"
        )
      })

      it("revoke: 200, then 409 credential_already_revoked; 400 on a bad body", async () => {
        const t = await h.tenant()
        const { credentialId } = await issue(t.key)
        const path = `/v1/credentials/${credentialId}/revoke`
        expectError(await h.request("POST", path, { key: t.key, body: { reason: "x" } }), 400, "missing_required_field")
        expectError(
          await h.request("POST", path, { key: t.key, body: { reason: "x", reason_code: "typo" } }),
          400,
          "invalid_field_format"
        )
        expectError(await h.request("POST", path, { key: t.key, raw: "nope" }), 400, "invalid_json")
        const reply = await h.request("POST", path, { key: t.key, body: Fixtures.revocation })
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({
          id: credentialId,
          revoked: true,
          revoked_at: expect.any(String),
          reason: Fixtures.revocation.reason,
          reason_code: "reissued"
        })
        expectError(await h.request("POST", path, { key: t.key, body: Fixtures.revocation }), 409, "credential_already_revoked")
        const after = await h.request("GET", `/v1/credentials/${credentialId}`, { key: t.key })
        expect(after.body).toMatchObject({ revoked: true, erased: false })
        expectError(
          await h.request("POST", "/v1/credentials/crd_01ARZ3NDEKTSV4RRFFQ69G5FAV/revoke", { key: t.key, body: Fixtures.revocation }),
          404,
          "credential_not_found"
        )
      })

      it("erase: 200, then 409 credential_already_erased; independent of revocation", async () => {
        const t = await h.tenant()
        const { credentialId } = await issue(t.key)
        const path = `/v1/credentials/${credentialId}/erase`
        expectError(
          await h.request("POST", path, { key: t.key, body: { requester: "someone", verified_at: "2025-07-01T09:00:00Z" } }),
          400,
          "invalid_field_format"
        )
        expectError(
          await h.request("POST", path, { key: t.key, body: { requester: "dpo", verified_at: "yesterday" } }),
          400,
          "invalid_field_format"
        )
        const reply = await h.request("POST", path, { key: t.key, body: Fixtures.erasure })
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({
          id: credentialId,
          erased: true,
          erased_at: expect.any(String),
          verification_status_after_erasure: "verifiable"
        })
        expectError(await h.request("POST", path, { key: t.key, body: Fixtures.erasure }), 409, "credential_already_erased")
        const revoked = await h.request("POST", `/v1/credentials/${credentialId}/revoke`, { key: t.key, body: Fixtures.revocation })
        expect(revoked.status).toBe(200)
        const after = await h.request("GET", `/v1/credentials/${credentialId}`, { key: t.key })
        expect(after.body).toMatchObject({ revoked: true, erased: true })
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("tenants", () => {
      it("GET /tenants/me: the key's tenant", async () => {
        const t = await h.tenant("starter")
        const reply = await h.request("GET", "/v1/tenants/me", { key: t.key })
        expect(reply.body).toEqual({
          id: t.id,
          name: expect.any(String),
          display_name: null,
          did: expect.stringMatching(/^did:web:localhost%3A8080:tenants:[0-9a-z]{26}$/),
          plan: "starter",
          environment: "test",
          awarding_body: null,
          verify_page_branding: null,
          email_delivery: { enabled: false, sender_name: null, reply_to: null },
          credentials_issued_this_month: 0,
          credentials_limit_this_month: 10_000
        })
      })

      it("PATCH /tenants/me: only members present change; {} is a no-op; 400 on bad members", async () => {
        const t = await h.tenant()
        const updated = await h.request("PATCH", "/v1/tenants/me", { key: t.key, body: Fixtures.tenantUpdate })
        expect(updated.status).toBe(200)
        expect(updated.body).toMatchObject({
          display_name: "University of Example",
          awarding_body: { name: "Faculty of Science", url: "https://science.example.org", logo_url: "https://science.example.org/logo.png" }
        })
        const same = await h.request("PATCH", "/v1/tenants/me", { key: t.key, body: {} })
        expect(same.body).toEqual(updated.body)
        const renamed = await h.request("PATCH", "/v1/tenants/me", { key: t.key, body: { display_name: "UoE" } })
        expect(renamed.body).toMatchObject({ display_name: "UoE", awarding_body: { name: "Faculty of Science" } })
        expectError(
          await h.request("PATCH", "/v1/tenants/me", { key: t.key, body: { display_name: 42 } }),
          400,
          "invalid_field_format"
        )
        expectError(
          await h.request("PATCH", "/v1/tenants/me", { key: t.key, body: { awarding_body: { url: "https://x.example" } } }),
          400,
          "missing_required_field"
        )
        expectError(await h.request("PATCH", "/v1/tenants/me", { key: t.key, raw: "{" }), 400, "invalid_json")
      })

      it("403 tier_required for verify_page_branding on developer; allowed on starter", async () => {
        const dev = await h.tenant("developer")
        const branding = { verify_page_branding: { accent_color: "#1a4d8f" } }
        expectError(await h.request("PATCH", "/v1/tenants/me", { key: dev.key, body: branding }), 403, "tier_required")
        expect((await h.request("GET", "/v1/tenants/me", { key: dev.key })).body.verify_page_branding).toBeNull()
        const starter = await h.tenant("starter")
        const reply = await h.request("PATCH", "/v1/tenants/me", { key: starter.key, body: branding })
        expect(reply.status).toBe(200)
        expect(reply.body.verify_page_branding).toEqual({ accent_color: "#1a4d8f", logo_url: null })
        expectError(
          await h.request("PATCH", "/v1/tenants/me", {
            key: starter.key,
            body: { verify_page_branding: { accent_color: "blue" } }
          }),
          400,
          "invalid_field_format"
        )
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("webhooks", () => {
      it("create 201 with the signing secret; list without it; delete 204 then 404", async () => {
        const t = await h.tenant()
        const created = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook() })
        expect(created.status).toBe(201)
        expect(created.body).toEqual({
          id: expect.stringMatching(/^whk_[A-Z0-9]{26}$/),
          url: "https://hooks.example.org/sigil",
          events: ["batch.created", "batch.anchored", "webhook.test"],
          description: "Our receiver",
          active: true,
          created_at: expect.any(String),
          signing_secret: expect.stringMatching(/^whsec_/)
        })
        const list = await h.request("GET", "/v1/webhooks", { key: t.key })
        const { signing_secret: _, ...endpoint } = created.body
        expect(list.body).toEqual({ data: [endpoint] })
        const deleted = await h.request("DELETE", `/v1/webhooks/${created.body.id}`, { key: t.key })
        expect(deleted.status).toBe(204)
        expect(deleted.text).toBe("")
        expect(deleted.headers.get("x-request-id")).toMatch(REQUEST_ID)
        expectError(await h.request("DELETE", `/v1/webhooks/${created.body.id}`, { key: t.key }), 404, "webhook_not_found")
        expect((await h.request("GET", "/v1/webhooks", { key: t.key })).body).toEqual({ data: [] })
      })

      it("400 on a bad registration", async () => {
        const t = await h.tenant()
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ events: ["batch.created"] }, "missing_required_field"],
          [{ url: "not a url", events: ["batch.created"] }, "invalid_field_format"],
          [{ url: "ftp://files.example.org", events: ["batch.created"] }, "invalid_field_format"],
          [{ url: "https://hooks.example.org", events: [] }, "invalid_field_format"],
          [{ url: "https://hooks.example.org", events: ["batch.exploded"] }, "invalid_field_format"]
        ]
        for (const [body, code] of cases) expectError(await h.request("POST", "/v1/webhooks", { key: t.key, body }), 400, code)
        expect((await h.request("GET", "/v1/webhooks", { key: t.key })).body).toEqual({ data: [] })
      })

      it("test: delivers a signed webhook.test event now and reports the outcome", async () => {
        const t = await h.tenant()
        const created = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook("https://ok.example/hook") })
        const reply = await h.request("POST", `/v1/webhooks/${created.body.id}/test`, { key: t.key })
        expect(reply.status).toBe(200)
        expect(reply.body).toEqual({ delivered: true, status_code: 200, delivered_at: expect.any(String) })
        const delivery = h.sent.filter((d) => d.url === "https://ok.example/hook").at(-1)!
        const envelope = JSON.parse(delivery.body)
        expect(envelope).toMatchObject({ type: "webhook.test", tenant_id: t.id, id: expect.stringMatching(/^evt_/) })
        expect(delivery.headers["webhook-id"]).toBe(envelope.id)
        const expected = WebhookSignature.headers(created.body.signing_secret, envelope.id, new Date(Number(delivery.headers["webhook-timestamp"]) * 1000), delivery.body)
        expect(delivery.headers["webhook-signature"]).toBe(expected["webhook-signature"])

        const failing = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook("https://fail.example/hook") })
        const failed = await h.request("POST", `/v1/webhooks/${failing.body.id}/test`, { key: t.key, body: { ignored: true } })
        expect(failed.body).toMatchObject({ delivered: false, status_code: 500 })
        expectError(
          await h.request("POST", "/v1/webhooks/whk_01ARZ3NDEKTSV4RRFFQ69G5FAV/test", { key: t.key }),
          404,
          "webhook_not_found"
        )
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("audit log", () => {
      it("records every authenticated call with route template, status and request id; never the key", async () => {
        const t = await h.tenant()
        const { batchId } = await issue(t.key)
        const calls = [
          await h.request("GET", `/v1/batches/${batchId}`, { key: t.key }),
          await h.request("GET", "/v1/batches/x", { key: t.key }),
          await h.request("GET", "/v1/nowhere", { key: t.key }),
          await h.request("PATCH", "/v1/tenants/me", { key: t.key, raw: "{" })
        ]
        await h.request("GET", "/v1/tenants/me")
        const audit = await h.admin("GET", `/admin/tenants/${t.id}/audit`)
        expect(audit.status).toBe(200)
        const rows = audit.body.data as Array<Record<string, unknown>>
        expect(rows.map((r) => [r.method, r.route, r.status])).toEqual([
          ["POST", "/v1/batches", 202],
          ["GET", "/v1/batches/:id", 200],
          ["GET", "/v1/batches/:id", 404],
          ["GET", "/v1/nowhere", 404],
          ["PATCH", "/v1/tenants/me", 400]
        ])
        expect(rows.slice(1).map((r) => r.request_id)).toEqual(calls.map((c) => c.headers.get("x-request-id")))
        for (const row of rows) {
          expect(row).toMatchObject({ tenant_id: t.id, key_id: t.keyId, timestamp: expect.any(String) })
        }
        expect(JSON.stringify(rows)).not.toContain(t.key)
        const limited = await h.admin("GET", `/admin/tenants/${t.id}/audit?limit=2`)
        expect(limited.body.data).toHaveLength(2)
        const since = await h.admin("GET", `/admin/tenants/${t.id}/audit?since=${encodeURIComponent(String(rows[4]!.timestamp))}`)
        expect(since.body.data.length).toBeGreaterThanOrEqual(1)
        expectError(await h.admin("GET", `/admin/tenants/${t.id}/audit?limit=0`), 400, "invalid_field_format")
        expectError(await h.admin("GET", `/admin/tenants/${t.id}/audit?since=yesterday`), 400, "invalid_field_format")
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("administrative channel", () => {
      it("401 admin_token_invalid without the token", async () => {
        expectError(await h.admin("GET", "/admin/tenants/tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV", undefined, "wrong"), 401, "admin_token_invalid")
        expectError(await h.admin("POST", "/admin/tenants", { name: "x", plan: "developer" }, ""), 401, "admin_token_invalid")
        const reply = await fetch(`${h.adminUrl}/admin/tenants`, { method: "POST", body: "{}" })
        expect(reply.status).toBe(401)
        expect(reply.headers.get("x-request-id")).toMatch(REQUEST_ID)
      })

      it("creates, reads and updates tenants; issues and revokes keys", async () => {
        const created = await h.admin("POST", "/admin/tenants", { name: "Example University", plan: "starter" })
        expect(created.status).toBe(201)
        expect(created.body).toMatchObject({
          id: expect.stringMatching(/^tnt_/),
          name: "Example University",
          plan: "starter",
          did: expect.stringMatching(/^did:web:/),
          recipient_name_mode: "hashed",
          ip_allowlist: []
        })
        const id = created.body.id
        expect((await h.admin("GET", `/admin/tenants/${id}`)).body).toEqual(created.body)
        const updated = await h.admin("PATCH", `/admin/tenants/${id}`, { plan: "institution", recipient_name_mode: "plain" })
        expect(updated.body).toMatchObject({
          plan: "institution",
          recipient_name_mode: "plain",
          email_delivery: { enabled: false, sender_name: null, reply_to: null }
        })
        // E-mail delivery: set as a whole on the admin channel, shown to the tenant.
        const mail = { enabled: true, sender_name: "Registrar's Office", reply_to: "registrar@example.edu" }
        expect((await h.admin("PATCH", `/admin/tenants/${id}`, { email_delivery: mail })).body.email_delivery).toEqual(mail)
        const bare = await h.admin("PATCH", `/admin/tenants/${id}`, { email_delivery: { enabled: true } })
        expect(bare.body.email_delivery).toEqual({ enabled: true, sender_name: null, reply_to: null })
        expect((await h.admin("PATCH", `/admin/tenants/${id}`, { email_delivery: mail })).status).toBe(200)
        const key = await h.admin("POST", `/admin/tenants/${id}/keys`, { environment: "live" })
        expect(key.status).toBe(201)
        expect(key.body).toMatchObject({ id: expect.stringMatching(/^ak_/), environment: "live", key: expect.stringMatching(/^sigil_live_/) })
        expect((await h.request("GET", "/v1/tenants/me", { key: key.body.key })).body).toMatchObject({
          id,
          environment: "live",
          email_delivery: mail
        })
        expect((await h.admin("POST", `/admin/keys/${key.body.id}/revoke`)).status).toBe(200)
        expectError(await h.request("GET", "/v1/tenants/me", { key: key.body.key }), 401, "api_key_revoked")
      })

      it("answers the contract's errors", async () => {
        const dev = await h.tenant("developer")
        expectError(await h.admin("POST", "/admin/tenants", { plan: "developer" }), 400, "missing_required_field")
        expectError(await h.admin("POST", "/admin/tenants", { name: "x", plan: "gold" }), 400, "invalid_field_format")
        expectError(await h.admin("POST", "/admin/tenants", { name: " ", plan: "developer" }), 400, "invalid_field_format")
        expectError(await h.admin("GET", "/admin/tenants/tnt_01ARZ3NDEKTSV4RRFFQ69G5FAV"), 404, "tenant_not_found")
        expectError(await h.admin("GET", "/admin/tenants/nope"), 404, "tenant_not_found")
        expectError(await h.admin("POST", "/admin/keys/ak_01ARZ3NDEKTSV4RRFFQ69G5FAV/revoke"), 404, "api_key_not_found")
        expectError(await h.admin("POST", `/admin/tenants/${dev.id}/keys`, { environment: "live" }), 403, "tier_required")
        expectError(await h.admin("PATCH", `/admin/tenants/${dev.id}`, { ip_allowlist: ["10.0.0.0/8"] }), 403, "tier_required")
        const cidr = await h.admin("PATCH", `/admin/tenants/${dev.id}`, { ip_allowlist: ["10.0.0.0/33"] })
        expectError(cidr, 400, "invalid_field_format")
        expect(cidr.body.error.message).toContain("ip_allowlist[0]")
        for (const email_delivery of [{}, { enabled: "yes" }, { enabled: true, reply_to: "not an address" }, { enabled: true, sender_name: " " }, { enabled: true, sender_name: "a\r\nBcc: x@y.org" }, []]) {
          const reply = await h.admin("PATCH", `/admin/tenants/${dev.id}`, { email_delivery })
          expect(reply.status, JSON.stringify(email_delivery)).toBe(400)
          expect(["missing_required_field", "invalid_field_format"]).toContain(reply.body.error.code)
        }
        expectError(await h.admin("GET", "/v1/tenants/me"), 404, "route_not_found")
      })
    })

    // -----------------------------------------------------------------------------------------
    describe("the contract as a client", () => {
      it("HttpApiClient.make(IssuerApi) round-trips successes and typed errors", async () => {
        const t = await h.tenant()
        const program = Effect.gen(function*() {
          const client = yield* HttpApiClient.make(IssuerApi.IssuerApi, {
            baseUrl: h.baseUrl,
            transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(t.key))
          })
          const me = yield* client.Tenants.getCurrentTenant()
          // The client encodes the payload's decoded form (one `evidence` list per credential;
          // the recipient id is branded).
          const batch = yield* client.Batches.createBatch({
            payload: { credentials: [{ ...Fixtures.credential(), evidence: [] }] } as any,
            headers: { "idempotency-key": "client-1" }
          })
          const page = yield* client.Batches.listBatches({ urlParams: { limit: 10 } })
          const missing = yield* Effect.either(client.Batches.getBatch({ path: { id: "bat_01ARZ3NDEKTSV4RRFFQ69G5FAV" } }))
          return { me, batch, page, missing }
        }).pipe(Effect.provide(FetchHttpClient.layer))
        const { batch, me, missing, page } = await Effect.runPromise(program)
        expect(me.id).toBe(t.id)
        expect(page.data.map((b) => b.id)).toEqual([batch.id])
        expect(Either.isLeft(missing)).toBe(true)
        if (Either.isLeft(missing)) {
          expect(missing.left).toBeInstanceOf(ApiErrors.BatchNotFound)
          expect((missing.left as ApiErrors.BatchNotFound).error.code).toBe("batch_not_found")
        }
      })
    })

    malformedBodiesSuite(() => h)
  })
