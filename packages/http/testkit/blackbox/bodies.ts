/**
 * Request bodies for the property tests: for every operation that reads a body, a valid one
 * and what makes it malformed, and the arbitraries that break it.
 *
 * Three families of malformed bodies: text that is not JSON; JSON that is not an object; and a
 * valid body with one member replaced by a value of another JSON type, or a required member
 * removed.
 */
import fc from "fast-check"
import * as Fixtures from "./fixtures.js"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

export const notJson: fc.Arbitrary<string> = fc.oneof(
  fc.string().filter((s) => !isJson(s)),
  fc.constantFrom("", " ", "{", "[1,", "{\"credentials\": [}", "nul", "{'a': 1}", "{\"a\":1}}", "\u0000"),
  fc.jsonValue().map((v) => `${JSON.stringify(v)},`).filter((s) => !isJson(s))
)

export const notAnObject: fc.Arbitrary<string> = fc
  .oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue()))
  .map((v) => JSON.stringify(v))

export type Path = ReadonlyArray<string | number>

/** Every member and item path of a JSON value. */
export const paths = (value: Json, prefix: Path = []): Array<Path> => {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])])
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v as Json, [...prefix, k])])
  }
  return []
}

export const get = (value: any, path: Path): any => path.reduce((v, k) => v?.[k], value)

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)

/** A copy of `value` with the member at `path` replaced by `by`, or removed when undefined. */
export const replaced = (value: Json, path: Path, by: Json | undefined): Json => {
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
export const mutated = (valid: Json, required: ReadonlyArray<string>, nullable: ReadonlyArray<string> = []) => {
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

/** A body that is certainly malformed for an operation whose valid body is `valid`. */
export const malformed = (valid: Json, required: ReadonlyArray<string>, nullable?: ReadonlyArray<string>) =>
  fc.oneof(notJson, notAnObject, mutated(valid, required, nullable))

/**
 * A valid body of an operation, and what `mutated` needs to know of it. Optional members are
 * left out where noted: they are exercised by type changes.
 */
export interface Spec {
  readonly valid: Json
  readonly required: ReadonlyArray<string>
  readonly nullable?: ReadonlyArray<string>
}

/** No `criteria`: optional members are exercised by type changes. */
export const createBatch: Spec = {
  valid: {
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
  },
  required: [
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
  nullable: ["credentials.expirationDate"]
}

export const revokeCredential: Spec = { valid: Fixtures.revocation, required: ["reason", "reason_code"] }

export const eraseCredential: Spec = { valid: Fixtures.erasure, required: ["requester", "verified_at"] }

export const updateCurrentTenant: Spec = { valid: Fixtures.tenantUpdate as unknown as Json, required: ["awarding_body.name"] }

export const createWebhook: Spec = { valid: Fixtures.webhook(), required: ["url", "events"] }

export const createTenant: Spec = { valid: { name: "Example", plan: "starter" }, required: ["name", "plan"] }

export const updateTenant: Spec = {
  valid: { plan: "industry", recipient_name_mode: "hashed", ip_allowlist: ["10.0.0.0/8"] },
  required: []
}

export const createApiKey: Spec = { valid: { environment: "test" }, required: ["environment"] }

/** `malformed` of a spec. */
export const malformedOf = (spec: Spec) => malformed(spec.valid, spec.required, spec.nullable)
