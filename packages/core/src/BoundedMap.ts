/**
 * A `Map` that forgets its oldest entry once it holds `limit`: every cache a long-running process
 * keeps (a verifier's proof-config hashes, Merkle pairs and key points; the service's API-key
 * lookups and signed status lists; the server's QR codes) must not grow with everything the
 * process ever saw. Oldest means first written: updating a key keeps its place, and reading
 * does not move it (a miss after an eviction costs one recomputation, never a wrong answer).
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 * @category models
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super()
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`BoundedMap: limit must be a positive integer, got ${limit}`)
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value!)
    return super.set(key, value)
  }
}

/**
 * An empty map of at most `limit` entries.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <K, V>(limit: number): BoundedMap<K, V> => new BoundedMap<K, V>(limit)
