/**
 * One key for a tuple of strings, for Maps and Sets. JSON's quoting makes it unambiguous whatever
 * the parts hold (a producer's names may contain any separator character):
 *   compositeKey("job:a:b", "2026-08-17") === '["job:a:b","2026-08-17"]'
 */
export function compositeKey(...parts: readonly string[]): string {
  return JSON.stringify(parts);
}

/** The parts of a key compositeKey made (for showing them, or a pair's two ends). */
export function partsOf(key: string): string[] {
  return JSON.parse(key) as string[];
}
