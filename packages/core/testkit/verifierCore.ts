/**
 * Runs `@digitalcredentials/verifier-core` 1.0.0-beta.11 (the verifier behind the Learner Credential
 * Wallet and VerifierPlus) offline.
 *
 * How it works (read from its dist/): `verifyCredential({credential, knownDIDRegistries})` runs
 * `@digitalcredentials/vc` `verifyCredential` with the Ed25519Signature2020 and
 * DataIntegrityProof(eddsa-rdfc-2022) suites and `securityLoader({fetchRemoteContexts: true})`
 * (static VC 1/2, DID, Data Integrity, OB 3.0.x, status-list contexts; DIDs through did:key and
 * did:web drivers; any other http(s) URL fetched). Everything remote goes through the global
 * `fetch` (ky / `@digitalcredentials/http-client`, plus a plain `fetch` for JSON schemas), so we
 * stub it (fetchStub.ts):
 *   - did:web `did:web:host:a:b` → `https://host/a/b/did.json` (bare host → `/.well-known/did.json`,
 *     always https, `%3A` decoded to `:`). The driver finds the key by exact id, so verification
 *     methods in the DID document must have absolute ids (`<did>#frag`), and an Ed25519 key must
 *     carry `publicKeyMultibase` (a JWK-only Multikey fails) — both pinned by tests. (Its
 *     `fetchOptions.size: 8192` is not enforced by its http client: a 22 kB document resolves.);
 *   - issuer profiles / controller documents for https verification methods, status lists;
 *   - the OB 3.0 JSON Schema it guesses from the context and type (schemaCheck.js):
 *     `https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json`
 *     for a VC 2.0 OpenBadgeCredential. It compiles it with its own module-level Ajv2019.
 *
 * Result shape: either `{errors: [...]}` (fatal: invalid signature, unresolvable did:web, bad
 * JSON-LD, no proof, …) or `{log: [{id, valid | error}], additionalInformation}` with the steps
 * `valid_signature`, `expiration`, `revocation_status` (only with `credentialStatus`) and
 * `registered_issuer`. It draws no overall conclusion. An issuer found in no registry is just
 * `{id: "registered_issuer", valid: false, matchingIssuers: [], uncheckedRegistries: []}`, a warning:
 * the other steps still report. With `knownDIDRegistries: []` no registry is fetched.
 *
 * Module-level state to know about: the DID resolver caches documents for 5 s per DID (so a second
 * run within 5 s never fetches; runVerifierCore refuses to serve a different document for a DID
 * it served less than 6 s ago, rather than let a stale one answer), and the schema Ajv caches
 * compiled schemas for the process.
 */
import { verifyCredential } from "@digitalcredentials/verifier-core"
import { readFixture } from "./fixtures.js"
import { type Routes, withFetchStub } from "./fetchStub.js"

export const OB3_ACHIEVEMENT_SCHEMA_URL =
  "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json"

/** `did:web:host(:path)*` → the https URL of its DID document (did:web spec, as the driver does it). */
export const didWebUrl = (did: string): string => {
  const [scheme, method, host, ...path] = (did.split("#")[0] ?? did).split(":")
  if (scheme !== "did" || method !== "web" || host === undefined) throw new Error(`not a did:web: ${did}`)
  const origin = `https://${decodeURIComponent(host)}`
  return path.length === 0 ? `${origin}/.well-known/did.json` : `${origin}/${path.map(decodeURIComponent).join("/")}/did.json`
}

export interface VerifierCoreOptions {
  /** URL → JSON: controller documents / issuer profiles for https verification methods, status lists. */
  readonly routes?: Routes
  /** did:web DID → DID document, served at its https URL. */
  readonly didDocuments?: Readonly<Record<string, unknown>>
  /** Registries to look the issuer up in (default: none, so nothing is fetched). */
  readonly knownDIDRegistries?: ReadonlyArray<unknown>
  /** Serve Sigil's copy of the OB 3.0 schema at its purl URL (default true). */
  readonly serveOb3Schema?: boolean
}

export interface VerifierCoreStep {
  readonly id: string
  readonly valid?: boolean
  readonly error?: { readonly name?: string; readonly message: string }
}

export interface VerifierCoreResult {
  /** No fatal error and every reported step except `registered_issuer` is valid. */
  readonly accepted: boolean
  /** Fatal errors (`invalid_signature`, `did_web_unresolved`, `unknown_error`, …). */
  readonly errors: ReadonlyArray<{ readonly name?: string; readonly message: string }>
  readonly log: ReadonlyArray<VerifierCoreStep>
  /** Steps that are not valid but not fatal either: an unregistered issuer, a schema mismatch. */
  readonly warnings: ReadonlyArray<string>
  /** verifier-core's JSON Schema check (`additionalInformation` `schema_check`). */
  readonly schemaCheck: unknown
  readonly fetched: ReadonlyArray<string>
  readonly unexpected: ReadonlyArray<string>
  readonly raw: unknown
}

interface RawResponse {
  readonly errors?: ReadonlyArray<{ readonly name?: string; readonly message: string }>
  readonly log?: ReadonlyArray<VerifierCoreStep>
  readonly additionalInformation?: ReadonlyArray<{ readonly id: string; readonly results?: unknown }>
}

const schemaResults = (schemaCheck: unknown): ReadonlyArray<{ schema?: string; result?: { valid?: boolean } }> =>
  Array.isArray(schemaCheck) ? schemaCheck : []

const DID_CACHE_MS = 6_000
const servedDidDocuments = new Map<string, { readonly json: string; readonly at: number }>()

/** Refuses to serve a different document for a DID verifier-core may still have cached. */
const guardDidCache = (did: string, doc: unknown): void => {
  const json = JSON.stringify(doc)
  const previous = servedDidDocuments.get(did)
  if (previous !== undefined && previous.json !== json && Date.now() - previous.at < DID_CACHE_MS) {
    throw new Error(`runVerifierCore: ${did} was served a different DID document less than 6 s ago and ` +
      "verifier-core caches DID documents for 5 s; use another DID for this variant")
  }
  servedDidDocuments.set(did, { json, at: Date.now() })
}

/**
 * Verifies `credential` with verifier-core, offline. Never throws for a verification problem
 * (throws only on misuse: see the DID cache guard).
 */
export const runVerifierCore = async (credential: unknown, options: VerifierCoreOptions = {}): Promise<VerifierCoreResult> => {
  const routes: Record<string, unknown> = { ...options.routes }
  for (const [did, doc] of Object.entries(options.didDocuments ?? {})) {
    guardDidCache(did.split("#")[0] ?? did, doc)
    routes[didWebUrl(did)] = doc
  }
  if (options.serveOb3Schema !== false && routes[OB3_ACHIEVEMENT_SCHEMA_URL] === undefined) {
    routes[OB3_ACHIEVEMENT_SCHEMA_URL] = readFixture("schemas/ob_v3p0_achievementcredential_schema.json")
  }
  const stubbed = await withFetchStub(routes, () =>
    verifyCredential({
      credential: structuredClone(credential) as Parameters<typeof verifyCredential>[0]["credential"],
      knownDIDRegistries: [...(options.knownDIDRegistries ?? [])]
    }))
  const raw = stubbed.value as RawResponse
  const errors = (raw.errors ?? []).map(({ name, message }) => ({ ...(name !== undefined ? { name } : {}), message }))
  const log = raw.log ?? []
  const schemaCheck = raw.additionalInformation?.find((a) => a.id === "schema_check")?.results
  const warnings = [
    ...log.filter((s) => s.id === "registered_issuer" && s.valid !== true).map(() => "registered_issuer: issuer not found in any known registry"),
    ...schemaResults(schemaCheck).filter((r) => r.result?.valid !== true).map((r) => `schema_check: not valid against ${r.schema ?? "?"}`)
  ]
  const accepted = errors.length === 0 &&
    log.some((s) => s.id === "valid_signature" && s.valid === true) &&
    log.every((s) => s.id === "registered_issuer" || s.valid === true)
  return { accepted, errors, log, warnings, schemaCheck, fetched: stubbed.fetched, unexpected: stubbed.unexpected, raw }
}
