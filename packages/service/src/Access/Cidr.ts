/**
 * IP allowlists: CIDR blocks (IPv4 and IPv6) and whether an address is inside one. An IPv4
 * address seen as IPv4-mapped IPv6 (`::ffff:10.0.0.1`) matches IPv4 blocks.
 *
 * @since 0.1.0
 */

/**
 * A parsed block: the network as a 128-bit integer (IPv4 mapped into `::ffff:0:0/96`) and the
 * prefix length in the same 128-bit space.
 *
 * @since 0.1.0
 * @category models
 */
export interface Block {
  readonly network: bigint
  readonly prefix: number
}

const V4_MAPPED = 0xffffn << 32n

const parseV4 = (text: string): bigint | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0n
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255 || (part.length > 1 && part.startsWith("0"))) return undefined
    value = (value << 8n) | BigInt(part)
  }
  return value
}

const parseV6 = (text: string): bigint | undefined => {
  let head = text
  let tail4: bigint | undefined
  const lastColon = text.lastIndexOf(":")
  if (text.includes(".")) {
    tail4 = parseV4(text.slice(lastColon + 1))
    if (tail4 === undefined) return undefined
    head = `${text.slice(0, lastColon + 1)}0:0`
  }
  const halves = head.split("::")
  if (halves.length > 2) return undefined
  const groups = (s: string) => (s === "" ? [] : s.split(":"))
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - left.length - right.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const all = [...left, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...right]
  let value = 0n
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined
    value = (value << 16n) | BigInt(parseInt(g, 16))
  }
  return tail4 === undefined ? value : (value & ~0xffffffffn) | tail4
}

/**
 * An address as a 128-bit integer (IPv4 → IPv4-mapped IPv6), or undefined if malformed.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseAddress = (address: string): bigint | undefined => {
  const v4 = parseV4(address)
  if (v4 !== undefined) return V4_MAPPED | v4
  return parseV6(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""))
}

/**
 * A CIDR block (`10.0.0.0/8`, `2001:db8::/32`; a bare address is a /32 or /128), or undefined
 * if malformed.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (cidr: string): Block | undefined => {
  const [addr, bits, extra] = cidr.trim().split("/")
  if (addr === undefined || extra !== undefined) return undefined
  const isV4 = parseV4(addr) !== undefined
  const address = parseAddress(addr)
  if (address === undefined) return undefined
  const max = isV4 ? 32 : 128
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return undefined
  const length = bits === undefined ? max : Number(bits)
  if (length > max) return undefined
  const prefix = isV4 ? 96 + length : length
  const mask = prefix === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefix)) - 1n)
  return { network: address & mask, prefix }
}

/**
 * @since 0.1.0
 * @category predicates
 */
export const contains = (block: Block, address: bigint): boolean => {
  const mask = block.prefix === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - block.prefix)) - 1n)
  return (address & mask) === block.network
}

/**
 * Is the address allowed by the list? An empty list allows everyone. It fails closed: an
 * unparseable address, or a list none of whose entries parse, allows no one.
 *
 * @since 0.1.0
 * @category predicates
 */
export const allows = (allowlist: ReadonlyArray<string>, address: string | undefined): boolean => {
  if (allowlist.length === 0) return true
  const parsed = address === undefined ? undefined : parseAddress(address)
  if (parsed === undefined) return false
  return allowlist.some((entry) => {
    const block = parse(entry)
    return block !== undefined && contains(block, parsed)
  })
}
