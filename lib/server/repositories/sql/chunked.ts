/**
 * Items in runs of at most `size`: a query that names many keys is several queries, below the
 * databases' parameter limits (SQLite's is 32,766; PostgreSQL's 65,535 — and long IN lists plan badly).
 */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
