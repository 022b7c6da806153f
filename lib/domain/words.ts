/**
 * A count with its noun in the right number: `counted(1, "unit")` is "1 unit", `counted(3, "unit")`
 * "3 units", `counted(2, "copy", "copies")` "2 copies". Every sentence the console builds around a
 * count goes through it, so no screen says "1 units" or "unit(s)".
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : plural}`;
}

/** "a" or "an" before a word, by its first letter's sound as far as spelling tells ("an ingestion request"). */
export function article(word: string): "a" | "an" {
  return (/^[aeiou]/i.test(word) && !/^(uni|use|eu|one)/i.test(word)) || /^hour/i.test(word) ? "an" : "a";
}
