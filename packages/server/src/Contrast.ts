/**
 * WCAG 2.x contrast, for the verification page's colours: our own palette is held to AA
 * (4.5:1 for text) by a test, and a tenant's accent colour is darkened until it reaches AA
 * against white (the accent is both text on white and the background of white text), keeping
 * its hue, rather than rejected.
 *
 * @since 0.1.0
 */

/**
 * WCAG AA for normal text.
 *
 * @since 0.1.0
 * @category constants
 */
export const AA = 4.5

const HEX = /^#?([0-9a-f]{6})$/i

/**
 * `#RRGGBB` → [r, g, b] in 0–255; undefined when not a six-digit hex colour.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseHex = (hex: string): readonly [number, number, number] | undefined => {
  const match = HEX.exec(hex.trim())
  if (match === null) return undefined
  const n = parseInt(match[1]!, 16)
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
}

/**
 * @since 0.1.0
 * @category formatting
 */
export const toHex = (rgb: readonly [number, number, number]): string =>
  `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, "0")).join("")}`

const channel = (c: number): number => {
  const s = c / 255
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}

/**
 * Relative luminance (WCAG 2.x definition).
 *
 * @since 0.1.0
 * @category contrast
 */
export const luminance = (rgb: readonly [number, number, number]): number =>
  0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])

/**
 * The contrast ratio of two `#RRGGBB` colours, 1–21.
 *
 * @since 0.1.0
 * @category contrast
 */
export const ratio = (a: string, b: string): number => {
  const la = luminance(parseHex(a) ?? [0, 0, 0])
  const lb = luminance(parseHex(b) ?? [0, 0, 0])
  const [hi, lo] = la > lb ? [la, lb] : [lb, la]
  return (hi + 0.05) / (lo + 0.05)
}

/**
 * Sigil's own accent, used when a tenant has none or its branding is not on its plan.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ACCENT = "#1f4e8c"

/**
 * The accent the page uses for a requested colour: the colour itself when it has AA contrast
 * with every given background (white by default), else the same hue darkened just enough to
 * reach it; the default accent when the colour is missing or malformed. The backgrounds must
 * be light (darkening only raises contrast against light colours).
 *
 * @since 0.1.0
 * @category contrast
 */
export const readableAccent = (requested: string | undefined, backgrounds: ReadonlyArray<string> = ["#ffffff"]): string => {
  const rgb = requested === undefined ? undefined : parseHex(requested)
  if (rgb === undefined) return DEFAULT_ACCENT
  const passes = (colour: string) => backgrounds.every((background) => ratio(colour, background) >= AA)
  const original = toHex(rgb)
  if (passes(original)) return original
  // Mix toward black in small steps: luminance falls monotonically, and black on a light
  // background passes, so this ends; the first passing step keeps as much colour as possible.
  for (let k = 1; k <= 100; k++) {
    const f = 1 - k / 100
    const candidate = toHex([rgb[0] * f, rgb[1] * f, rgb[2] * f])
    if (passes(candidate)) return candidate
  }
  return "#000000"
}
