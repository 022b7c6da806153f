/**
 * A bounded map of in-flight or settled computations, most recently used last: `remember`
 * returns the kept promise for `key` (and marks it used), or starts `compute`, keeps it, and
 * drops the least recently used entry beyond `max`. A computation that fails is forgotten, so
 * the next ask tries again; concurrent asks for one key share one computation.
 */
export function remember<T>(cache: Map<string, Promise<T>>, key: string, max: number, compute: () => Promise<T>): Promise<T> {
  const kept = cache.get(key);
  if (kept) {
    cache.delete(key);
    cache.set(key, kept);
    return kept;
  }
  const computing = compute();
  cache.set(key, computing);
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  computing.catch(() => cache.get(key) === computing && cache.delete(key));
  return computing;
}
