/** The first 20 reasons, and how many more: a 10,000-line junk body must not answer megabytes of text. */
export function summarise(reasons: string[], shown = 20): string {
  return reasons.length <= shown ? reasons.join("; ") : `${reasons.slice(0, shown).join("; ")}; … and ${reasons.length - shown} more`;
}
