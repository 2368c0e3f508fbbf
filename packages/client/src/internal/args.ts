/**
 * A small argv parser: `--flag value`, `--flag=value`, boolean `--flag` / `--no-flag`,
 * repeatable flags, positionals, and `--` ending the flags. Unknown flags are errors.
 */

export interface Spec {
  readonly strings?: ReadonlyArray<string>
  readonly booleans?: ReadonlyArray<string>
  /** String flags that may be given several times. */
  readonly repeated?: ReadonlyArray<string>
}

export interface Parsed {
  readonly positionals: ReadonlyArray<string>
  readonly strings: ReadonlyMap<string, ReadonlyArray<string>>
  readonly booleans: ReadonlyMap<string, boolean>
}

export class UsageError extends Error {
  override readonly name = "UsageError"
}

export const parse = (argv: ReadonlyArray<string>, spec: Spec): Parsed => {
  const strings = new Map<string, Array<string>>()
  const booleans = new Map<string, boolean>()
  const positionals: Array<string> = []
  const isString = (name: string) => (spec.strings ?? []).includes(name) || (spec.repeated ?? []).includes(name)
  const isBoolean = (name: string) => (spec.booleans ?? []).includes(name)
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`)
      positionals.push(arg)
      continue
    }
    const eq = arg.indexOf("=")
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq)
    if (isString(name)) {
      const value = eq < 0 ? argv[++i] : arg.slice(eq + 1)
      if (value === undefined) throw new UsageError(`--${name} needs a value`)
      if (strings.has(name) && !(spec.repeated ?? []).includes(name)) throw new UsageError(`--${name} is given twice`)
      strings.set(name, [...(strings.get(name) ?? []), value])
    } else if (isBoolean(name) && eq < 0) {
      booleans.set(name, true)
    } else if (name.startsWith("no-") && isBoolean(name.slice(3)) && eq < 0) {
      booleans.set(name.slice(3), false)
    } else {
      throw new UsageError(`unknown option --${name}`)
    }
  }
  return { positionals, strings, booleans }
}

export const string = (parsed: Parsed, name: string): string | undefined => parsed.strings.get(name)?.[0]

export const all = (parsed: Parsed, name: string): ReadonlyArray<string> => parsed.strings.get(name) ?? []

export const flag = (parsed: Parsed, name: string, fallback = false): boolean => parsed.booleans.get(name) ?? fallback

export const integer = (parsed: Parsed, name: string, range: { readonly min: number; readonly max: number }): number | undefined => {
  const value = string(parsed, name)
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new UsageError(`--${name} must be an integer from ${range.min} to ${range.max}`)
  }
  return n
}
