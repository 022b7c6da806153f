const RULES: [category: string, pattern: RegExp][] = [
  ["connection", /connection|too many connections|session|refused|reset by peer|closed the connection/i],
  ["throttling", /\b(429|503)\b|slow ?down|rate limit|throttl/i],
  ["timeout", /time(d)? ?out|deadline exceeded/i],
  ["schema", /schema|column|type mismatch|cannot cast|parse/i],
  ["data quality", /duplicate|constraint|null value|invalid|reconcil/i],
  ["resources", /out of memory|oom|disk|quota|no space/i],
  ["permissions", /permission|denied|unauthori[sz]ed|forbidden|credential/i],
];

/** A failure category from an attempt's error text, for the repeat-offenders chart. */
export function categoriseFailure(error: string | null): string {
  if (!error) return "unknown";
  for (const [category, pattern] of RULES) if (pattern.test(error)) return category;
  return "other";
}
