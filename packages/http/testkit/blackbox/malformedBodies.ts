/**
 * Property: a malformed body on any POST or PATCH answers a 4xx with a contract code, never a
 * 5xx, and changes no row.
 *
 * Three families of malformed bodies: text that is not JSON; JSON that is not an object; and a
 * valid body with one member replaced by a value of another JSON type, or a required member
 * removed.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Fixtures from "./fixtures.js"
import type * as Harness from "./harness.js"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

const notJson = fc.oneof(
  fc.string().filter((s) => !isJson(s)),
  fc.constantFrom("", " ", "{", "[1,", "{\"credentials\": [}", "nul", "{'a': 1}", "{\"a\":1}}", "\u0000"),
  fc.jsonValue().map((v) => `${JSON.stringify(v)},`).filter((s) => !isJson(s))
)

const notAnObject = fc
  .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue()))
  .map((v) => JSON.stringify(v))

type Path = ReadonlyArray<string | number>

/** Every member and item path of a JSON value. */
const paths = (value: Json, prefix: Path = []): Array<Path> => {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])])
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v as Json, [...prefix, k])])
  }
  return []
}

const get = (value: any, path: Path): any => path.reduce((v, k) => v?.[k], value)

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)

const replaced = (value: Json, path: Path, by: Json | undefined): Json => {
  const copy = structuredClone(value) as any
  const parent = get(copy, path.slice(0, -1))
  const key = path.at(-1)!
  if (by === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1)
    else delete parent[key]
  } else parent[key] = by
  return copy
}

const otherType = (original: unknown) =>
  fc.oneof(fc.integer(), fc.boolean(), fc.string(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.constant({}))
    .filter((v) => kind(v) !== kind(original))

/**
 * A valid body with one member made malformed. `required` lists the members whose removal is
 * malformed; `nullable` those for which `null` is valid.
 */
const mutated = (valid: Json, required: ReadonlyArray<string>, nullable: ReadonlyArray<string> = []) => {
  const all = paths(valid)
  const key = (p: Path) => p.filter((k) => typeof k === "string").join(".")
  const retyped = fc.constantFrom(...all).chain((path) =>
    otherType(get(valid, path))
      .filter((v) => !(v === null && nullable.includes(key(path))))
      .map((v) => JSON.stringify(replaced(valid, path, v)))
  )
  // Only object members: removing an array item may leave a valid array.
  const removable = all.filter((p) => typeof p.at(-1) === "string" && required.includes(key(p)))
  return removable.length === 0
    ? retyped
    : fc.oneof(retyped, fc.constantFrom(...removable).map((path) => JSON.stringify(replaced(valid, path, undefined))))
}

const malformed = (valid: Json, required: ReadonlyArray<string>, nullable?: ReadonlyArray<string>) =>
  fc.oneof(notJson, notAnObject, mutated(valid, required, nullable))

export const malformedBodiesSuite = (harness: () => Harness.Harness) =>
  describe("malformed bodies (property)", () => {
    it("every POST and PATCH answers 4xx with a contract code, never 5xx, and changes nothing", { timeout: 300_000 }, async () => {
      const h = harness()
      // The industry plan's 1,200 requests per minute leave room for the runs.
      const t = await h.tenant("industry")
      const created = await h.request("POST", "/v1/batches", { key: t.key, body: Fixtures.batch() })
      const [credentialId] = await h.run(Fixtures.credentialIds(created.body.id))
      const hook = await h.request("POST", "/v1/webhooks", { key: t.key, body: Fixtures.webhook() })

      // No `email`, `criteria` or `alignment`: optional members are exercised by type changes.
      const batch = {
        credentials: [{
          recipient: { id: Fixtures.recipientId(), name: "Ada Lovelace", email: "ada@example.org" },
          achievement: {
            name: "BSc",
            description: "Three years.",
            alignment: [{ targetFramework: "ESCO", targetCode: "0613", targetName: "Software" }]
          },
          issuanceDate: "2025-06-30T12:00:00Z",
          expirationDate: "2030-06-30T12:00:00Z"
        }]
      }
      const operations: ReadonlyArray<readonly [string, string, fc.Arbitrary<string>]> = [
        [
          "POST",
          "/v1/batches",
          malformed(
            batch,
            [
              "credentials",
              "credentials.recipient",
              "credentials.recipient.id",
              "credentials.recipient.name",
              "credentials.achievement",
              "credentials.achievement.name",
              "credentials.achievement.description",
              "credentials.achievement.alignment.targetFramework",
              "credentials.achievement.alignment.targetCode",
              "credentials.achievement.alignment.targetName",
              "credentials.issuanceDate"
            ],
            ["credentials.expirationDate"]
          )
        ],
        ["POST", `/v1/credentials/${credentialId}/revoke`, malformed(Fixtures.revocation, ["reason", "reason_code"])],
        ["POST", `/v1/credentials/${credentialId}/erase`, malformed(Fixtures.erasure, ["requester", "verified_at"])],
        ["PATCH", "/v1/tenants/me", malformed(Fixtures.tenantUpdate as unknown as Json, ["awarding_body.name"])],
        ["POST", "/v1/webhooks", malformed(Fixtures.webhook(), ["url", "events"])]
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
        ["POST", "/admin/tenants", malformed({ name: "Example", plan: "starter" }, ["name", "plan"])],
        [
          "PATCH",
          `/admin/tenants/${t.id}`,
          malformed({ plan: "industry", recipient_name_mode: "hashed", ip_allowlist: ["10.0.0.0/8"] }, [])
        ],
        ["POST", `/admin/tenants/${t.id}/keys`, malformed({ environment: "test" }, ["environment"])]
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
        fc.asyncProperty(fc.oneof(notJson, notAnObject), async (raw) => {
          const reply = await h.request("POST", `/v1/webhooks/${hook.body.id}/test`, { key: t.key, raw })
          expect(reply.status).toBe(200)
        }),
        { numRuns: 20 }
      )
      expect(await h.run(Fixtures.snapshot)).toEqual(before)
    })
  })
