/**
 * The one place HTML is escaped. Pages are built with the `html` tagged template: every
 * interpolated value is escaped unless it is itself `Html` (the result of another `html`
 * template or of `raw`), so an issuer-supplied string can never become markup by accident.
 *
 * @since 0.1.0
 */

const HtmlTypeId: unique symbol = Symbol.for("@sigil/server/Html")

/**
 * Markup that is already safe: produced by `html` or declared with `raw`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Html {
  readonly [HtmlTypeId]: typeof HtmlTypeId
  readonly value: string
}

/**
 * What a template accepts: markup, text (escaped), numbers, nothing (`undefined`, `null`,
 * `false` render as the empty string) and lists of these.
 *
 * @since 0.1.0
 * @category models
 */
export type Interpolation = Html | string | number | undefined | null | false | ReadonlyArray<Interpolation>

const make = (value: string): Html => ({ [HtmlTypeId]: HtmlTypeId, value })

/**
 * @since 0.1.0
 * @category guards
 */
export const isHtml = (u: unknown): u is Html => typeof u === "object" && u !== null && HtmlTypeId in u

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/**
 * Text as HTML: safe in element content and in quoted attribute values.
 *
 * @since 0.1.0
 * @category escaping
 */
export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

/**
 * Trusted markup (our own constants: CSS, inline SVG from the QR encoder). Never pass
 * issuer-supplied text here.
 *
 * @since 0.1.0
 * @category constructors
 */
export const raw = (markup: string): Html => make(markup)

const render = (value: Interpolation): string => {
  if (value === undefined || value === null || value === false) return ""
  if (typeof value === "string") return escape(value)
  if (typeof value === "number") return escape(String(value))
  if (isHtml(value)) return value.value
  return (value as ReadonlyArray<Interpolation>).map(render).join("")
}

/**
 * The template tag: `html\`<p>${text}</p>\``.
 *
 * @since 0.1.0
 * @category constructors
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolation>): Html => {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return make(out)
}

/**
 * A URL an issuer supplied, if it is safe to put in `href`/`src`: only absolute `http:` and
 * `https:` URLs (a `javascript:` or `data:` URL survives escaping and would run or embed
 * content). Anything else is shown as text by the caller, or left out.
 *
 * @since 0.1.0
 * @category escaping
 */
export const safeUrl = (url: unknown): string | undefined => {
  if (typeof url !== "string") return undefined
  try {
    const parsed = new URL(url)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined
  } catch {
    return undefined
  }
}

/**
 * A JSON value for a `<script type="application/json">` data block: `<`, `>` and `&` are
 * written as `\u003c`… so no string in it can close the element or open a comment.
 *
 * @since 0.1.0
 * @category escaping
 */
export const jsonScript = (value: unknown): Html =>
  make(
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029")
  )
