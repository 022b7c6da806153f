import { z } from "zod";

/** One problem with an input, at the path of the field it names ("body.units.2", "events.0.eventTime"). */
export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/** A zod error's issues, each at its field's path under `prefix` (e.g. "body", "query", "events.3"). */
export function fieldIssues(error: z.ZodError, prefix?: string): FieldIssue[] {
  return error.issues.map((i) => ({ path: [...(prefix ? [prefix] : []), ...i.path.map(String)].join(".") || "(the value)", message: i.message }));
}

/** One issue in words: "body.reason: a reason is required (at least 3 characters)". */
export const issueText = (i: FieldIssue): string => `${i.path}: ${i.message}`;

/**
 * Issues in one message, the first `shown` and how many more: a 10,000-line junk body must not
 * answer megabytes of text. Every 4xx that names fields (the API's and the browser's own checks)
 * words them here.
 */
export function describeIssues(issues: readonly FieldIssue[], shown = 20): string {
  return summarise(issues.map(issueText), shown);
}

/** Reasons joined with "; ", the first `shown` and "… and N more". */
export function summarise(reasons: readonly string[], shown = 20): string {
  return reasons.length <= shown ? reasons.join("; ") : `${reasons.slice(0, shown).join("; ")}; … and ${reasons.length - shown} more`;
}
