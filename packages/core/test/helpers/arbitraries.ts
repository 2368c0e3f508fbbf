/**
 * Random valid API inputs, as a client sends them: unicode, characters N-Quads must escape
 * (quotes, backslashes, control characters, line breaks), every optional field present and
 * absent, empty and long arrays.
 */
import { FastCheck as fc } from "effect"

const awkward = fc.constantFrom(
  "\"quoted\"", "back\\slash", "line\nbreak", "tab\there", "carriage\rreturn", "nul\u0000byte", "\u0007bell",
  "emoji 🎓✨", "Zoë Ångström", "日本語の学位", "עברית", "‮rtl override", "a\u0301combining", "<script>alert(1)</script>",
  "trailing space ", "\u2028line separator", "\uFFFD"
)

/** Non-blank text of up to `max` characters, often with awkward characters mixed in. */
export const text = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: max }) },
    { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: max }), awkward).map(([a, b]) => `${a}${b}`.slice(0, Math.max(max, b.length))) }
  ).filter((s) => s.trim().length > 0 && !LONE_SURROGATE.test(s))

// The API refuses ill-formed Unicode (a lone surrogate has no UTF-8 form): valid inputs have none.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const recipientId = fc.uuid({ version: 4 }).map((u) => `urn:uuid:${u}`)

/** URIs the API accepts, as JSON-LD `@id`s that canonicalize cleanly. */
export const uri = fc.oneof(
  fc.webUrl({ withQueryParameters: true }),
  fc.uuid({ version: 4 }).map((u) => `urn:uuid:${u}`),
  fc.constantFrom("https://example.org/a%20b", "did:web:example.org", "urn:isbn:0451450523")
)

const evidence = fc.oneof(
  fc.record({ id: uri }),
  fc.record({ narrative: text(60) }),
  fc.record({ id: uri, narrative: text(60) })
)

const alignment = fc.record({
  targetFramework: fc.constantFrom("ESCO", "O*NET", "ISCED-F", "CUSTOM"),
  targetCode: text(16),
  targetName: text(40),
  targetUrl: fc.webUrl()
}, { requiredKeys: ["targetFramework", "targetCode", "targetName"] })

const achievement = fc.record({
  id: uri,
  name: text(60),
  description: text(200),
  criteria: fc.record({ narrative: text(120) }, { requiredKeys: [] }),
  alignment: fc.array(alignment, { maxLength: 4 }),
  evidence: fc.array(evidence, { maxLength: 3 })
}, { requiredKeys: ["name", "description"] })

const YEAR_2000 = Date.UTC(2000, 0, 1)
const YEAR_2100 = Date.UTC(2100, 0, 1)

/** One `CredentialInput` as JSON. */
export const credentialInput = fc.record({
  recipient: fc.record({ id: recipientId, name: text(60), email: fc.emailAddress() }, { requiredKeys: ["id", "name"] }),
  achievement,
  issued: fc.integer({ min: YEAR_2000, max: YEAR_2100 }),
  expiresAfter: fc.option(fc.integer({ min: 1000, max: 20 * 365 * 86_400_000 }), { nil: undefined }),
  evidence: fc.option(fc.array(evidence, { maxLength: 3 }), { nil: undefined })
}).map((r) => ({
  recipient: r.recipient,
  achievement: r.achievement,
  issuanceDate: new Date(r.issued).toISOString().replace(/\.\d{3}Z$/, "Z"),
  ...(r.expiresAfter === undefined ? {} : { expirationDate: new Date(r.issued + r.expiresAfter).toISOString() }),
  ...(r.evidence === undefined ? {} : { evidence: r.evidence })
}))

export const recipientNameMode = fc.constantFrom("hashed" as const, "plain" as const)

/** An issuer as a tenant configures it. */
export const issuer = fc.record({
  name: text(80),
  url: fc.option(fc.webUrl(), { nil: undefined }),
  image: fc.option(fc.webUrl(), { nil: undefined })
})

// ---------------------------------------------------------------------------------------------
// Documents beyond what the API accepts (FastCanonicalizer equality tests)
// ---------------------------------------------------------------------------------------------

/** `credentialInput` with longer arrays: up to `maxAlignments` alignments and `maxEvidence` evidence items. */
export const credentialInputWith = (options: { readonly maxAlignments: number; readonly maxEvidence: number }) =>
  fc.record({
    base: credentialInput,
    alignment: fc.array(alignment, { maxLength: options.maxAlignments }),
    evidence: fc.option(fc.array(evidence, { maxLength: options.maxEvidence }), { nil: undefined })
  }).map(({ alignment, base, evidence }) => ({
    ...base,
    achievement: { ...base.achievement, alignment },
    ...(evidence === undefined ? {} : { evidence })
  }))

/**
 * IRIs as anything may hand them to `Document.build` (a tenant's configured URL, a DID): the
 * API's URIs, IRIs with non-ASCII characters, characters N-Quads escapes inside IRIs (`"`,
 * `{`, `|`, `^`, backquote, control characters), a scheme that is also a JSON-LD term, blank
 * node and relative references. The fast path either matches jsonld.js or steps aside.
 */
export const anyIri: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: uri },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom("https://", "urn:", "did:web:", "name:", "Profile:", "id:", "type:", "xsd:", "_:", "", "HTTP://", "a+b-c.d:"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 20 })
    ).map(([scheme, rest]) => `${scheme}${rest}`)
  },
  { weight: 1, arbitrary: fc.constantFrom("https://example.org/a\"b{c}|d^e`f\\g", "urn:x:\u0001\u007f", "https://例え.jp/パス", "relative/path", "https://example.org/a b", "https://example.org/\u2028", "https://example.org/#frag") }
)

/** A deterministic `Document.Randomness` from a seed (uuids and salts), so failures replay. */
export const seededRandomness = (seed: number) => {
  let state = seed >>> 0 || 1
  const next = () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
  const hex = (n: number) => Array.from({ length: n }, () => (next() & 0xf).toString(16)).join("")
  return {
    uuid: () => `urn:uuid:${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
    salt: () => hex(32)
  }
}
