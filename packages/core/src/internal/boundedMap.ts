/**
 * A `Map` that forgets its oldest entry once it holds `limit`: the caches of pure answers a
 * verifier keeps across the credentials of a batch (proof-config hashes, Merkle pairs, key
 * points), which must not grow with everything a long-running process ever saw.
 *
 * @since 0.1.0
 * @internal
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly limit: number) {
    super()
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value!)
    return super.set(key, value)
  }
}
