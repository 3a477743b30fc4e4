/**
 * A first-in-first-out cache bounded both in entries and in bytes: what answers keep in memory
 * stays bounded whatever they weigh (a 1280 x 1280 static map is ~0.8 MB, a geocode ~1 kB). An
 * entry larger than a quarter of the byte budget is not kept at all.
 */
export function boundedCache<V>(maxEntries: number, maxBytes: number, sizeOf: (value: V) => number) {
  const entries = new Map<string, V>()
  let bytes = 0
  const drop = (key: string) => {
    const value = entries.get(key)
    if (value === undefined) return
    entries.delete(key)
    bytes -= sizeOf(value)
  }
  return {
    get: (key: string) => entries.get(key),
    set(key: string, value: V): void {
      const size = sizeOf(value)
      drop(key)
      if (size > maxBytes / 4) return
      while (entries.size >= maxEntries || bytes + size > maxBytes) {
        const oldest = entries.keys().next().value
        if (oldest === undefined) break // none left
        drop(oldest)
      }
      entries.set(key, value)
      bytes += size
    },
    get size() {
      return entries.size
    },
    /** The bytes held (as `sizeOf` counts them). */
    get bytes() {
      return bytes
    },
  }
}
