/**
 * What an isolate keeps between requests (README "Speed": home lists, shared chat pages, session claims). One shape
 * for all three: entries are stamped when stored, read back only while younger than the caller's time to live, and
 * the least recently stored go first while the cache is over its bounds (an entry count, and optionally a total
 * weight such as characters of kept text).
 */
export class IsolateCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number; weight: number }>();
  private totalWeight = 0;

  constructor(private readonly bounds: { maxEntries: number; maxWeight?: number; weigh?: (value: V) => number }) {}

  /** The value stored under `key` less than `ttlMs` ago; an older one is dropped. */
  get(key: K, now: number, ttlMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at < ttlMs) return entry.value;
    this.drop(key);
    return undefined;
  }

  /** Stores `value` as the newest entry, then lets the oldest go while over either bound. */
  set(key: K, value: V, now: number): void {
    this.drop(key);
    const weight = this.bounds.weigh?.(value) ?? 0;
    this.entries.set(key, { value, at: now, weight });
    this.totalWeight += weight;
    const maxWeight = this.bounds.maxWeight ?? Number.POSITIVE_INFINITY;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.bounds.maxEntries && this.totalWeight <= maxWeight) break;
      this.drop(oldest);
    }
  }

  /** Forgets `key`, or only when it still holds `value` (a failed read must not drop a newer one). */
  delete(key: K, value?: V): void {
    if (value === undefined || this.entries.get(key)?.value === value) this.drop(key);
  }

  /** Drops every entry at least `ttlMs` old. */
  sweep(now: number, ttlMs: number): void {
    for (const [key, entry] of this.entries) if (now - entry.at >= ttlMs) this.drop(key);
  }

  get size() {
    return this.entries.size;
  }

  get weight() {
    return this.totalWeight;
  }

  private drop(key: K) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }
}

/** A time to live set in seconds by an env var, in ms; 0 or nonsense means "read on every call" (the API tests). */
export function ttlMsFromEnv(value: string | undefined, defaultSeconds: number): number {
  const seconds = Number(value ?? defaultSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}
