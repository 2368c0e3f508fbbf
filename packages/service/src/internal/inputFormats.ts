/**
 * Pure predicates behind the string formats of the request bodies (`Inputs`): UTC date-times,
 * URIs, e-mail addresses, lengths. They never throw, whatever they are given, because a
 * decode failure must be an `InvalidInput` and never a defect.
 *
 * @internal
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|\+00:00)$/

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** @internal */
export interface UtcDateTime {
  /** The input with `+00:00` written as `Z`; the fraction is kept as given. */
  readonly normalized: string
  /** Fixed-width `YYYY-MM-DDTHH:MM:SS.fffffffff`: compares as a string in time order. */
  readonly sortKey: string
}

/**
 * Parses `YYYY-MM-DDTHH:MM:SS(.f{1,9})?(Z|+00:00)` on a real calendar date (proleptic
 * Gregorian, no leap second). Returns a reason when the string is not one.
 *
 * @internal
 */
export const parseUtcDateTime = (s: string): UtcDateTime | { readonly reason: string } => {
  // A date-time is at most 36 characters; refusing longer input first keeps the regex cheap.
  const m = s.length <= 36 ? DATE_TIME.exec(s) : null
  if (m === null) return { reason: "not in the form YYYY-MM-DDTHH:MM:SS[.fraction]Z" }
  const [, y, mo, d, h, mi, sec, fraction, zone] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { reason: "not a calendar date" }
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return { reason: "not a valid time of day" }
  const base = s.slice(0, 19)
  const normalized = zone === "Z" ? s : `${s.slice(0, -6)}Z`
  return { normalized, sortKey: `${base}.${(fraction ?? "").padEnd(9, "0")}` }
}

/**
 * The time-order key of a valid date-time (any string otherwise, so never throws).
 *
 * @internal
 */
export const sortKey = (s: string): string => {
  const parsed = parseUtcDateTime(s)
  return "sortKey" in parsed ? parsed.sortKey : s
}

/** Longest URI accepted anywhere; browsers and proxies commonly cap URLs near this. */
export const MAX_URI_LENGTH = 2048

// RFC 3986: scheme ":" then only unreserved, reserved and percent-encoded characters. Plain
// ASCII on purpose: these ids end up as JSON-LD `@id`s and link targets on the verify page.
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/

/**
 * An absolute URI (with a scheme), e.g. `https://…` or `urn:uuid:…`.
 *
 * @internal
 */
export const isAbsoluteUri = (s: string): boolean => s.length <= MAX_URI_LENGTH && ABSOLUTE_URI.test(s)

/**
 * An absolute `http:` or `https:` URL with a host.
 *
 * @internal
 */
export const isHttpUrl = (s: string): boolean => {
  if (!isAbsoluteUri(s) || !/^https?:\/\/[^/?#]/i.test(s)) return false
  // `URL` is standard (WHATWG) and pure; it rejects what the regex lets through, such as bad ports.
  try {
    const url = new URL(s)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
  } catch {
    return false
  }
}

/** RFC 5321's practical limit on an address. */
export const MAX_EMAIL_LENGTH = 254

// local@label.label…tld: one `@`, no spaces, no characters that need quoting, a dot in the
// domain and a top-level label of at least two characters. Each part excludes the separator
// after it, so matching is linear.
const EMAIL = /^[^\s@"(),:;<>[\]\\]{1,64}@(?:[^\s@"(),:;<>[\]\\.]+\.)+[^\s@"(),:;<>[\]\\.]{2,}$/

/**
 * A plausible e-mail address. Deliverability is the mailer's business, not the API's.
 *
 * @internal
 */
export const isPlausibleEmail = (s: string): boolean => s.length <= MAX_EMAIL_LENGTH && EMAIL.test(s) && !hasControlCharacters(s)

// C0 controls but tab, line feed and carriage return; DEL; C1 controls. They are invisible in a
// name, meaningless on a diploma, and U+0000 cannot be stored in Postgres text at all.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/

/**
 * Whether a text has a control character other than tab, line feed and carriage return.
 *
 * @internal
 */
export const hasControlCharacters = (s: string): boolean => CONTROL.test(s)

/**
 * Whether `s` has at most `max` Unicode code points (what JSON Schema's `maxLength` counts),
 * without allocating and without walking far past the limit.
 *
 * @internal
 */
export const codePointsAtMost = (s: string, max: number): boolean => {
  if (s.length <= max) return true
  if (s.length > 2 * max) return false
  let count = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
    if (++count > max) return false
  }
  return true
}

/**
 * The UTF-8 length of `s` as `TextEncoder` would encode it (a lone surrogate becomes U+FFFD,
 * three bytes), stopping early once it exceeds `limit`.
 *
 * @internal
 */
export const utf8Length = (s: string, limit = Number.POSITIVE_INFINITY): number => {
  let n = 0
  for (let i = 0; i < s.length && n <= limit; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/**
 * The UTF-8 length of `JSON.stringify(u)`, capped just above `limit` (the exact figure of a huge
 * value does not matter, only that it is too large). `undefined` when the value has no JSON
 * form: a BigInt, a cycle, a throwing `toJSON`. A request body parsed from JSON never hits
 * those, but a decoder must not throw on any `unknown`.
 *
 * @internal
 */
export const jsonUtf8Length = (u: unknown, limit: number): number | undefined => {
  let json: string | undefined
  try {
    json = JSON.stringify(u)
  } catch {
    return undefined
  }
  if (json === undefined) return 0
  // Every UTF-16 unit is at least one UTF-8 byte.
  if (json.length > limit) return json.length
  return utf8Length(json, limit)
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Is the string well-formed UTF-16 (no lone surrogate)? A lone surrogate has no UTF-8 form, so
 * it has no place in a signed document.
 *
 * @internal
 */
export const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s)
