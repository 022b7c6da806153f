import { NextResponse } from "next/server";
import { describeIssues, summarise } from "@/lib/contracts/field-issues";
import type { FieldIssue } from "@/lib/contracts/openlineage";
import type { Problem } from "@/lib/domain/errors";
import type { IngestionKind, IngestionOutcomeOf } from "../ingestion/ingestion-handlers";
import { httpOfProblem } from "./route";

/**
 * How each ingestion endpoint answers its use case's outcome (ingestion-outcome.ts) — the one
 * table of their statuses. Every item in: 200. Some refused: 207, but 200 on the OpenLineage batch
 * API, whose body says partial_success. None in: the refusal's problem, answered with route()'s
 * status and code for it (400 invalid_request when an item was malformed, 422 unprocessable when
 * well-formed items were refused by the rules); OpenLineage's endpoints answer 400 either way.
 */
const ANSWERS: Record<IngestionKind, { partly: 200 | 207; none: Record<"malformed" | "refused", Problem> }> = {
  lineage: { partly: 207, none: { malformed: "invalid", refused: "invalid" } },
  "lineage-batch": { partly: 200, none: { malformed: "invalid", refused: "invalid" } },
  publishes: { partly: 207, none: { malformed: "invalid", refused: "refused" } },
  "source-counts": { partly: 207, none: { malformed: "invalid", refused: "refused" } },
  "warehouse-counts": { partly: 207, none: { malformed: "invalid", refused: "refused" } },
};

/** An ingestion outcome as the producer receives it: the result, and when nothing went in, the error and why beside it. */
export function ingestionResponse<K extends IngestionKind>(kind: K, outcome: IngestionOutcomeOf<K>): Response {
  if (outcome.kind === "accepted") return NextResponse.json(outcome.result, { status: 200 });
  if (outcome.kind === "partly_accepted") return NextResponse.json(outcome.result, { status: ANSWERS[kind].partly });
  const { status, code } = httpOfProblem(ANSWERS[kind].none[outcome.why]);
  return NextResponse.json({ error: code, ...refusalOf(outcome.result), ...outcome.result }, { status });
}

type RefusedResult = { failed_events: { reason: string }[] } | { rejected: { issues: FieldIssue[] }[] };

/** Why nothing went in, in words: the OpenLineage batch API's reasons, else the refused items' issues (also listed in `details`). */
function refusalOf(result: RefusedResult): { message: string; details?: { issues: FieldIssue[] } } {
  if ("failed_events" in result) return { message: summarise(result.failed_events.map((f) => f.reason)) };
  const issues = result.rejected.flatMap((r) => r.issues);
  return { message: describeIssues(issues), details: { issues } };
}
