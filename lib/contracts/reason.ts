import { z } from "zod";

/**
 * Why a person changes something: every change of state the API takes names its reason, and the
 * audit log keeps it. One rule everywhere (at least 3 characters once trimmed, at most 2,000), so
 * the UI's buttons enable exactly when the server would accept.
 */
export const REASON_MIN = 3;
export const REASON_MAX = 2000;
export const reasonField = z
  .string({ message: "a reason is required" })
  .trim()
  .min(REASON_MIN, `a reason is required (at least ${REASON_MIN} characters)`)
  .max(REASON_MAX, `a reason is at most ${REASON_MAX} characters`);
export const ReasonBodySchema = z.object({ reason: reasonField });
export type ReasonBody = z.infer<typeof ReasonBodySchema>;

/** The reason field's problem in words, or null when the server would accept it (for a form's hint and its button). */
export function reasonProblem(text: string): string | null {
  const parsed = reasonField.safeParse(text);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "invalid reason");
}
