/**
 * The parts of the issuer API's OpenAPI document that HttpApi does not derive from the
 * contract: the introduction, the response headers the pipeline sets, and the clean-up of what
 * the framework adds but the API never answers.
 *
 * @internal
 */

/** @internal */
export const description = `Issue W3C Verifiable Credentials 2.0 / Open Badges 3.0 / Blockcerts v3 credentials in batches; each batch is signed, Merkle-hashed and anchored on Base.

**Base address.** Every path starts with \`/v1\`. All bodies are \`application/json\`; all timestamps are ISO 8601 UTC. Members a request body does not define are ignored. Response objects may gain members; optional fields are present as \`null\` until set.

**Authentication.** \`Authorization: Bearer <API key>\` on every operation. A key belongs to one tenant and one environment (\`test\` or \`live\`), which scope every request: another tenant's or environment's resource answers 404 with the resource's not-found code (\`credential_not_owned\` is never emitted, it would reveal existence). 401 codes: \`api_key_missing\`, \`api_key_invalid\`, \`api_key_revoked\`, \`ip_not_allowed\` (the tenant's IP allowlist, CIDR blocks, fails closed). A live key on the \`developer\` plan is 403 \`tier_required\`.

**Errors.** Every non-2xx response is \`{"error": {"code", "message", "request_id"}}\`; \`request_id\` is also in the \`X-Request-Id\` header of every response. Besides the codes listed per operation: an unknown method or path answers 404 \`route_not_found\` (after authentication), a body over 40 MB 413 \`payload_too_large\`, a server fault 500 \`internal_error\`. Validation reports the first failing field in document order, with its path (\`credentials[3].recipient.name\`).

**Rate limits.** A token bucket per tenant across all operations and processes: 120 requests per minute (\`developer\`, \`starter\`), 600 (\`institution\`), 1,200 (\`industry\`). Every authenticated response carries \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers); 429 \`rate_limited\` adds \`Retry-After\` (seconds). A batch counts as one request.

**Idempotency.** Every POST accepts \`Idempotency-Key\` (1–255 characters). Within 24 h the same key and body replay the first response (status, body and headers, plus \`Idempotent-Replayed: true\`); another body is 409 \`idempotency_key_reused\`; a request while the first is still running is 409 \`idempotency_key_in_use\`. 2xx and 4xx answers are kept; after a 5xx the key may be retried.

**Pagination.** \`GET /batches\` is newest first with opaque cursors (valid 24 h): follow \`next_cursor\` until \`has_more\` is false.

**Retry guidance.** 2xx: stop. 4xx other than 429: do not retry. 429: wait \`Retry-After\`, then back off exponentially. 5xx: retry with exponential backoff (1 s to 30 s, with jitter) and an \`Idempotency-Key\`.`

type Json = Record<string, any>

const headers: Json = {
  "X-Request-Id": {
    description: "The request's id (`req_` + ULID); also `error.request_id` of an error body.",
    schema: { type: "string" }
  },
  "RateLimit-Policy": {
    description:
      "The tenant's quota policy (draft-ietf-httpapi-ratelimit-headers): `\"default\";q=<requests>;w=60`. On every authenticated response.",
    schema: { type: "string" },
    example: "\"default\";q=120;w=60"
  },
  RateLimit: {
    description:
      "The quota left (draft-ietf-httpapi-ratelimit-headers): `\"default\";r=<remaining>;t=<seconds until the bucket is full>`. On every authenticated response.",
    schema: { type: "string" },
    example: "\"default\";r=119;t=1"
  },
  "Retry-After": {
    description: "Whole seconds until a request is allowed again.",
    schema: { type: "integer", minimum: 1 }
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] }
  }
}

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })

const FRAMEWORK_DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"

/** `additionalProperties: true|false` dropped: the default (members allowed) is what the decoders do. */
const dropAdditionalProperties = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(dropAdditionalProperties)
  if (typeof value !== "object" || value === null) return value
  const out: Json = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === "additionalProperties" && typeof v === "boolean") continue
    out[k] = dropAdditionalProperties(v)
  }
  return out
}

const refsOf = (schema: Json | undefined): ReadonlyArray<string> => {
  if (schema === undefined) return []
  if (typeof schema.$ref === "string") return [schema.$ref]
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap((s: Json) => refsOf(s))
  return []
}

/**
 * The pipeline never answers HttpApi's own `HttpApiDecodeError` (every decode failure becomes a
 * contract code), so it leaves the document; each error response is described by its codes.
 */
const cleanResponse = (spec: Json, status: string, response: Json): Json | undefined => {
  const content = response.content?.["application/json"]
  if (content === undefined) return response
  if (Number(status) < 400) {
    return { ...response, content: { "application/json": { ...content, schema: componentRef(spec, content.schema) } } }
  }
  const refs = refsOf(content.schema).filter((r) => r !== FRAMEWORK_DECODE_ERROR)
  if (refs.length === 0) return undefined
  const schema = refs.length === 1 ? { $ref: refs[0] } : { anyOf: refs.map(($ref) => ({ $ref })) }
  const text = refs
    .map((r) => spec.components.schemas[r.slice("#/components/schemas/".length)]?.description)
    .filter((d): d is string => typeof d === "string")
    .join("\n\n")
  return { ...response, description: text === "" ? response.description : text, content: { "application/json": { schema } } }
}

const IDEMPOTENCY_ERRORS = new Set(["IdempotencyKeyReused", "IdempotencyKeyInUse"].map((n) => `#/components/schemas/${n}`))

/**
 * Which answers can be a replay: those a POST's handler gives (2xx, 400, 404, 422, and 409s
 * other than the idempotency protocol's own). Authentication, rate limiting, the body limit
 * and 5xx answers come before or outside the stored run.
 */
const replayable = (method: string, operation: Json, code: number, response: Json) => {
  if (method !== "post") return false
  // Without a body, a 400 can only be the Idempotency-Key's own format, checked before the run.
  if (code === 400) return operation.requestBody !== undefined
  if (code < 300 || code === 404 || code === 422) return true
  return code === 409 && refsOf(response.content?.["application/json"]?.schema).some((r) => !IDEMPOTENCY_ERRORS.has(r))
}

const withHeaders = (method: string, operation: Json, status: string, response: Json): Json => {
  const code = Number(status)
  const names = ["X-Request-Id"]
  if (code !== 401) names.push("RateLimit-Policy", "RateLimit")
  if (code === 429) names.push("Retry-After")
  if (replayable(method, operation, code, response)) names.push("Idempotent-Replayed")
  return { ...response, headers: Object.fromEntries(names.map((n) => [n, ref(n)])) }
}

/** HttpApi inlines a success schema annotated with a status; point it at its component. */
const componentRef = (spec: Json, schema: Json | undefined): Json | undefined => {
  if (schema === undefined || schema.$ref !== undefined) return schema
  const text = JSON.stringify(schema)
  const name = Object.keys(spec.components.schemas).find((n) => JSON.stringify(spec.components.schemas[n]) === text)
  return name === undefined ? schema : { $ref: `#/components/schemas/${name}` }
}

/** @internal */
export const transform = (input: Json): Json => {
  const spec = dropAdditionalProperties(input) as Json
  for (const item of Object.values(spec.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      const responses: Json = {}
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const cleaned = cleanResponse(spec, status, response)
        if (cleaned !== undefined) responses[status] = withHeaders(method, operation, status, cleaned)
      }
      operation.responses = responses
      // HttpApi decodes headers by their lowercase names; the document uses the usual spelling.
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "header" && parameter.name === "idempotency-key") parameter.name = "Idempotency-Key"
      }
    }
  }
  // HttpApiDecodeError and the schemas only it uses.
  delete spec.components.schemas.HttpApiDecodeError
  delete spec.components.schemas.Issue
  delete spec.components.schemas.PropertyKey
  spec.components.headers = headers
  return spec
}
