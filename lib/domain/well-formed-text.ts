/**
 * Where a JSON value holds text no database can store as sent: a lone UTF-16 surrogate (JSON
 * allows the escape "\ud800"; SQLite stores it as U+FFFD, so two different inputs become one
 * key, and a hash computed before storing no longer matches what reads back) or the NUL character
 * (PostgreSQL refuses it in text). Such input is refused as malformed naming the field, never
 * stored changed. Object keys are checked too. Returns the path of the first offender, or null.
 */
import { MalformedInputError } from "./errors";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function illFormedTextAt(value: unknown, path: string): { path: string; message: string } | null {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [v, p] = stack.pop()!;
    if (typeof v === "string") {
      const why = whyIllFormed(v);
      if (why) return { path: p, message: why };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${p}.${i}`]);
    } else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        const why = whyIllFormed(k);
        if (why) return { path: `${p}.${k}`, message: `its name ${why}` };
        stack.push([child, `${p}.${k}`]);
      }
    }
  }
  return null;
}

function whyIllFormed(s: string): string | null {
  if (s.includes("\u0000")) return "contains the NUL character (U+0000), which text cannot hold";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate (an escape like \\ud800 without its pair): not text";
  return null;
}

/** The value itself when its text is well formed; else refused as malformed, naming the field. */
export function requireWellFormed<T>(value: T, path = "body"): T {
  const bad = illFormedTextAt(value, path);
  if (bad) throw new MalformedInputError(bad.path, bad.message, { issues: [bad] });
  return value;
}
