import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Either, Exit, FastCheck as fc, JSONSchema, Option, Schema } from "effect"
import * as BatchInputs from "../src/Inputs/BatchInputs.js"
import * as CredentialInputs from "../src/Inputs/CredentialInputs.js"
import * as InputErrors from "../src/Inputs/InputErrors.js"
import * as TenantInputs from "../src/Inputs/TenantInputs.js"
import * as WebhookInputs from "../src/Inputs/WebhookInputs.js"
import * as Formats from "../src/internal/inputFormats.js"

const ci = process.env["CI"] === "true"
const runs = (n: number) => (ci ? n * 5 : n)

// Bodies are plain JSON built and mutated by the tests.
type Json = any
type Path = ReadonlyArray<string | number>
type Decoder = (u: unknown) => Effect.Effect<unknown, InputErrors.InvalidInput>

const REMOVE = Symbol("remove")
const RID = "urn:uuid:3f1c9a2e-7b4d-4e8f-9a6b-2c5d8e1f0a3b"
const FRAMEWORKS: ReadonlyArray<string> = ["ESCO", "O*NET", "ISCED-F", "CUSTOM"]

const validAlignment = (): Json => ({
  targetFramework: "ISCED-F",
  targetCode: "0613",
  targetName: "Software and applications development and analysis",
  targetUrl: "https://isced.example/0613"
})

const validCredential = (): Json => ({
  recipient: { id: RID, name: "Ada Lovelace", email: "ada@example.org" },
  achievement: {
    id: "https://university.example/programs/bsc-cs",
    name: "BSc Computer Science",
    description: "Three years of study in computer science.",
    criteria: { narrative: "Pass every module." },
    alignment: [validAlignment()],
    evidence: [{ narrative: "Thesis: on analytical engines" }]
  },
  issuanceDate: "2025-06-30T12:00:00Z",
  expirationDate: "2030-06-30T12:00:00Z",
  evidence: [{ id: "https://university.example/theses/1" }]
})

const validBatch = (n = 1): Json => ({ credentials: Array.from({ length: n }, validCredential) })

/** A copy of `base` with the value at `path` replaced (or removed). */
const edit = (base: Json, path: Path, value: unknown): Json => {
  const body = structuredClone(base)
  if (path.length === 0) return value
  let node = body
  for (const key of path.slice(0, -1)) node = node[key]
  const last = path[path.length - 1]!
  if (value === REMOVE) delete node[last]
  else node[last] = value
  return body
}

const formatPath = (path: Path): string =>
  path.reduce<string>((out, k) => (typeof k === "number" ? `${out}[${k}]` : out === "" ? k : `${out}.${k}`), "")

const expectInvalid = (decode: Decoder, body: unknown, code: InputErrors.InputErrorCode, field: string) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(decode(body))
    assert.instanceOf(error, InputErrors.InvalidInput)
    assert.strictEqual(error._tag, "InvalidInput")
    assert.deepStrictEqual({ code: error.code, field: error.field }, { code, field })
    if (field !== "") assert.include(error.message, field)
    if (code === "missing_required_field") assert.match(error.message, /^Missing required field /)
    return error
  })

const decodeBatch = BatchInputs.decodeCreateBatchRequest

/** Decoding ends in success or an `InvalidInput` failure: never a defect, never another error. */
const assertNoDefect = (exit: Exit.Exit<unknown, unknown>) => {
  if (Exit.isSuccess(exit)) return
  assert.isFalse(Cause.isDie(exit.cause), `defect: ${Cause.pretty(exit.cause)}`)
  const failure = Cause.failureOption(exit.cause)
  assert.isTrue(Option.isSome(failure))
  assert.instanceOf(Option.getOrThrow(failure), InputErrors.InvalidInput)
}

const bytes = (s: string) => new TextEncoder().encode(s).length

// -------------------------------------------------------------------------------------------
// every rule, by code and field path
// -------------------------------------------------------------------------------------------

interface Row {
  readonly name: string
  readonly path: Path
  readonly value: unknown
  readonly code: InputErrors.InputErrorCode
  /** Defaults to the path. */
  readonly field?: string
}

const c0 = ["credentials", 0] as const
const rows: ReadonlyArray<Row> = [
  // missing_required_field
  ...([
    ["credentials"],
    [...c0, "recipient"],
    [...c0, "recipient", "id"],
    [...c0, "recipient", "name"],
    [...c0, "achievement"],
    [...c0, "achievement", "name"],
    [...c0, "achievement", "description"],
    [...c0, "issuanceDate"],
    [...c0, "achievement", "alignment", 0, "targetFramework"],
    [...c0, "achievement", "alignment", 0, "targetCode"],
    [...c0, "achievement", "alignment", 0, "targetName"]
  ] as ReadonlyArray<Path>).map((path): Row => ({
    name: `absent ${formatPath(path)}`,
    path,
    value: REMOVE,
    code: "missing_required_field"
  })),

  // invalid_field_format: the body and the batch
  { name: "body is null", path: [], value: null, code: "invalid_field_format", field: "" },
  { name: "body is an array", path: [], value: [], code: "invalid_field_format", field: "" },
  { name: "body is a string", path: [], value: "{}", code: "invalid_field_format", field: "" },
  { name: "credentials is a string", path: ["credentials"], value: "x", code: "invalid_field_format" },
  { name: "credentials is an object", path: ["credentials"], value: { 0: {} }, code: "invalid_field_format" },
  { name: "credentials is null", path: ["credentials"], value: null, code: "invalid_field_format" },
  { name: "credentials is empty", path: ["credentials"], value: [], code: "invalid_field_format" },
  { name: "a credential is a number", path: [...c0], value: 7, code: "invalid_field_format" },
  { name: "a credential is an array", path: [...c0], value: [], code: "invalid_field_format" },

  // recipient
  { name: "recipient is a string", path: [...c0, "recipient"], value: "Ada", code: "invalid_field_format" },
  { name: "recipient is an array", path: [...c0, "recipient"], value: [], code: "invalid_field_format" },
  { name: "recipient.name is empty", path: [...c0, "recipient", "name"], value: "", code: "invalid_field_format" },
  { name: "recipient.name is blank", path: [...c0, "recipient", "name"], value: " \t\n ", code: "invalid_field_format" },
  { name: "recipient.name is a number", path: [...c0, "recipient", "name"], value: 42, code: "invalid_field_format" },
  { name: "recipient.name is null", path: [...c0, "recipient", "name"], value: null, code: "invalid_field_format" },
  {
    name: "recipient.name has 501 characters",
    path: [...c0, "recipient", "name"],
    value: "x".repeat(501),
    code: "invalid_field_format"
  },
  {
    name: "recipient.name has 501 code points of 2 UTF-16 units",
    path: [...c0, "recipient", "name"],
    value: "😀".repeat(501),
    code: "invalid_field_format"
  },
  ...["ada", "ada@example", "a b@example.org", "ada@example.o", "@example.org", "ada@@example.org"].map((
    email
  ): Row => ({
    name: `recipient.email ${JSON.stringify(email)}`,
    path: [...c0, "recipient", "email"],
    value: email,
    code: "invalid_field_format"
  })),
  {
    name: "recipient.email over 254 characters",
    path: [...c0, "recipient", "email"],
    value: `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.org`,
    code: "invalid_field_format"
  },
  { name: "recipient.email is a number", path: [...c0, "recipient", "email"], value: 1, code: "invalid_field_format" },

  // recipient_id_invalid
  ...[
    RID.toUpperCase(),
    "URN:UUID:3f1c9a2e-7b4d-4e8f-9a6b-2c5d8e1f0a3b",
    "urn:uuid:3F1C9A2E-7B4D-4E8F-9A6B-2C5D8E1F0A3B",
    "urn:uuid:3f1c9a2e-7b4d-1e8f-9a6b-2c5d8e1f0a3b", // version 1
    "urn:uuid:3f1c9a2e-7b4d-4e8f-ca6b-2c5d8e1f0a3b", // not the RFC variant
    "3f1c9a2e-7b4d-4e8f-9a6b-2c5d8e1f0a3b",
    "urn:uuid:{3f1c9a2e-7b4d-4e8f-9a6b-2c5d8e1f0a3b}",
    `${RID}\n`,
    "urn:uuid:3f1c9a2e7b4d4e8f9a6b2c5d8e1f0a3b",
    "",
    "ada@example.org",
    42,
    null,
    true,
    { id: RID },
    [RID]
  ].map((id): Row => ({
    name: `recipient.id ${JSON.stringify(id)}`,
    path: [...c0, "recipient", "id"],
    value: id,
    code: "recipient_id_invalid"
  })),

  // achievement
  { name: "achievement is a string", path: [...c0, "achievement"], value: "BSc", code: "invalid_field_format" },
  { name: "achievement is an array", path: [...c0, "achievement"], value: [], code: "invalid_field_format" },
  { name: "achievement is null", path: [...c0, "achievement"], value: null, code: "invalid_field_format" },
  ...["not a uri", "/programs/bsc", "https://exa mple.org/x", "http://ex.org/%zz", "bsc-cs", "ürn:x"].map((id): Row => ({
    name: `achievement.id ${JSON.stringify(id)}`,
    path: [...c0, "achievement", "id"],
    value: id,
    code: "invalid_field_format"
  })),
  { name: "achievement.id is a number", path: [...c0, "achievement", "id"], value: 5, code: "invalid_field_format" },
  { name: "achievement.name is empty", path: [...c0, "achievement", "name"], value: "", code: "invalid_field_format" },
  {
    name: "achievement.name has 1,001 characters",
    path: [...c0, "achievement", "name"],
    value: "n".repeat(1001),
    code: "invalid_field_format"
  },
  {
    name: "achievement.description is blank",
    path: [...c0, "achievement", "description"],
    value: "   ",
    code: "invalid_field_format"
  },
  {
    name: "achievement.description is an object",
    path: [...c0, "achievement", "description"],
    value: {},
    code: "invalid_field_format"
  },
  { name: "criteria is a string", path: [...c0, "achievement", "criteria"], value: "x", code: "invalid_field_format" },
  {
    name: "criteria.narrative is empty",
    path: [...c0, "achievement", "criteria", "narrative"],
    value: "",
    code: "invalid_field_format"
  },
  { name: "alignment is an object", path: [...c0, "achievement", "alignment"], value: {}, code: "invalid_field_format" },
  { name: "an alignment is a string", path: [...c0, "achievement", "alignment", 0], value: "ESCO", code: "invalid_field_format" },
  {
    name: "alignment.targetUrl is not a URI",
    path: [...c0, "achievement", "alignment", 0, "targetUrl"],
    value: "isced 0613",
    code: "invalid_field_format"
  },
  {
    name: "alignment.targetCode is empty",
    path: [...c0, "achievement", "alignment", 0, "targetCode"],
    value: "",
    code: "invalid_field_format"
  },
  {
    name: "alignment.targetName is a number",
    path: [...c0, "achievement", "alignment", 0, "targetName"],
    value: 613,
    code: "invalid_field_format"
  },

  // alignment_framework_unknown
  ...["esco", "ONET", "O*NET ", "ISCED", "Custom", "", 42, null, ["ESCO"]].map((framework): Row => ({
    name: `targetFramework ${JSON.stringify(framework)}`,
    path: [...c0, "achievement", "alignment", 0, "targetFramework"],
    value: framework,
    code: "alignment_framework_unknown"
  })),

  // evidence, at both levels
  { name: "evidence is a string", path: [...c0, "evidence"], value: "x", code: "invalid_field_format" },
  { name: "evidence is null", path: [...c0, "evidence"], value: null, code: "invalid_field_format" },
  { name: "an evidence item is empty", path: [...c0, "evidence", 0], value: {}, code: "invalid_field_format" },
  { name: "an evidence item is a string", path: [...c0, "evidence", 0], value: "x", code: "invalid_field_format" },
  {
    name: "an evidence item has only unknown members",
    path: [...c0, "evidence", 0],
    value: { url: "https://x.org" },
    code: "invalid_field_format"
  },
  { name: "evidence id is not a URI", path: [...c0, "evidence", 0, "id"], value: "thesis 1", code: "invalid_field_format" },
  {
    name: "evidence narrative is empty",
    path: [...c0, "evidence", 0, "narrative"],
    value: "",
    code: "invalid_field_format"
  },
  {
    name: "achievement evidence item is empty",
    path: [...c0, "achievement", "evidence", 0],
    value: {},
    code: "invalid_field_format"
  },
  {
    name: "achievement evidence id is not a URI",
    path: [...c0, "achievement", "evidence", 0, "id"],
    value: "//no-scheme",
    code: "invalid_field_format"
  },
  {
    name: "101 evidence items over both levels",
    path: [...c0, "evidence"],
    value: Array.from({ length: 100 }, (_, i) => ({ narrative: `item ${i}` })),
    code: "invalid_field_format"
  },

  // dates
  ...[
    "2025-06-30",
    "2025-06-30T12:00:00",
    "2025-06-30 12:00:00Z",
    "2025-06-30T12:00Z",
    "2025-02-30T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2025-04-31T00:00:00Z",
    "2025-13-01T00:00:00Z",
    "2025-00-10T00:00:00Z",
    "2025-06-00T00:00:00Z",
    "2025-06-30T24:00:00Z",
    "2025-06-30T12:60:00Z",
    "2025-06-30T12:00:60Z",
    "2025-06-30T12:00:00z",
    "2025-06-30t12:00:00Z",
    "2025-06-30T12:00:00+01:00",
    "2025-06-30T12:00:00-00:00",
    "2025-06-30T12:00:00+0000",
    "2025-06-30T12:00:00.Z",
    "2025-06-30T12:00:00.1234567890Z",
    "+02025-06-30T12:00:00Z",
    "Mon, 30 Jun 2025 12:00:00 GMT",
    "",
    1751284800000,
    null
  ].map((date): Row => ({
    name: `issuanceDate ${JSON.stringify(date)}`,
    path: [...c0, "issuanceDate"],
    value: date,
    code: "invalid_field_format"
  })),
  ...["2025-06-30T12:00:00Z", "2025-06-30T12:00:00.000000000+00:00", "2025-06-30T11:59:59.999Z", "2020-01-01T00:00:00Z"]
    .map((date): Row => ({
      name: `expirationDate ${date} is not after issuanceDate`,
      path: [...c0, "expirationDate"],
      value: date,
      code: "invalid_field_format"
    })),
  // Sane ranges (issue #18, defect 5): issuanceDate from 1900 to before 2200, expirationDate
  // before 2300.
  ...["0000-01-01T00:00:00Z", "1899-12-31T23:59:59.999999999Z", "2200-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]
    .map((date): Row => ({
      name: `issuanceDate ${date} is out of range`,
      path: [...c0, "issuanceDate"],
      value: date,
      code: "invalid_field_format"
    })),
  ...["2300-01-01T00:00:00Z", "9999-12-31T23:59:59Z"].map((date): Row => ({
    name: `expirationDate ${date} is out of range`,
    path: [...c0, "expirationDate"],
    value: date,
    code: "invalid_field_format"
  })),
  { name: "expirationDate is a number", path: [...c0, "expirationDate"], value: 5, code: "invalid_field_format" },
  {
    name: "expirationDate is not a date",
    path: [...c0, "expirationDate"],
    value: "2031-02-29T00:00:00Z",
    code: "invalid_field_format"
  },

  // achievement_too_large
  {
    name: "achievement description of 70,000 bytes",
    path: [...c0, "achievement", "description"],
    value: "d".repeat(70_000),
    code: "achievement_too_large",
    field: "credentials[0].achievement"
  },
  {
    name: "achievement with an unknown member of 70,000 bytes",
    path: [...c0, "achievement", "x_notes"],
    value: "d".repeat(70_000),
    code: "achievement_too_large",
    field: "credentials[0].achievement"
  },
  {
    name: "oversized achievement that also lacks its name (size first)",
    path: [...c0, "achievement"],
    value: { description: "d".repeat(70_000), alignment: [{ targetFramework: "NOPE" }] },
    code: "achievement_too_large"
  },
  {
    name: "an oversized achievement that is a string",
    path: [...c0, "achievement"],
    value: "d".repeat(70_000),
    code: "achievement_too_large"
  },

  // batch_too_large
  {
    name: "501 valid credentials",
    path: ["credentials"],
    value: validBatch(501).credentials,
    code: "batch_too_large"
  },
  {
    name: "10,000 junk credentials (not validated)",
    path: ["credentials"],
    value: Array.from({ length: 10_000 }, (_, i) => i),
    code: "batch_too_large"
  }
]

describe("Inputs", () => {
  describe("CreateBatchRequest: every rule, its code and its field", () => {
    it.effect("the base body is valid", () =>
      Effect.gen(function*() {
        const decoded = yield* decodeBatch(validBatch())
        assert.strictEqual(decoded.credentials.length, 1)
      }))

    for (const row of rows) {
      it.effect(`${row.code}: ${row.name}`, () =>
        expectInvalid(decodeBatch, edit(validBatch(), row.path, row.value), row.code, row.field ?? formatPath(row.path)))
    }

    it.effect("missing_required_field names the path inside a batch", () =>
      Effect.gen(function*() {
        const error = yield* expectInvalid(
          decodeBatch,
          edit(validBatch(5), ["credentials", 3, "recipient", "name"], REMOVE),
          "missing_required_field",
          "credentials[3].recipient.name"
        )
        assert.strictEqual(error.message, "Missing required field credentials[3].recipient.name")
      }))

    it.effect("invalid_field_format names the field and the expected format", () =>
      Effect.gen(function*() {
        const error = yield* expectInvalid(
          decodeBatch,
          edit(validBatch(), [...c0, "issuanceDate"], "30/06/2025"),
          "invalid_field_format",
          "credentials[0].issuanceDate"
        )
        assert.include(error.message, "expected an ISO 8601 UTC date-time")
        const empty = yield* expectInvalid(
          decodeBatch,
          edit(validBatch(), [...c0, "recipient", "name"], " "),
          "invalid_field_format",
          "credentials[0].recipient.name"
        )
        assert.include(empty.message, "must not be empty")
      }))

    it.effect("messages never quote the received value", () =>
      Effect.gen(function*() {
        const secret = "Ada Secret-Surname <ada.secret@example.org>"
        for (const path of [[...c0, "recipient", "email"], [...c0, "recipient", "id"], [...c0, "issuanceDate"]]) {
          const error = yield* Effect.flip(decodeBatch(edit(validBatch(), path, secret)))
          assert.notInclude(error.message, "Secret")
        }
      }))

    it.effect("batch_too_large is decided before any credential is looked at", () =>
      Effect.gen(function*() {
        let touched = 0
        const spy = () =>
          new Proxy({}, {
            get: () => {
              touched++
              return undefined
            },
            has: () => {
              touched++
              return false
            },
            ownKeys: () => {
              touched++
              return []
            }
          })
        yield* expectInvalid(decodeBatch, { credentials: Array.from({ length: 501 }, spy) }, "batch_too_large", "credentials")
        assert.strictEqual(touched, 0)
        const error = yield* Effect.flip(decodeBatch({ credentials: Array.from({ length: 10_000 }, () => ({})) }))
        assert.strictEqual(error.code, "batch_too_large")
        assert.include(error.message, "10000")
      }))

    it.effect("boundaries that pass: 500 credentials, 500-character names, leap days, 254-character e-mail", () =>
      Effect.gen(function*() {
        const decoded = yield* decodeBatch(validBatch(500))
        assert.strictEqual(decoded.credentials.length, 500)
        yield* decodeBatch(edit(validBatch(), [...c0, "recipient", "name"], "x".repeat(500)))
        yield* decodeBatch(edit(validBatch(), [...c0, "recipient", "name"], "😀".repeat(500)))
        yield* decodeBatch(edit(validBatch(), [...c0, "achievement", "name"], "é".repeat(1000)))
        for (
          const date of [
            "2024-02-29T00:00:00Z",
            "2000-02-29T23:59:59.999999999Z",
            "2025-06-30T12:00:00.5+00:00",
            "1900-01-01T00:00:00Z",
            "2199-12-31T23:59:59.999999999Z"
          ]
        ) {
          yield* decodeBatch(edit(edit(validBatch(), [...c0, "issuanceDate"], date), [...c0, "expirationDate"], REMOVE))
        }
        const email = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.org`
        assert.strictEqual(email.length, 254)
        yield* decodeBatch(edit(validBatch(), [...c0, "recipient", "email"], email))
        yield* decodeBatch(edit(validBatch(), [...c0, "achievement", "id"], "urn:uuid:5e3a3c5e-0a8e-4d3b-8f7e-1c2d3e4f5a6b"))
        yield* decodeBatch(
          edit(validBatch(), [...c0, "evidence"], Array.from({ length: 99 }, (_, i) => ({ narrative: `item ${i}` })))
        )
      }))

    describe("achievement_too_large: UTF-8 bytes of JSON.stringify, limit 65,536 inclusive", () => {
      /** An achievement whose JSON is exactly `size` bytes, its description made of `unit`. */
      const achievementOf = (size: number, unit: string) => {
        const shell = { name: "BSc", description: "" }
        const room = size - bytes(JSON.stringify(shell))
        const units = Math.floor(room / bytes(unit))
        const description = unit.repeat(units) + "a".repeat(room - units * bytes(unit))
        const achievement = { ...shell, description }
        assert.strictEqual(bytes(JSON.stringify(achievement)), size)
        return achievement
      }
      for (const unit of ["a", "é", "€", "😀"]) {
        it.effect(`${JSON.stringify(unit)}: 65,536 bytes pass, 65,537 fail`, () =>
          Effect.gen(function*() {
            yield* decodeBatch(edit(validBatch(), [...c0, "achievement"], achievementOf(65_536, unit)))
            yield* expectInvalid(
              decodeBatch,
              edit(validBatch(), [...c0, "achievement"], achievementOf(65_537, unit)),
              "achievement_too_large",
              "credentials[0].achievement"
            )
          }))
      }
      it.effect("escapes count as serialized (a control character is six bytes)", () =>
        Effect.gen(function*() {
          const shell = bytes(JSON.stringify({ name: "BSc", description: "" }))
          const n = Math.floor((65_536 - shell) / 6) + 1
          const achievement = { name: "BSc", description: "\u0001".repeat(n) }
          assert.isAbove(bytes(JSON.stringify(achievement)), 65_536)
          assert.isBelow(bytes(achievement.description), 65_536)
          yield* expectInvalid(
            decodeBatch,
            edit(validBatch(), [...c0, "achievement"], achievement),
            "achievement_too_large",
            "credentials[0].achievement"
          )
        }))
    })

    describe("the first failure in document order", () => {
      it.effect("the lowest credential index wins", () =>
        Effect.gen(function*() {
          const body = edit(
            edit(validBatch(5), ["credentials", 3, "issuanceDate"], "yesterday"),
            ["credentials", 1, "recipient", "name"],
            REMOVE
          )
          yield* expectInvalid(decodeBatch, body, "missing_required_field", "credentials[1].recipient.name")
        }))

      it.effect("members in the order the client sent them", () =>
        Effect.gen(function*() {
          const bad = { recipient: { id: "nope", name: "Ada" }, issuanceDate: "nope", achievement: { name: "A" } }
          yield* expectInvalid(
            decodeBatch,
            { credentials: [bad] },
            "recipient_id_invalid",
            "credentials[0].recipient.id"
          )
          const reordered = { issuanceDate: "nope", achievement: { name: "A" }, recipient: { id: "nope", name: "Ada" } }
          yield* expectInvalid(decodeBatch, { credentials: [reordered] }, "invalid_field_format", "credentials[0].issuanceDate")
        }))

      it.effect("missing members come after every present one", () =>
        Effect.gen(function*() {
          const body = { credentials: [{ issuanceDate: "2025-06-30T12:00:00Z", recipient: { id: RID, name: "" } }] }
          yield* expectInvalid(decodeBatch, body, "invalid_field_format", "credentials[0].recipient.name")
          const onlyMissing = { credentials: [{ issuanceDate: "2025-06-30T12:00:00Z" }] }
          // Among missing members, the contract's order: recipient before achievement.
          yield* expectInvalid(decodeBatch, onlyMissing, "missing_required_field", "credentials[0].recipient")
        }))

      it.effect("within a member, the nested order applies", () =>
        Effect.gen(function*() {
          const body = edit(
            edit(validBatch(), [...c0, "achievement", "alignment"], [validAlignment(), validAlignment()]),
            [...c0, "achievement", "alignment", 1, "targetFramework"],
            "UNKNOWN"
          )
          const both = edit(body, [...c0, "achievement", "alignment", 0, "targetUrl"], "not a url")
          yield* expectInvalid(
            decodeBatch,
            both,
            "invalid_field_format",
            "credentials[0].achievement.alignment[0].targetUrl"
          )
        }))
    })

    it.effect("fromParseError maps Effect's own decoding the same way (any parse options)", () =>
      Effect.gen(function*() {
        const bodies = [
          ...rows.filter((r) => r.path.length > 0 && r.name.length < 60).slice(0, 40).map((r) =>
            edit(validBatch(), r.path, r.value)
          ),
          { credentials: [{ issuanceDate: "nope", recipient: { id: "x" } }] }
        ]
        for (const body of bodies) {
          const ours = yield* Effect.flip(decodeBatch(body))
          for (const errors of ["first", "all"] as const) {
            const theirs = Schema.decodeUnknownEither(BatchInputs.CreateBatchRequest, { errors })(body)
            assert.isTrue(Either.isLeft(theirs))
            if (Either.isLeft(theirs)) {
              const mapped = InputErrors.fromParseError(theirs.left)
              assert.deepStrictEqual({ code: mapped.code, field: mapped.field }, { code: ours.code, field: ours.field })
            }
          }
        }
      }))
  })

  describe("decoded values", () => {
    it.effect("normalizes dates, merges evidence, drops null expiry and unknown members", () =>
      Effect.gen(function*() {
        const body = {
          credentials: [{
            ...validCredential(),
            recipient: { id: RID, name: "Ada", unknown: 1 },
            issuanceDate: "2025-06-30T12:00:00.123456789+00:00",
            expirationDate: null,
            achievement: { ...validCredential().achievement, evidence: [{ narrative: "B" }, { id: "urn:x:c" }] },
            evidence: [{ narrative: "A", extra: true }],
            x_extra: { deep: [1, 2] }
          }],
          meta: "ignored"
        }
        const decoded = yield* decodeBatch(body)
        const c = decoded.credentials[0]!
        assert.strictEqual(c.issuanceDate, "2025-06-30T12:00:00.123456789Z")
        assert.isFalse("expirationDate" in c)
        assert.deepStrictEqual(c.evidence, [{ narrative: "A" }, { narrative: "B" }, { id: "urn:x:c" }])
        assert.isFalse("evidence" in c.achievement)
        assert.deepStrictEqual(c.recipient, { id: RID, name: "Ada" } as typeof c.recipient)
        assert.deepStrictEqual(Object.keys(decoded), ["credentials"])
        assert.deepStrictEqual(Object.keys(c).sort(), ["achievement", "evidence", "issuanceDate", "recipient"])
        // Encoding writes the merged list at credential level; decoding that again gives the same.
        const encoded = Schema.encodeSync(BatchInputs.CreateBatchRequest)(decoded)
        assert.deepStrictEqual(encoded.credentials[0]!.evidence, c.evidence)
        assert.deepStrictEqual(yield* decodeBatch(encoded), decoded)
      }))

    it.effect("a credential without evidence decodes to an empty list", () =>
      Effect.gen(function*() {
        const { evidence: _e, ...credential } = validCredential()
        const { evidence: _a, ...achievement } = credential.achievement
        const decoded = yield* BatchInputs.decodeCredentialInput({ ...credential, achievement })
        assert.deepStrictEqual(decoded.evidence, [])
      }))

    it.effect("the schemas describe themselves as JSON Schema for OpenAPI", () =>
      Effect.gen(function*() {
        const schema: any = JSONSchema.make(BatchInputs.CreateBatchRequest)
        const credentials = schema.$defs.CreateBatchRequest.properties.credentials
        assert.strictEqual(credentials.type, "array")
        assert.strictEqual(credentials.minItems, 1)
        assert.strictEqual(credentials.maxItems, 500)
        assert.deepStrictEqual(credentials.items, { $ref: "#/$defs/CredentialInput" })
        const credential = schema.$defs.CredentialInput
        assert.deepStrictEqual(credential.required, ["recipient", "achievement", "issuanceDate"])
        assert.strictEqual(credential.properties.issuanceDate.format, "date-time")
        assert.strictEqual(schema.$defs.RecipientInput.properties.id.pattern.startsWith("^urn:uuid:"), true)
        assert.deepStrictEqual(schema.$defs.AlignmentInput.properties.targetFramework.enum, FRAMEWORKS)
        assert.isString(schema.$defs.AchievementInput.description)
        for (
          const request of [
            CredentialInputs.RevocationRequest,
            CredentialInputs.ErasureRequest,
            TenantInputs.TenantUpdate,
            WebhookInputs.CreateWebhookRequest
          ] as const
        ) {
          const json: any = JSONSchema.make(request as Schema.Schema<unknown, any>)
          assert.strictEqual(json.$defs[json.$ref.split("/").at(-1)].type, "object")
        }
      }))
  })

  it.effect("verified_at: not in the future beyond 5 minutes of clock skew (checked against the request's time)", () =>
    Effect.gen(function*() {
      const now = new Date("2026-01-01T00:00:00Z")
      const at = (iso: string) => CredentialInputs.checkErasureRequest({ requester: "dpo", verified_at: iso }, now)
      yield* at("2025-12-31T23:59:59Z")
      yield* at("2026-01-01T00:05:00Z")
      const error = yield* Effect.flip(at("2026-01-01T00:05:00.001Z"))
      assert.deepStrictEqual([error.code, error.field], ["invalid_field_format", "verified_at"])
    }))

  describe("the other requests", () => {
    const cases: ReadonlyArray<{
      readonly name: string
      readonly decode: Decoder
      readonly valid: Json
      readonly rows: ReadonlyArray<readonly [Path, unknown, InputErrors.InputErrorCode]>
    }> = [
      {
        name: "RevocationRequest",
        decode: CredentialInputs.decodeRevocationRequest,
        valid: { reason: "Issued with a misspelt name.", reason_code: "reissued" },
        rows: [
          [["reason"], REMOVE, "missing_required_field"],
          [["reason_code"], REMOVE, "missing_required_field"],
          [["reason"], "", "invalid_field_format"],
          [["reason"], "  ", "invalid_field_format"],
          [["reason"], "r".repeat(1001), "invalid_field_format"],
          [["reason"], 1, "invalid_field_format"],
          [["reason_code"], "mistake", "invalid_field_format"],
          [["reason_code"], "REISSUED", "invalid_field_format"],
          [["reason_code"], null, "invalid_field_format"],
          [[], [], "invalid_field_format"]
        ]
      },
      {
        name: "ErasureRequest",
        decode: CredentialInputs.decodeErasureRequest,
        valid: { requester: "supervisory_authority", verified_at: "2025-07-01T08:00:00+00:00" },
        rows: [
          [["requester"], REMOVE, "missing_required_field"],
          [["verified_at"], REMOVE, "missing_required_field"],
          [["requester"], "user", "invalid_field_format"],
          [["requester"], 3, "invalid_field_format"],
          [["verified_at"], "2025-07-01", "invalid_field_format"],
          [["verified_at"], "2025-07-32T08:00:00Z", "invalid_field_format"],
          [["verified_at"], 1751356800, "invalid_field_format"],
          [["verified_at"], "0000-01-01T00:00:00Z", "invalid_field_format"],
          [["verified_at"], "1999-12-31T23:59:59Z", "invalid_field_format"],
          [["verified_at"], "9999-12-31T23:59:59Z", "invalid_field_format"],
          [[], "erase", "invalid_field_format"]
        ]
      },
      {
        name: "TenantUpdate",
        decode: TenantInputs.decodeTenantUpdate,
        valid: {
          display_name: "University of Example",
          awarding_body: {
            name: "Faculty of Science",
            url: "https://science.example.edu",
            logo_url: "http://cdn.example.edu/logo.svg"
          },
          verify_page_branding: { accent_color: "#1A4d8f", logo_url: "https://cdn.example.edu/l.png" }
        },
        rows: [
          [["display_name"], "", "invalid_field_format"],
          [["display_name"], "d".repeat(201), "invalid_field_format"],
          [["display_name"], null, "invalid_field_format"],
          [["awarding_body"], null, "invalid_field_format"],
          [["awarding_body"], "Faculty", "invalid_field_format"],
          [["awarding_body", "name"], REMOVE, "missing_required_field"],
          [["awarding_body", "name"], " ", "invalid_field_format"],
          [["awarding_body", "url"], "science.example.edu", "invalid_field_format"],
          [["awarding_body", "url"], "ftp://science.example.edu", "invalid_field_format"],
          [["awarding_body", "logo_url"], "javascript:alert(1)", "invalid_field_format"],
          [["awarding_body", "logo_url"], "urn:uuid:5e3a3c5e-0a8e-4d3b-8f7e-1c2d3e4f5a6b", "invalid_field_format"],
          [["verify_page_branding"], [], "invalid_field_format"],
          [["verify_page_branding", "accent_color"], "#fff", "invalid_field_format"],
          [["verify_page_branding", "accent_color"], "red", "invalid_field_format"],
          [["verify_page_branding", "accent_color"], "#12345g", "invalid_field_format"],
          [["verify_page_branding", "accent_color"], "1a4d8f", "invalid_field_format"],
          [["verify_page_branding", "logo_url"], "data:image/png;base64,AAAA", "invalid_field_format"],
          [[], [], "invalid_field_format"],
          [[], null, "invalid_field_format"]
        ]
      },
      {
        name: "CreateWebhookRequest",
        decode: WebhookInputs.decodeCreateWebhookRequest,
        valid: { url: "https://hooks.example.org/sigil", events: ["batch.anchored"], description: "Registrar" },
        rows: [
          [["url"], REMOVE, "missing_required_field"],
          [["events"], REMOVE, "missing_required_field"],
          [["url"], "hooks.example.org", "invalid_field_format"],
          [["url"], "ftp://hooks.example.org", "invalid_field_format"],
          [["url"], "https://", "invalid_field_format"],
          [["url"], "https://hooks example.org", "invalid_field_format"],
          [["events"], [], "invalid_field_format"],
          [["events"], "batch.anchored", "invalid_field_format"],
          [["events"], { 0: "batch.anchored" }, "invalid_field_format"],
          [["events", 0], "batch.done", "invalid_field_format"],
          [["events", 0], 5, "invalid_field_format"],
          [["description"], "", "invalid_field_format"],
          [["description"], "d".repeat(501), "invalid_field_format"],
          [["description"], null, "invalid_field_format"]
        ]
      }
    ]

    for (const c of cases) {
      describe(c.name, () => {
        it.effect("valid", () => Effect.asVoid(c.decode(c.valid)))
        for (const [path, value, code] of c.rows) {
          it.effect(`${code}: ${formatPath(path) || "(body)"} = ${value === REMOVE ? "(absent)" : JSON.stringify(value)?.slice(0, 40)}`, () =>
            expectInvalid(c.decode, edit(c.valid, path, value), code, formatPath(path)))
        }
      })
    }

    it.effect("decoded forms", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* TenantInputs.decodeTenantUpdate({}), {})
        assert.deepStrictEqual(yield* TenantInputs.decodeTenantUpdate({ plan: "industry" }), {})
        assert.deepStrictEqual(
          yield* TenantInputs.decodeTenantUpdate({ awarding_body: { name: "Faculty" } }),
          { awarding_body: { name: "Faculty" } }
        )
        assert.deepStrictEqual(
          yield* CredentialInputs.decodeErasureRequest({ requester: "dpo", verified_at: "2025-07-01T08:00:00.5+00:00" }),
          { requester: "dpo", verified_at: "2025-07-01T08:00:00.5Z" }
        )
        const hook = yield* WebhookInputs.decodeCreateWebhookRequest({
          url: "https://hooks.example.org/sigil",
          events: ["batch.signed", "webhook.test", "batch.signed", "webhook.test", "batch.created"]
        })
        assert.deepStrictEqual(hook.events, ["batch.signed", "webhook.test", "batch.created"])
        assert.isFalse("description" in hook)
        const all = yield* WebhookInputs.decodeCreateWebhookRequest({ url: "http://localhost:3000/h", events: WebhookInputs.WEBHOOK_EVENT_TYPES })
        assert.deepStrictEqual(all.events, WebhookInputs.WEBHOOK_EVENT_TYPES)
      }))
  })

  // -----------------------------------------------------------------------------------------
  // properties
  // -----------------------------------------------------------------------------------------

  describe("properties", () => {
    const text = (maxLength: number) =>
      fc.oneof(
        fc.string({ unit: "grapheme", minLength: 1, maxLength }),
        fc.string({ unit: "binary", minLength: 1, maxLength }),
        fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength })
      ).filter((s) => s.trim().length > 0 && Formats.wellFormed(s) && !Formats.hasControlCharacters(s))

    const recipientId = fc.uuid({ version: 4 }).map((u) => `urn:uuid:${u}`)
    const uri = fc.oneof(
      fc.webUrl({ withFragments: true, withQueryParameters: true }),
      fc.uuid().map((u) => `urn:uuid:${u}`),
      fc.constantFrom("did:web:example.org", "mailto:registrar@example.org", "urn:isbn:0451450523")
    )
    const extra = fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined, freq: 3 })
    const withExtra = <A extends object>(arb: fc.Arbitrary<A>) =>
      fc.tuple(arb, extra).map(([value, junk]) => ({
        value,
        input: junk === undefined ? { ...value } : { ...value, x_unknown_member: junk }
      }))

    /** A date-time text in one of the accepted spellings, with its normalized form. */
    const dateTime = (min: number, max: number) =>
      fc.tuple(fc.integer({ min, max }), fc.constantFrom("", "ms", "ns", "tenth"), fc.boolean()).map(
        ([ms, fraction, plus]) => {
          const iso = new Date(ms).toISOString()
          const base = iso.slice(0, 19)
          const frac = fraction === "" ? "" : fraction === "ms" ? iso.slice(19, 23) : fraction === "ns"
            ? `${iso.slice(19, 23)}000042`
            : iso.slice(19, 21)
          return { ms, text: `${base}${frac}${plus ? "+00:00" : "Z"}`, normalized: `${base}${frac}Z` }
        }
      )

    const evidence = fc.oneof(
      fc.record({ id: uri }),
      fc.record({ narrative: text(40) }),
      fc.record({ id: uri, narrative: text(40) })
    )
    const alignment = fc.record({
      targetFramework: fc.constantFrom(...FRAMEWORKS),
      targetCode: text(12),
      targetName: text(30),
      targetUrl: uri
    }, { requiredKeys: ["targetFramework", "targetCode", "targetName"] })
    const achievement = fc.record({
      id: uri,
      name: text(30),
      description: text(80),
      criteria: fc.record({ narrative: text(40) }, { requiredKeys: [] }),
      alignment: fc.array(alignment, { maxLength: 3 }),
      evidence: fc.array(evidence, { maxLength: 3 })
    }, { requiredKeys: ["name", "description"] })
    const recipient = withExtra(
      fc.record({ id: recipientId, name: text(30), email: fc.emailAddress() }, { requiredKeys: ["id", "name"] })
    )

    const Y1900 = Date.UTC(1900, 0, 1)
    // The last instant issuanceDate accepts (before 2200-01-01).
    const Y2200 = Date.UTC(2200, 0, 1) - 1
    /** A valid credential as sent, and the value it must decode to. */
    const credential = fc.record({
      recipient,
      achievement,
      issuance: dateTime(Y1900, Y2200),
      // At least a second later, so that dropping the fraction keeps it strictly after.
      expiry: fc.oneof(
        fc.constant("absent" as const),
        fc.constant(null),
        fc.integer({ min: 1000, max: 50 * 365 * 86_400_000 })
      ),
      expirySpelling: dateTime(0, 0),
      evidence: fc.option(fc.array(evidence, { maxLength: 3 }), { nil: undefined }),
      junk: extra
    }).map((r) => {
      const expiry = typeof r.expiry === "number"
        ? (() => {
          const ms = r.issuance.ms + r.expiry
          const iso = new Date(ms).toISOString()
          const text = r.expirySpelling.text.replace(/^.{19}/, iso.slice(0, 19))
          return { text, normalized: text.replace("+00:00", "Z") }
        })()
        : r.expiry
      const input: Json = {
        recipient: r.recipient.input,
        achievement: r.achievement,
        issuanceDate: r.issuance.text,
        ...(expiry === "absent" ? {} : { expirationDate: expiry === null ? null : expiry.text }),
        ...(r.evidence === undefined ? {} : { evidence: r.evidence }),
        ...(r.junk === undefined ? {} : { x_unknown_member: r.junk })
      }
      const { evidence: inner, ...decodedAchievement } = r.achievement
      const expected = {
        recipient: r.recipient.value,
        achievement: decodedAchievement,
        issuanceDate: r.issuance.normalized,
        ...(expiry === "absent" || expiry === null ? {} : { expirationDate: expiry.normalized }),
        evidence: [...(r.evidence ?? []), ...(inner ?? [])]
      }
      return { input, expected }
    })

    /**
     * 1 to 500 credentials, cheaply: a few generated ones, repeated. The repeats share objects,
     * so a test that changes one credential copies it first (`own`).
     */
    const batch = fc.tuple(
      fc.array(credential, { minLength: 1, maxLength: 4 }),
      fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 500 }))
    ).map(([pool, n]) => {
      const picks = Array.from({ length: n }, (_, i) => pool[i % pool.length]!)
      return { input: { credentials: picks.map((p) => p.input) }, expected: { credentials: picks.map((p) => p.expected) } }
    })

    const own = (body: Json, i: number): Json => (body.credentials[i] = structuredClone(body.credentials[i]))

    it.effect.prop(
      "valid inputs decode to the expected value and round-trip",
      { batch },
      ({ batch }) =>
        Effect.gen(function*() {
          const decoded = yield* decodeBatch(batch.input)
          assert.deepStrictEqual(decoded, batch.expected as unknown as typeof decoded)
          const encoded = Schema.encodeSync(BatchInputs.CreateBatchRequest)(decoded)
          assert.deepStrictEqual(yield* decodeBatch(JSON.parse(JSON.stringify(encoded))), decoded)
        }),
      { fastCheck: { numRuns: runs(60) } }
    )

    it.effect.prop(
      "valid other requests decode and round-trip",
      {
        revocation: fc.record({
          reason: text(60),
          reason_code: fc.constantFrom("reissued", "issuer_error", "recipient_request", "other")
        }),
        erasure: fc.record({
          requester: fc.constantFrom("recipient", "dpo", "supervisory_authority"),
          // From 2000 (the range verified_at accepts) to a past instant.
          verified_at: dateTime(Date.UTC(2000, 0, 1), Date.UTC(2025, 0, 1))
        }),
        tenant: fc.record({
          display_name: text(50),
          awarding_body: fc.record({ name: text(50), url: fc.webUrl(), logo_url: fc.webUrl() }, { requiredKeys: ["name"] }),
          verify_page_branding: fc.record({
            accent_color: fc.stringMatching(/^#[0-9A-Fa-f]{6}$/),
            logo_url: fc.webUrl()
          }, { requiredKeys: [] })
        }, { requiredKeys: [] }),
        webhook: fc.record({
          url: fc.webUrl(),
          events: fc.array(fc.constantFrom(...WebhookInputs.WEBHOOK_EVENT_TYPES), { minLength: 1, maxLength: 10 }),
          description: text(60)
        }, { requiredKeys: ["url", "events"] })
      },
      ({ erasure, revocation, tenant, webhook }) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(yield* CredentialInputs.decodeRevocationRequest(revocation), revocation)
          const e = yield* CredentialInputs.decodeErasureRequest({ ...erasure, verified_at: erasure.verified_at.text })
          assert.deepStrictEqual(e, { requester: erasure.requester, verified_at: erasure.verified_at.normalized })
          assert.deepStrictEqual(yield* TenantInputs.decodeTenantUpdate(tenant), tenant)
          const w = yield* WebhookInputs.decodeCreateWebhookRequest(webhook)
          assert.deepStrictEqual(w.events, [...new Set(webhook.events)])
          for (
            const [schema, value] of [
              [CredentialInputs.RevocationRequest, revocation],
              [CredentialInputs.ErasureRequest, e],
              [TenantInputs.TenantUpdate, tenant],
              [WebhookInputs.CreateWebhookRequest, w]
            ] as const
          ) {
            const s = schema as Schema.Schema<unknown, unknown>
            assert.deepStrictEqual(Schema.decodeUnknownSync(s)(Schema.encodeSync(s)(value)), value)
          }
        }),
      { fastCheck: { numRuns: runs(100) } }
    )

    // --- one field mutated -------------------------------------------------------------------

    type Kind =
      | "object"
      | "array"
      | "text"
      | "date"
      | "nullableDate"
      | "uri"
      | "email"
      | "recipientId"
      | "framework"
    interface Field {
      readonly path: Path
      readonly kind: Kind
      readonly required: boolean
    }
    const A = ["achievement", "alignment", 0] as const
    const fields: ReadonlyArray<Field> = [
      { path: ["recipient"], kind: "object", required: true },
      { path: ["recipient", "id"], kind: "recipientId", required: true },
      { path: ["recipient", "name"], kind: "text", required: true },
      { path: ["recipient", "email"], kind: "email", required: false },
      { path: ["achievement"], kind: "object", required: true },
      { path: ["achievement", "id"], kind: "uri", required: false },
      { path: ["achievement", "name"], kind: "text", required: true },
      { path: ["achievement", "description"], kind: "text", required: true },
      { path: ["achievement", "criteria"], kind: "object", required: false },
      { path: ["achievement", "criteria", "narrative"], kind: "text", required: false },
      { path: ["achievement", "alignment"], kind: "array", required: false },
      { path: [...A], kind: "object", required: false },
      { path: [...A, "targetFramework"], kind: "framework", required: true },
      { path: [...A, "targetCode"], kind: "text", required: true },
      { path: [...A, "targetName"], kind: "text", required: true },
      { path: [...A, "targetUrl"], kind: "uri", required: false },
      { path: ["achievement", "evidence"], kind: "array", required: false },
      { path: ["achievement", "evidence", 0, "id"], kind: "uri", required: false },
      { path: ["achievement", "evidence", 0, "narrative"], kind: "text", required: false },
      { path: ["issuanceDate"], kind: "date", required: true },
      { path: ["expirationDate"], kind: "nullableDate", required: false },
      { path: ["evidence"], kind: "array", required: false },
      { path: ["evidence", 0, "id"], kind: "uri", required: false },
      { path: ["evidence", 0, "narrative"], kind: "text", required: false }
    ]

    /** Makes sure the parents of `path` exist, with valid content, in a credential. */
    const prepare = (credential: Json, path: Path) => {
      const a = credential.achievement
      if (path[1] === "criteria" && path.length > 2) a.criteria ??= {}
      if (path[1] === "alignment" && path.length > 2 && !(a.alignment?.length > 0)) a.alignment = [validAlignment()]
      if (path[1] === "evidence" && path.length > 2 && !(a.evidence?.length > 0)) a.evidence = [{ narrative: "e" }]
      if (path[0] === "evidence" && path.length > 1 && !(credential.evidence?.length > 0)) {
        credential.evidence = [{ narrative: "e" }]
      }
    }

    const notA = (kind: "object" | "array" | "string") =>
      fc.oneof(
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        ...(kind === "string" ? [] : [fc.string({ maxLength: 5 })]),
        ...(kind === "array" ? [] : [fc.array(fc.integer(), { maxLength: 2 })]),
        ...(kind === "object" ? [] : [fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 })])
      )

    const badDates = fc.oneof(
      fc.constantFrom("2025-02-29T00:00:00Z", "2025-06-31T00:00:00Z", "2025-06-30T25:00:00Z", "2025-06-30", "now"),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace("Z", "+01:00")),
      fc.date({ noInvalidDate: true }).map((d) => d.toUTCString())
    )

    /** The wrong values for a field of a kind, and the code each must produce. */
    const wrong = (kind: Kind): fc.Arbitrary<readonly [unknown, InputErrors.InputErrorCode]> => {
      const as = (code: InputErrors.InputErrorCode) => (v: unknown) => [v, code] as const
      switch (kind) {
        case "object":
          return notA("object").map(as("invalid_field_format"))
        case "array":
          return notA("array").map(as("invalid_field_format"))
        case "text":
          return fc.oneof(notA("string"), fc.constantFrom("", " ", "\t\n", "\u00a0")).map(as("invalid_field_format"))
        case "date":
          return fc.oneof(notA("string"), badDates).map(as("invalid_field_format"))
        case "nullableDate":
          return fc.oneof(notA("string").filter((v) => v !== null), badDates).map(as("invalid_field_format"))
        case "uri":
          return fc.oneof(notA("string"), fc.constantFrom("", "no scheme", "/relative", "http://a b", "://x"))
            .map(as("invalid_field_format"))
        case "email":
          return fc.oneof(notA("string"), fc.constantFrom("", "ada", "ada@", "@x.org", "a@b", "a b@c.org"))
            .map(as("invalid_field_format"))
        case "recipientId":
          return fc.oneof(
            notA("string"),
            fc.string({ maxLength: 60 }),
            fc.uuid({ version: [1, 3, 5] }).map((u) => `urn:uuid:${u}`),
            fc.uuid({ version: 4 }).map((u) => `urn:uuid:${u.toUpperCase()}`),
            fc.uuid({ version: 4 })
          ).filter((v) => typeof v !== "string" || !/^urn:uuid:[0-9a-f-]{14}4[0-9a-f-]{3}[89ab]/.test(v))
            .map(as("recipient_id_invalid"))
        case "framework":
          return fc.oneof(notA("string"), fc.string({ maxLength: 10 }).filter((s) => !FRAMEWORKS.includes(s)))
            .map(as("alignment_framework_unknown"))
      }
    }

    const mutation = fc.constantFrom(...fields).chain((field) =>
      fc.oneof(
        ...(field.required ? [fc.constant([REMOVE, "missing_required_field"] as const)] : []),
        wrong(field.kind)
      ).map(([value, code]) => ({ field, value, code }))
    )

    it.prop(
      "a valid batch with one field mutated fails with that field's code and path",
      { batch, mutation, index: fc.nat() },
      ({ batch, index, mutation }) => {
        const body = structuredClone(batch.input)
        const i = index % body.credentials.length
        prepare(own(body, i), mutation.field.path)
        const mutated = edit(body, ["credentials", i, ...mutation.field.path], mutation.value)
        const error = Effect.runSync(Effect.flip(decodeBatch(mutated)))
        assert.deepStrictEqual(
          { code: error.code, field: error.field },
          { code: mutation.code, field: formatPath(["credentials", i, ...mutation.field.path]) }
        )
      },
      { fastCheck: { numRuns: runs(300) } }
    )

    it.prop(
      "an oversized achievement is achievement_too_large, whatever else is wrong with it",
      { batch, index: fc.nat(), size: fc.integer({ min: 65_537, max: 200_000 }), breakName: fc.boolean() },
      ({ batch, breakName, index, size }) => {
        const body = structuredClone(batch.input)
        const i = index % body.credentials.length
        const achievement = own(body, i).achievement
        if (breakName) achievement.name = 42
        achievement.x_padding = ""
        achievement.x_padding = "p".repeat(Math.max(0, size - bytes(JSON.stringify(achievement))))
        assert.isAbove(bytes(JSON.stringify(achievement)), 65_536)
        const error = Effect.runSync(Effect.flip(decodeBatch(body)))
        assert.deepStrictEqual(
          { code: error.code, field: error.field },
          { code: "achievement_too_large", field: `credentials[${i}].achievement` }
        )
      },
      { fastCheck: { numRuns: runs(30) } }
    )

    it.prop(
      "501 or more items are batch_too_large, whatever the items",
      { n: fc.integer({ min: 501, max: 3000 }), item: fc.anything() },
      ({ item, n }) => {
        const error = Effect.runSync(Effect.flip(decodeBatch({ credentials: Array.from({ length: n }, () => item) })))
        assert.deepStrictEqual({ code: error.code, field: error.field }, { code: "batch_too_large", field: "credentials" })
      },
      { fastCheck: { numRuns: runs(50) } }
    )

    // --- anything at all ---------------------------------------------------------------------

    const decoders: ReadonlyArray<Decoder> = [
      BatchInputs.decodeCreateBatchRequest,
      BatchInputs.decodeCredentialInput,
      CredentialInputs.decodeRevocationRequest,
      CredentialInputs.decodeErasureRequest,
      TenantInputs.decodeTenantUpdate,
      WebhookInputs.decodeCreateWebhookRequest,
      InputErrors.decodeUnknown(BatchInputs.RecipientInput),
      InputErrors.decodeUnknown(BatchInputs.AchievementInput),
      InputErrors.decodeUnknown(BatchInputs.AlignmentInput),
      InputErrors.decodeUnknown(BatchInputs.EvidenceInput)
    ]
    const nasty = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withSparseArray: true,
      withTypedArray: true
    })
    /** Junk shaped like the real thing: the contract's member names, nested, with junk values. */
    const names = [
      "credentials", "recipient", "achievement", "issuanceDate", "expirationDate", "evidence", "id", "name",
      "email", "description", "criteria", "narrative", "alignment", "targetFramework", "targetCode", "targetName",
      "targetUrl", "reason", "reason_code", "requester", "verified_at", "display_name", "awarding_body",
      "verify_page_branding", "accent_color", "logo_url", "url", "events", "__proto__", "constructor", "toString"
    ]
    const { shaped } = fc.letrec((tie) => ({
      shaped: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.jsonValue({ maxDepth: 1 }),
        nasty,
        fc.array(tie("shaped"), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom(...names), tie("shaped"), { maxKeys: 6 })
      )
    }))

    it.prop(
      "fc.anything(): every decoder succeeds or fails with InvalidInput, never a defect",
      { u: nasty },
      ({ u }) => {
        for (const decode of decoders) assertNoDefect(Effect.runSyncExit(decode(u)))
      },
      { fastCheck: { numRuns: runs(300) } }
    )

    it.prop(
      "junk shaped like the contract: never a defect",
      { u: shaped },
      ({ u }) => {
        for (const decode of decoders) assertNoDefect(Effect.runSyncExit(decode(u)))
      },
      { fastCheck: { numRuns: runs(300) } }
    )

    it.prop(
      "junk anywhere inside a valid batch: never a defect",
      { batch, junk: fc.oneof(nasty, shaped), field: fc.constantFrom(...fields), index: fc.nat() },
      ({ batch, field, index, junk }) => {
        const body = structuredClone(batch.input)
        const i = index % body.credentials.length
        prepare(own(body, i), field.path)
        let node = body.credentials[i]
        for (const key of field.path.slice(0, -1)) node = node[key]
        node[field.path[field.path.length - 1]!] = junk
        assertNoDefect(Effect.runSyncExit(decodeBatch(body)))
      },
      { fastCheck: { numRuns: runs(100) } }
    )

    it.effect("huge strings in any field: a prompt InvalidInput", () =>
      Effect.gen(function*() {
        const huge = "a".repeat(5_000_000)
        for (const field of fields) {
          const body = validBatch()
          prepare(body.credentials[0], field.path)
          const error = yield* Effect.flip(decodeBatch(edit(body, ["credentials", 0, ...field.path], huge)))
          const inAchievement = field.path[0] === "achievement"
          assert.strictEqual(error.code, inAchievement ? "achievement_too_large" : wrongCodeOf(field.kind))
        }
        for (const decode of decoders) assertNoDefect(Effect.runSyncExit(decode(huge)))
      }))
    const wrongCodeOf = (kind: Kind): InputErrors.InputErrorCode =>
      kind === "recipientId" ? "recipient_id_invalid" : kind === "framework" ? "alignment_framework_unknown" : "invalid_field_format"
  })
})

describe("ill-formed Unicode", () => {
  it.effect("a lone surrogate in any text is invalid_field_format naming the field, never a crash later", () =>
    Effect.gen(function*() {
      const credential = (alignmentCode: string, name = "Ada") => ({
        credentials: [{
          recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name },
          achievement: {
            name: "A",
            description: "B",
            alignment: [{ targetFramework: "ESCO", targetCode: alignmentCode, targetName: "C" }]
          },
          issuanceDate: "2025-06-30T00:00:00Z"
        }]
      })
      const lone = yield* Effect.flip(BatchInputs.decodeCreateBatchRequest(credential("S\ud800")))
      assert.strictEqual(lone.code, "invalid_field_format")
      assert.strictEqual(lone.field, "credentials[0].achievement.alignment[0].targetCode")
      const trailing = yield* Effect.flip(BatchInputs.decodeCreateBatchRequest(credential("S", "Ada\udfff")))
      assert.strictEqual(trailing.field, "credentials[0].recipient.name")
      // A surrogate pair (an emoji) is fine.
      yield* BatchInputs.decodeCreateBatchRequest(credential("S🎓", "Zoë 🎓"))
    }))
})

describe("control characters (issue #18: a NUL reached Postgres and answered 500)", () => {
  const credential = {
    recipient: { id: "urn:uuid:7f1c6a9e-3b0d-4e7f-8a2c-5d9e1b4c3a21", name: "Ada Lovelace", email: "ada@example.org" },
    achievement: { name: "Certificate", description: "Completed." },
    issuanceDate: "2026-06-30T00:00:00Z"
  }
  const batchWith = (patch: (c: any) => void) => {
    const c = structuredClone(credential) as any
    patch(c)
    return { credentials: [c] }
  }
  const refused = <A>(
    decode: (u: unknown) => Effect.Effect<A, InputErrors.InvalidInput>,
    body: unknown,
    field: string,
    message = /control characters/
  ) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decode(body))
      assert.strictEqual(error.code, "invalid_field_format")
      assert.strictEqual(error.field, field)
      assert.match(error.message, message)
    })

  for (const character of ["\u0000", "\u0007", "\u001b", "\u007f", "\u0085"]) {
    const label = `U+${character.codePointAt(0)!.toString(16).padStart(4, "0").toUpperCase()}`
    it.effect(`${label} is refused in every text field, naming the field`, () =>
      Effect.gen(function*() {
        yield* refused(BatchInputs.decodeCreateBatchRequest, batchWith((c) => (c.recipient.name = `Ada${character}`)), "credentials[0].recipient.name")
        yield* refused(BatchInputs.decodeCreateBatchRequest, batchWith((c) => (c.recipient.email = `ada${character}@example.org`)), "credentials[0].recipient.email", /e-mail/)
        yield* refused(BatchInputs.decodeCreateBatchRequest, batchWith((c) => (c.achievement.name = `Cert${character}`)), "credentials[0].achievement.name")
        yield* refused(BatchInputs.decodeCreateBatchRequest, batchWith((c) => (c.achievement.description = `Done${character}`)), "credentials[0].achievement.description")
        yield* refused(TenantInputs.decodeTenantUpdate, { display_name: `Uni${character}` }, "display_name")
        yield* refused(
          WebhookInputs.decodeCreateWebhookRequest,
          { url: "https://hooks.example.org/in", events: ["batch.created"], description: `Hook${character}` },
          "description"
        )
        yield* refused(CredentialInputs.decodeRevocationRequest, { reason: `Error${character}`, reason_code: "other" }, "reason")
      }))
  }

  it.effect("tab, line feed and carriage return stay allowed in text", () =>
    Effect.gen(function*() {
      const decoded = yield* BatchInputs.decodeCreateBatchRequest(batchWith((c) => (c.achievement.description = "Line one\nLine two\r\n\tIndented")))
      assert.strictEqual(decoded.credentials[0]!.achievement.description, "Line one\nLine two\r\n\tIndented")
    }))
})
