/**
 * Arbitrary requests to the issuer API and the administrative channel (issue #18, hardening):
 * every operation of both, with random paths, methods, headers, query strings and bodies.
 *
 * What a case names that depends on the server's state (a resource id of some tenant, an API
 * key, a list cursor) is generated as a choice (`Pick`) and resolved when the case runs, against
 * pools that successful requests grow: a generated case stays a plain, printable value.
 */
import fc from "fast-check"
import * as Bodies from "./bodies.js"

// ---------------------------------------------------------------------------------------------
// choices resolved at run time
// ---------------------------------------------------------------------------------------------

/** Whose resource: the main tenant's in the test or live environment, or another tenant's. */
export type Owner = "main" | "live" | "other"

export type Resource = "batch" | "credential" | "webhook"

/** A resource id, a tenant id or an API key id, picked from a pool when the case runs. */
export type Pick =
  | { readonly resource: Resource; readonly owner: Owner; readonly index: number }
  | { readonly tenant: "read" | "scratch"; readonly index: number }
  | { readonly apiKey: "scratch" | "revoked"; readonly index: number }
  | { readonly cursor: number }

/** A path or query segment: text sent as is, or a pick. */
export type Part = string | Pick

/** The `Authorization` header lines of a case. */
export type Auth =
  | { readonly bearer: "main" | "live" | "other" | "revoked" | "small" | "admin"; readonly scheme: string; readonly suffix: string }
  | { readonly line: string }

export interface Case {
  readonly channel: "issuer" | "admin"
  /** The operation the case was made from (`unknownRoute` for random paths). */
  readonly operation: string
  readonly method: string
  readonly path: ReadonlyArray<Part>
  /** How the path is bent before sending. */
  readonly form: Form
  readonly query: ReadonlyArray<Part>
  readonly auth: ReadonlyArray<Auth>
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Uint8Array | undefined
  readonly chunked: number | undefined
  readonly noHost: boolean
}

// ---------------------------------------------------------------------------------------------
// text
// ---------------------------------------------------------------------------------------------

const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`

/** Every UTF-8 byte percent-encoded (a lone surrogate becomes U+FFFD, as any encoder does). */
export const percentEncoded = (s: string): string => Array.from(Buffer.from(s, "utf8"), hex).join("")

const ULID = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const ulid = fc.string({ unit: fc.constantFrom(...ULID), minLength: 26, maxLength: 26 })

/** Segments no well-formed id looks like; already encoded for a request target. */
const malformedSegment = (prefix: string): fc.Arbitrary<string> =>
  fc.oneof(
    ulid.map((u) => `${prefix}_${u}`.toLowerCase()),
    ulid.map((u) => `${prefix === "bat" ? "crd" : "bat"}_${u}`),
    ulid.map((u) => `${prefix}_${u.slice(1)}`),
    ulid.map((u) => `${prefix}_${u}0`),
    ulid.map((u) => `${prefix}-${u}`),
    fc.string({ maxLength: 40 }).map(percentEncoded),
    fc.string({ unit: "binary", maxLength: 20 }).map(percentEncoded),
    // Bytes that are not UTF-8 once decoded.
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Array.from(bytes, hex).join("")),
    fc.constantFrom(
      ".", "..", "%2e", "%2E%2E", "", "%2F", "a%2Fb", "%00", "%", "%Z1", "%%", "%E2%82", "%C0%AF", "~", "*", "@", ":",
      "null", "undefined", "__proto__", "constructor", "0", "-1", "%20", "+", "%u0041", "%F0%9F%98%80"
    ),
    // Raw Latin-1 and control bytes in the request line: the parser's refusals.
    fc.constantFrom("\u00e9", "\u00ff", "a\tb", "a b", "\u007f"),
    fc.constantFrom(300, 5_000, 17_000).map((n) => "A".repeat(n))
  )

const resourceId = (resource: Resource, prefix: string): fc.Arbitrary<Part> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.nat().map((index): Pick => ({ resource, owner: "main", index })) },
    { weight: 1, arbitrary: fc.nat().map((index): Pick => ({ resource, owner: "live", index })) },
    { weight: 1, arbitrary: fc.nat().map((index): Pick => ({ resource, owner: "other", index })) },
    { weight: 1, arbitrary: ulid.map((u) => `${prefix}_${u}`) },
    { weight: 3, arbitrary: malformedSegment(prefix) }
  )

const tenantId = (which: "read" | "scratch"): fc.Arbitrary<Part> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.nat().map((index): Pick => ({ tenant: which, index })) },
    { weight: 1, arbitrary: ulid.map((u) => `tnt_${u}`) },
    { weight: 3, arbitrary: malformedSegment("tnt") }
  )

const apiKeyId: fc.Arbitrary<Part> = fc.oneof(
  { weight: 4, arbitrary: fc.nat().map((index): Pick => ({ apiKey: "scratch", index })) },
  { weight: 1, arbitrary: fc.constant<Pick>({ apiKey: "revoked", index: 0 }) },
  { weight: 1, arbitrary: ulid.map((u) => `ak_${u}`) },
  { weight: 3, arbitrary: malformedSegment("ak") }
)

// ---------------------------------------------------------------------------------------------
// query strings
// ---------------------------------------------------------------------------------------------

const junkValue = fc.oneof(
  fc.constantFrom("", "%", "%zz", "%00", "%FF", "a%20b", "+", "null", "[]", "{}", "1e2", "0x10", "-0", "NaN", "Infinity"),
  fc.string({ maxLength: 20 }).map(percentEncoded),
  fc.uint8Array({ maxLength: 6 }).map((bytes) => Array.from(bytes, hex).join(""))
)

const junkParam = fc.oneof(
  fc.tuple(fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "x", "limit[]", "a.b", "%00"), junkValue)
    .map(([k, v]) => `${k}=${v}`),
  fc.constantFrom("&", "=", "==", "&&&", "limit", "?", "#", "a=1&a=2"),
  fc.string({ maxLength: 12 }).map(percentEncoded)
)

const limitValue = (max: number) =>
  fc.oneof(
    fc.constantFrom("1", "25", String(max), "0", String(max + 1), "-1", "1.5", "abc", "", "1e2", "0x10", "%205", "+5", "99999999999999999999"),
    fc.integer().map(String)
  )

const since = fc.oneof(
  fc.constantFrom("2025-06-30T12:00:00Z", "2025-06-30T12:00:00.000Z", "2025-06-30", "2025-06-30T12:00:00%2B02:00", "yesterday", "", "0000-01-01T00:00:00Z"),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
)

/** The parts of a query string, `&`-joined when sent (an empty array is no query). */
const queryOf = (known: ReadonlyArray<fc.Arbitrary<Part | ReadonlyArray<Part>>>): fc.Arbitrary<ReadonlyArray<Part>> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant([]) },
    {
      weight: 5,
      arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: fc.oneof(...known) }, { weight: 1, arbitrary: junkParam }), {
        minLength: 1,
        maxLength: 4
      }).map((params) => params.flatMap((p, i) => [...(i > 0 ? ["&"] : []), ...(Array.isArray(p) ? p : [p as Part])]))
    }
  )

const listBatchesQuery = queryOf([
  limitValue(100).map((v) => `limit=${v}`),
  fc.constantFrom("pending", "signed", "anchored", "failed", "PENDING", "revoked", "").map((v) => `status=${v}`),
  fc.oneof(
    fc.nat().map((cursor): ReadonlyArray<Part> => ["cursor=", { cursor }]),
    junkValue.map((v) => `cursor=${v}`),
    fc.base64String({ maxLength: 80 }).map((v) => `cursor=${encodeURIComponent(v)}`)
  )
])

const auditQuery = queryOf([
  limitValue(1000).map((v) => `limit=${v}`),
  since.map((v) => `since=${v}`)
])

const anyQuery = fc.oneof({ weight: 6, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: queryOf([junkParam]) })

// ---------------------------------------------------------------------------------------------
// bodies
// ---------------------------------------------------------------------------------------------

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"))

const MARK = "\u0001MARK\u0001"

const stringPaths = (value: Bodies.Json) => Bodies.paths(value).filter((p) => typeof Bodies.get(value, p) === "string")

const wildString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ unit: "binary-ascii", maxLength: 30 }),
  fc.constantFrom("", " ", "\u0000", "\u202e", "\ud800", "\udfff", "\r\n", "<script>", "' OR 1=1 --", "../../etc/passwd"),
  fc.constantFrom(1_000, 70_000, 300_000).map((n) => "x".repeat(n))
)

/** Valid bodies and near misses: a string member replaced, a member added. */
const validish = (spec: Bodies.Spec): fc.Arbitrary<Uint8Array> => {
  const strings = stringPaths(spec.valid)
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(utf8(JSON.stringify(spec.valid))) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...strings), wildString).map(([p, s]) => utf8(JSON.stringify(Bodies.replaced(spec.valid, p, s))))
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom("extra", "__proto__", "constructor", "id", "tenant_id", "status"), fc.jsonValue({ maxDepth: 3 }))
        .map(([k, v]) => utf8(`${JSON.stringify(spec.valid).slice(0, -1)},${JSON.stringify(k)}:${JSON.stringify(v)}}`))
    }
  )
}

/** Text to put in place of a member's value, raw: not what `JSON.stringify` would write. */
const rawValue: fc.Arbitrary<Uint8Array> = fc.oneof(
  // Numbers JSON.parse reads as Infinity, -0, or rounded.
  fc.constantFrom("1e400", "-1e400", "123456789012345678901234567890", "-0", "1E308", "1e-400", "9007199254740993").map(utf8),
  // Deep nesting.
  fc.constantFrom(100, 5_000, 20_000).map((depth) => utf8(`${"[".repeat(depth)}${"]".repeat(depth)}`)),
  fc.constantFrom(100, 5_000, 20_000).map((depth) => utf8(`${"{\"a\":".repeat(depth)}1${"}".repeat(depth)}`)),
  // A string with bytes that are not UTF-8, or with escapes of lone surrogates.
  fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80])
    .map((bytes) => new Uint8Array([0x22, 0x61, ...bytes, 0x62, 0x22])),
  fc.constantFrom("\"\\ud800\"", "\"\\u0000\"", "\"\\uDFFFa\"", "\"a\\\"", "\"\\x41\"").map(utf8)
)

/** A body's text with one member's value replaced by raw bytes, or the whole body bent. */
const rawBody = (spec: Bodies.Spec): fc.Arbitrary<Uint8Array> => {
  const all = Bodies.paths(spec.valid)
  const text = JSON.stringify(spec.valid)
  return fc.oneof(
    fc.tuple(fc.constantFrom(...all), rawValue).map(([p, bytes]) => {
      const [before, after] = JSON.stringify(Bodies.replaced(spec.valid, p, MARK)).split(JSON.stringify(MARK))
      return new Uint8Array(Buffer.concat([Buffer.from(before!, "utf8"), bytes, Buffer.from(after!, "utf8")]))
    }),
    fc.constantFrom(
      new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]),
      new Uint8Array(Buffer.from(text, "utf16le")),
      utf8(`${text}\u0000`),
      utf8(`\n\t ${text} \r\n`),
      utf8(`${text.slice(0, -1)},${text.slice(1)}`),
      utf8(`${text}${text}`)
    )
  )
}

/** Bodies of an operation that reads one; of one that does not (`undefined`), mostly none. */
const bodyOf = (spec: Bodies.Spec | undefined): fc.Arbitrary<Uint8Array | undefined> =>
  spec === undefined
    ? fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.oneof(Bodies.notJson, Bodies.notAnObject).map(utf8) }
    )
    : fc.oneof(
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 5, arbitrary: validish(spec) },
      { weight: 3, arbitrary: Bodies.malformedOf(spec).map(utf8) },
      { weight: 2, arbitrary: rawBody(spec) }
    )

// ---------------------------------------------------------------------------------------------
// headers
// ---------------------------------------------------------------------------------------------

const latin1Value = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 40 })

const bearer = (who: "main" | "live" | "other" | "revoked" | "small" | "admin"): fc.Arbitrary<Auth> =>
  fc.tuple(
    fc.oneof({ weight: 8, arbitrary: fc.constant("Bearer") }, { weight: 1, arbitrary: fc.constantFrom("bearer", "BEARER", "Bearer ", "Basic", "Token", "") }),
    fc.oneof({ weight: 8, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("x", " ", "\t", ",", "=", "%20") })
  ).map(([scheme, suffix]) => ({ bearer: who, scheme, suffix }))

const garbledAuth: fc.Arbitrary<Auth> = fc.oneof(
  fc.constantFrom("", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer sigil_test_", "Bearer sigil_live_", "Bearer sigil_prod_abc", "Bearer null")
    .map((line) => ({ line })),
  fc.string({ unit: fc.constantFrom(..."123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"), minLength: 40, maxLength: 50 })
    .map((s) => ({ line: `Bearer sigil_test_${s}` })),
  latin1Value.map((s) => ({ line: `Bearer ${s}` })),
  fc.constantFrom(4_000, 15_000).map((n) => ({ line: `Bearer ${"k".repeat(n)}` }))
)

/** The `Authorization` lines: none, one, or two (a repeated header is refused). */
const authOf = (channel: "issuer" | "admin"): fc.Arbitrary<ReadonlyArray<Auth>> => {
  const one = channel === "issuer"
    ? fc.oneof(
      { weight: 12, arbitrary: bearer("main") },
      { weight: 2, arbitrary: bearer("live") },
      { weight: 2, arbitrary: bearer("other") },
      { weight: 1, arbitrary: bearer("revoked") },
      { weight: 1, arbitrary: bearer("small") },
      { weight: 1, arbitrary: bearer("admin") },
      { weight: 2, arbitrary: garbledAuth }
    )
    : fc.oneof(
      { weight: 14, arbitrary: bearer("admin") },
      { weight: 1, arbitrary: bearer("main") },
      { weight: 2, arbitrary: garbledAuth }
    )
  return fc.oneof(
    { weight: 16, arbitrary: one.map((a) => [a]) },
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.tuple(one, one) }
  )
}

const contentTypes = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  "application/json;charset=\"UTF-8\"",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/jsonx",
  "application/merge-patch+json",
  "text/plain",
  "text/json",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "",
  ";",
  "application/json; charset",
  "*/*"
)

const idempotencyKeys = fc.oneof(
  fc.constantFrom("idem-1", "idem-2", "idem-3"),
  fc.uuid(),
  fc.constantFrom("", " ", "a".repeat(255), "a".repeat(256), "k".repeat(5_000), "caf\u00e9", "a, b", "\t"),
  latin1Value
)

const extraHeader: fc.Arbitrary<readonly [string, string]> = fc.oneof(
  fc.constantFrom<readonly [string, string]>(
    ["Accept", "application/json"],
    ["Accept", "text/html"],
    ["Accept", "application/xml;q=0.9, */*;q=0.1"],
    ["Accept", "\u00ff\u00fe"],
    ["Accept-Encoding", "gzip, br"],
    ["Content-Encoding", "gzip"],
    ["Expect", "100-continue"],
    ["X-Forwarded-For", "10.0.0.1"],
    ["X-Request-Id", "req_01HZZZZZZZZZZZZZZZZZZZZZZZ"],
    ["Origin", "https://evil.example"],
    ["Cookie", "session=1"],
    ["Range", "bytes=0-1"],
    ["If-None-Match", "*"],
    ["Upgrade", "h2c"],
    ["X-HTTP-Method-Override", "DELETE"],
    ["Transfer-Encoding", "gzip"],
    ["Content-Length", "abc"],
    ["Host", "elsewhere.example"]
  ),
  fc.tuple(fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz-_!#$%&'*+.^`|~0123456789"), minLength: 1, maxLength: 20 }), latin1Value),
  fc.constantFrom(1_000, 8_000, 17_000).map((n): readonly [string, string] => ["X-Filler", "f".repeat(n)])
)

const headersOf = (hasBody: boolean): fc.Arbitrary<ReadonlyArray<readonly [string, string]>> =>
  fc.tuple(
    // Content-Type: usually JSON when there is a body, sometimes anything, sometimes twice.
    fc.oneof(
      { weight: hasBody ? 12 : 2, arbitrary: fc.constant(["application/json"]) },
      { weight: hasBody ? 2 : 10, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: contentTypes.map((t) => [t]) },
      { weight: 1, arbitrary: fc.tuple(contentTypes, contentTypes) }
    ),
    fc.oneof(
      { weight: 6, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: idempotencyKeys.map((k) => [k]) },
      { weight: 1, arbitrary: fc.tuple(idempotencyKeys, idempotencyKeys) }
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(extraHeader, { minLength: 1, maxLength: 3 }) })
  ).map(([types, keys, extra]) => [
    ...types.map((t): readonly [string, string] => ["Content-Type", t]),
    ...keys.map((k): readonly [string, string] => ["Idempotency-Key", k]),
    ...extra
  ])

// ---------------------------------------------------------------------------------------------
// paths and methods
// ---------------------------------------------------------------------------------------------

/** How a path is bent: as is, or with a slash, dot segments, case or encoding changed. */
export type Form =
  | "as-is"
  | "trailing-slash"
  | "double-slash"
  | "dot"
  | "dot-dot"
  | "lead-dot"
  | "lead-double-slash"
  | "lead-dot-dot"
  | "upper"
  | "extra-segment"
  | "matrix"
  | "fragment"
  | "absolute"
  | "encoded-slash"
  | "encoded-letter"

const forms = fc.oneof(
  { weight: 24, arbitrary: fc.constant<Form>("as-is") },
  {
    weight: 6,
    arbitrary: fc.constantFrom<Form>(
      "trailing-slash", "double-slash", "dot", "dot-dot", "lead-dot", "lead-double-slash", "lead-dot-dot", "upper",
      "extra-segment", "matrix", "fragment", "absolute", "encoded-slash", "encoded-letter"
    )
  }
)

/** `path` bent by `form`; `origin` is `http://host:port`, for the absolute form. */
export const bend = (path: string, form: Form, origin: string): string => {
  switch (form) {
    case "as-is":
      return path
    case "trailing-slash":
      return `${path}/`
    case "double-slash":
      return path.replace(/^(\/[^/]*)\//, "$1//")
    case "dot":
      return path.replace(/^(\/[^/]*)\//, "$1/./")
    case "dot-dot":
      return path.replace(/^(\/[^/]*)\//, "$1/x/../")
    case "lead-dot":
      return `/.${path}`
    case "lead-double-slash":
      return `/${path}`
    case "lead-dot-dot":
      return `/x/..${path}`
    case "upper":
      return path.toUpperCase()
    case "extra-segment":
      return `${path}/extra`
    case "matrix":
      return `${path};a=1`
    case "fragment":
      return `${path}#top`
    case "absolute":
      return `${origin}${path}`
    case "encoded-slash": {
      const at = path.lastIndexOf("/")
      return at > 0 ? `${path.slice(0, at)}%2F${path.slice(at + 1)}` : path
    }
    case "encoded-letter":
      return path.replace(/[a-z]/, (c) => hex(c.charCodeAt(0)))
  }
}

const otherMethods = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "get", "Post", "FOO", "PROPFIND", "M-SEARCH", "QUERY")

const methodOf = (method: string) =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: otherMethods })

// ---------------------------------------------------------------------------------------------
// operations
// ---------------------------------------------------------------------------------------------

interface Operation {
  readonly channel: "issuer" | "admin"
  readonly name: string
  readonly method: string
  readonly path: ReadonlyArray<string | fc.Arbitrary<Part>>
  readonly query?: fc.Arbitrary<ReadonlyArray<Part>>
  readonly body?: Bodies.Spec
}

const batch = () => resourceId("batch", "bat")
const credential = () => resourceId("credential", "crd")
const webhook = () => resourceId("webhook", "whk")

/** Every operation of the issuer API (`IssuerApi`) and of the administrative channel (`AdminApi`). */
export const operations: ReadonlyArray<Operation> = [
  { channel: "issuer", name: "createBatch", method: "POST", path: ["/v1/batches"], body: Bodies.createBatch },
  { channel: "issuer", name: "listBatches", method: "GET", path: ["/v1/batches"], query: listBatchesQuery },
  { channel: "issuer", name: "getBatch", method: "GET", path: ["/v1/batches/", batch()] },
  { channel: "issuer", name: "getCredential", method: "GET", path: ["/v1/credentials/", credential()] },
  { channel: "issuer", name: "revokeCredential", method: "POST", path: ["/v1/credentials/", credential(), "/revoke"], body: Bodies.revokeCredential },
  { channel: "issuer", name: "eraseCredential", method: "POST", path: ["/v1/credentials/", credential(), "/erase"], body: Bodies.eraseCredential },
  { channel: "issuer", name: "getCurrentTenant", method: "GET", path: ["/v1/tenants/me"] },
  { channel: "issuer", name: "updateCurrentTenant", method: "PATCH", path: ["/v1/tenants/me"], body: Bodies.updateCurrentTenant },
  { channel: "issuer", name: "createWebhook", method: "POST", path: ["/v1/webhooks"], body: Bodies.createWebhook },
  { channel: "issuer", name: "listWebhooks", method: "GET", path: ["/v1/webhooks"] },
  { channel: "issuer", name: "deleteWebhook", method: "DELETE", path: ["/v1/webhooks/", webhook()] },
  { channel: "issuer", name: "testWebhook", method: "POST", path: ["/v1/webhooks/", webhook(), "/test"] },
  { channel: "admin", name: "createTenant", method: "POST", path: ["/admin/tenants"], body: Bodies.createTenant },
  { channel: "admin", name: "getTenant", method: "GET", path: ["/admin/tenants/", tenantId("read")] },
  // Only scratch tenants are changed: an allowlist on the main tenant would refuse every later case.
  { channel: "admin", name: "updateTenant", method: "PATCH", path: ["/admin/tenants/", tenantId("scratch")], body: Bodies.updateTenant },
  { channel: "admin", name: "createApiKey", method: "POST", path: ["/admin/tenants/", tenantId("scratch"), "/keys"], body: Bodies.createApiKey },
  { channel: "admin", name: "revokeApiKey", method: "POST", path: ["/admin/keys/", apiKeyId, "/revoke"] },
  { channel: "admin", name: "listAudit", method: "GET", path: ["/admin/tenants/", tenantId("read"), "/audit"], query: auditQuery }
]

const SEGMENTS = ["v1", "admin", "batches", "credentials", "webhooks", "tenants", "me", "keys", "audit", "revoke", "erase", "test", "openapi.json", "docs", "c"]

/** Paths of no operation: random segments, the public documents, the other channel's routes. */
const unknownPath: fc.Arbitrary<ReadonlyArray<Part>> = fc.oneof(
  fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SEGMENTS) }, { weight: 1, arbitrary: malformedSegment("x") }), { maxLength: 5 })
    .map((segments) => [`/${segments.join("/")}`]),
  fc.constantFrom("/", "/v1", "/v1/", "*", "/v1/openapi.json", "/v1/docs", "/admin", "/v1/admin/tenants", "/v2/batches", "/v1/batches/me")
    .map((p) => [p])
)

const unknownRoute = (channel: "issuer" | "admin"): fc.Arbitrary<Case> =>
  fc.record({
    method: otherMethods,
    path: unknownPath,
    auth: authOf(channel),
    headers: headersOf(false),
    body: bodyOf(undefined)
  }).map((r) => ({
    channel,
    operation: "unknownRoute",
    method: r.method,
    path: r.path,
    form: "as-is",
    query: [],
    auth: r.auth,
    headers: r.headers,
    body: r.body,
    chunked: undefined,
    noHost: false
  }))

/** What a well-formed request of an operation would send, for the dimensions a case leaves alone. */
const cleanAuth = (channel: "issuer" | "admin"): fc.Arbitrary<ReadonlyArray<Auth>> =>
  (channel === "admin"
    ? fc.constant<Auth>({ bearer: "admin", scheme: "Bearer", suffix: "" })
    : fc.constantFrom<Auth>(
      { bearer: "main", scheme: "Bearer", suffix: "" },
      { bearer: "main", scheme: "Bearer", suffix: "" },
      { bearer: "main", scheme: "Bearer", suffix: "" },
      { bearer: "live", scheme: "Bearer", suffix: "" },
      { bearer: "other", scheme: "Bearer", suffix: "" }
    )).map((a) => [a])

const cleanHeaders = (hasBody: boolean): fc.Arbitrary<ReadonlyArray<readonly [string, string]>> =>
  fc.option(fc.oneof(fc.constantFrom("idem-1", "idem-2", "idem-3"), fc.uuid()), { freq: 3 }).map((key) => [
    ...(hasBody ? [["Content-Type", "application/json"] as const] : []),
    ...(key === null ? [] : [["Idempotency-Key", key] as const])
  ])

/**
 * Which of the dimensions that surround an operation's input (method, path form, credentials,
 * headers, transport) a case bends: none, one, or all. Ids, query and body always vary; bending
 * everything at once would refuse nearly every case before its input is looked at.
 */
const bent = fc.oneof(
  { weight: 4, arbitrary: fc.constant("none") },
  { weight: 3, arbitrary: fc.constantFrom("method", "form", "auth", "headers", "transport") },
  { weight: 3, arbitrary: fc.constant("all") }
)

const caseOf = (operation: Operation): fc.Arbitrary<Case> => {
  const hasBody = operation.body !== undefined
  return fc.record({
    bent,
    path: fc.tuple(...operation.path.map((p) => (typeof p === "string" ? fc.constant(p) : p))),
    query: operation.query ?? anyQuery,
    body: bodyOf(operation.body),
    method: methodOf(operation.method),
    form: forms,
    auth: authOf(operation.channel),
    cleanAuth: cleanAuth(operation.channel),
    headers: headersOf(hasBody),
    cleanHeaders: cleanHeaders(hasBody),
    chunked: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(1, 7, 1024) }),
    noHost: fc.oneof({ weight: 20, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })
  }).map((r): Case => {
    const is = (dimension: string) => r.bent === "all" || r.bent === dimension
    return {
      channel: operation.channel,
      operation: operation.name,
      method: is("method") ? r.method : operation.method,
      path: r.path,
      form: is("form") ? r.form : "as-is",
      query: r.query,
      auth: is("auth") ? r.auth : r.cleanAuth,
      headers: is("headers") ? r.headers : r.cleanHeaders,
      body: r.body,
      chunked: is("transport") ? r.chunked : undefined,
      noHost: is("transport") ? r.noHost : false
    }
  })
}

/** A request to any operation of either channel, or to no operation at all. */
export const anyCase: fc.Arbitrary<Case> = fc.oneof(
  ...operations.map(caseOf),
  unknownRoute("issuer"),
  unknownRoute("admin")
)
