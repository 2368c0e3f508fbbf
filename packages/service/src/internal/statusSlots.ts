/**
 * Random slot allocation in a status list's allocation bitmap, shared by every
 * `StatusSlotStore` adapter.
 *
 * @internal
 */

const taken = (bitmap: Uint8Array, index: number): boolean => (bitmap[index >> 3]! & (0x80 >> (index & 7))) !== 0

/** @internal */
export const randomUnit = (): number => crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32

/** @internal */
export const countTaken = (bitmap: Uint8Array, size: number): number => {
  let n = 0
  for (let i = 0; i < size; i++) if (taken(bitmap, i)) n++
  return n
}

/** @internal */
export const pickFree = (
  bitmap: Uint8Array,
  size: number,
  count: number,
  random: () => number = randomUnit
): Array<number> => {
  const want = Math.max(0, count)
  const free = size - countTaken(bitmap, size)
  if (want === 0 || free === 0) return []
  // Sparse: draw and redraw. Dense: list the free slots and shuffle the first `want` of them.
  if (free >= 4 * want) {
    const picked = new Set<number>()
    while (picked.size < want) {
      const i = Math.floor(random() * size)
      if (!taken(bitmap, i)) picked.add(i)
    }
    return [...picked]
  }
  const all: Array<number> = []
  for (let i = 0; i < size; i++) if (!taken(bitmap, i)) all.push(i)
  const n = Math.min(want, all.length)
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (all.length - i))
    const t = all[i]!
    all[i] = all[j]!
    all[j] = t
  }
  return all.slice(0, n)
}

/** Marks the slots taken, in place. @internal */
export const markTaken = (bitmap: Uint8Array, indexes: ReadonlyArray<number>): void => {
  for (const i of indexes) bitmap[i >> 3] = bitmap[i >> 3]! | (0x80 >> (i & 7))
}
