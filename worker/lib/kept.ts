/** The few methods of a Map or WeakMap that `keptIn` needs. */
type Keeper<K, V> = { get(key: K): V | undefined; set(key: K, value: V): unknown };

/**
 * The value kept under `key`, made by `make` the first time it is asked for. One shape for the isolate-lifetime
 * memos (compiled statements, column plans, one drizzle client per binding) and per-call groupings alike.
 */
export function keptIn<K, V>(keeper: Keeper<K, V>, key: K, make: () => V): V {
  const kept = keeper.get(key);
  if (kept !== undefined) return kept;
  const made = make();
  keeper.set(key, made);
  return made;
}
