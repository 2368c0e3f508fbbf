/**
 * JSON Schema validation of a credential against the Open Badges 3.0 AchievementCredential schema
 * (draft 2019-09 → Ajv2019) and the W3C VC 2.0 schema (draft 2020-12 → Ajv2020), both with
 * ajv-formats and `strict: false` (the published schemas trip Ajv's strict mode:
 * research/ob3-vc2.md §3, schemas/SOURCES.md).
 */
import { Ajv2019 } from "ajv/dist/2019.js"
import { Ajv2020 } from "ajv/dist/2020.js"
import type { ErrorObject, ValidateFunction } from "ajv"
import addFormatsModule from "ajv-formats"
import { readFixture } from "./fixtures.js"

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module.
type AddFormats = (ajv: Ajv2019 | Ajv2020) => unknown
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats

export interface SchemaResult {
  readonly valid: boolean
  /** `<instancePath> <message>` per error, e.g. `/proof must be array`. */
  readonly errors: ReadonlyArray<string>
  readonly raw: ReadonlyArray<ErrorObject>
}

const compile = (ajv: Ajv2019 | Ajv2020, schemaFile: string): ValidateFunction => {
  addFormats(ajv)
  return ajv.compile(readFixture<object>(`schemas/${schemaFile}`))
}

let ob3: ValidateFunction | undefined
let vc2: ValidateFunction | undefined

const run = (validate: ValidateFunction, credential: unknown): SchemaResult => {
  const valid = validate(credential)
  const raw = validate.errors ?? []
  return { valid, errors: raw.map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`), raw }
}

/** Open Badges 3.0 AchievementCredential schema (the 2024-09 mirror in test/fixtures/schemas). */
export const validateOb3 = (credential: unknown): SchemaResult => {
  ob3 ??= compile(new Ajv2019({ strict: false, allErrors: true }), "ob_v3p0_achievementcredential_schema.json")
  return run(ob3, credential)
}

/** W3C VC 2.0 verifiable-credential schema. */
export const validateVc2 = (credential: unknown): SchemaResult => {
  vc2 ??= compile(new Ajv2020({ strict: false, allErrors: true }), "vc-2.0_verifiable-credential-schema.json")
  return run(vc2, credential)
}
