import { OpenApi } from "@effect/platform"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { AdminApi } from "../src/AdminApi.js"
import * as ApiErrors from "../src/ApiErrors.js"
import * as IssuerApi from "../src/IssuerApi.js"

const committed = new URL("../../../docs/openapi.json", import.meta.url)

const operations = (spec: any) =>
  Object.entries(spec.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, op]: [string, any]) => ({ path, method, op }))
  )

describe("the OpenAPI document", () => {
  const spec = IssuerApi.openApi() as any

  it("docs/openapi.json is the generated document (run: npx tsx packages/http/scripts/openapi.ts)", () => {
    expect(readFileSync(committed, "utf8")).toBe(IssuerApi.openApiText())
  })

  it("is OpenAPI 3.1, version 1.0.0, with the bearer scheme", () => {
    expect(spec.openapi).toBe("3.1.0")
    expect(spec.info.version).toBe("1.0.0")
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
    expect(spec.tags.map((t: any) => t.name)).toEqual(["Batches", "Credentials", "Tenants", "Webhooks"])
  })

  it("has the twelve operations of issuer-api.md, with their operationIds, tags and success statuses", () => {
    const table = operations(spec).map(({ method, op, path }) => [
      op.operationId,
      method.toUpperCase(),
      path,
      op.tags[0],
      Object.keys(op.responses).find((s) => Number(s) < 300)
    ])
    expect(table).toEqual([
      ["createBatch", "POST", "/v1/batches", "Batches", "202"],
      ["listBatches", "GET", "/v1/batches", "Batches", "200"],
      ["getBatch", "GET", "/v1/batches/{id}", "Batches", "200"],
      ["getCredential", "GET", "/v1/credentials/{id}", "Credentials", "200"],
      ["revokeCredential", "POST", "/v1/credentials/{id}/revoke", "Credentials", "200"],
      ["eraseCredential", "POST", "/v1/credentials/{id}/erase", "Credentials", "200"],
      ["getCurrentTenant", "GET", "/v1/tenants/me", "Tenants", "200"],
      ["updateCurrentTenant", "PATCH", "/v1/tenants/me", "Tenants", "200"],
      ["createWebhook", "POST", "/v1/webhooks", "Webhooks", "201"],
      ["listWebhooks", "GET", "/v1/webhooks", "Webhooks", "200"],
      ["deleteWebhook", "DELETE", "/v1/webhooks/{id}", "Webhooks", "204"],
      ["testWebhook", "POST", "/v1/webhooks/{id}/test", "Webhooks", "200"]
    ])
  })

  it("secures every operation, documents X-Request-Id on every response and Idempotency-Key on every POST", () => {
    for (const { method, op } of operations(spec)) {
      expect(op.security).toEqual([{ bearer: [] }])
      for (const response of Object.values(op.responses) as Array<any>) {
        expect(response.headers["X-Request-Id"]).toEqual({ $ref: "#/components/headers/X-Request-Id" })
      }
      const idempotency = op.parameters.find((p: any) => p.name === "Idempotency-Key")
      expect(idempotency !== undefined).toBe(method === "post")
      expect(op.responses["429"].headers["Retry-After"]).toBeDefined()
    }
  })

  it("documents every error code of the contract, and no framework error", () => {
    const text = JSON.stringify(spec)
    const issuerCodes = ApiErrors.all
      .map((c) => ApiErrors.codeOf(c))
      .filter((c) => !["admin_token_invalid", "api_key_not_found", "key_vault_unavailable"].includes(c))
    for (const code of issuerCodes) expect(text).toContain(`"enum":["${code}"]`)
    expect(text).not.toContain("HttpApiDecodeError")
    expect(text).not.toContain("additionalProperties")
  })

  it("documents distinct error schemas: one component per code", () => {
    const errors = Object.entries(spec.components.schemas).filter(([, s]: [string, any]) => s.properties?.error?.properties?.code !== undefined)
    const codes = errors.map(([, s]: [string, any]) => s.properties.error.properties.code.enum[0])
    expect(new Set(codes).size).toBe(codes.length)
  })

  it("the administrative channel's document builds too", () => {
    const admin = OpenApi.fromApi(AdminApi) as any
    expect(Object.keys(admin.paths)).toEqual([
      "/admin/tenants",
      "/admin/tenants/{id}",
      "/admin/tenants/{id}/keys",
      "/admin/keys/{key_id}/revoke",
      "/admin/tenants/{id}/audit"
    ])
  })
})
