import type { DbtRunResult, DbtRunResults } from "@/lib/contracts/ingestion-dbt";

export type DbtAttemptStatus = "succeeded" | "failed" | "upstream_failed" | "skipped";

/** One batch of a microbatch model: the instant its window starts, and whether it succeeded. */
export interface DbtBatch {
  start: number;
  ok: boolean;
}

export interface DbtAttemptPlan {
  uniqueId: string;
  status: DbtAttemptStatus;
  /** Microbatch models (dbt 1.9+): one entry per batch, from run_results' batch_results. */
  batches: DbtBatch[] | null;
  error: string | null;
  /** adapter_response.rows_affected when the adapter reports one (views report -1: unknown). */
  rowsWritten: number | null;
  startedAt: number | null;
  endedAt: number | null;
}

export interface DbtRunPlan {
  command: string | null;
  status: "succeeded" | "failed";
  startedAt: number;
  endedAt: number;
  attempts: DbtAttemptPlan[];
}

// "partial success": a microbatch model some of whose batches failed (dbt-core #10751).
const FAILED = new Set(["error", "fail", "runtime error", "partial success"]);
const SUCCEEDED = new Set(["success", "pass", "warn"]);

/**
 * One attempt per node in run_results. dbt reports `skipped` both for a node downstream of a
 * failure and for one it skipped for another reason: a skipped node with a failed ancestor in the
 * same run is upstream_failed (blocked), any other is skipped. Tests: pass → succeeded, fail →
 * failed (with dbt's message, e.g. "Got 6 results, configured to fail if != 0"); warn passes.
 */
export function planDbtRun(results: DbtRunResults, parentsOf: Map<string, Set<string>>): DbtRunPlan {
  const statusOf = new Map(results.results.map((r) => [r.unique_id, r.status]));
  const failedAncestor = (id: string, seen = new Set<string>()): boolean => {
    for (const p of parentsOf.get(id) ?? []) {
      if (seen.has(p)) continue;
      seen.add(p);
      if (FAILED.has(statusOf.get(p) ?? "") || failedAncestor(p, seen)) return true;
    }
    return false;
  };
  const attempts = results.results.map((r) => attemptOf(r, failedAncestor));
  const generated = Date.parse(results.metadata.generated_at);
  const starts = attempts.flatMap((a) => (a.startedAt === null ? [] : [a.startedAt]));
  const ends = attempts.flatMap((a) => (a.endedAt === null ? [] : [a.endedAt]));
  return {
    command: results.args?.which ?? null,
    status: attempts.some((a) => a.status === "failed") ? "failed" : "succeeded",
    startedAt: starts.length > 0 ? Math.min(...starts) : generated - Math.round((results.elapsed_time ?? 0) * 1000),
    endedAt: ends.length > 0 ? Math.max(...ends, generated) : generated,
    attempts,
  };
}

function attemptOf(r: DbtRunResult, failedAncestor: (id: string) => boolean): DbtAttemptPlan {
  const execute = r.timing?.find((t) => t.name === "execute");
  const status: DbtAttemptStatus = FAILED.has(r.status)
    ? "failed"
    : SUCCEEDED.has(r.status)
      ? "succeeded"
      : failedAncestor(r.unique_id)
        ? "upstream_failed"
        : "skipped";
  const rows = r.adapter_response?.rows_affected;
  const batches = batchesOf(r);
  return {
    uniqueId: r.unique_id,
    status,
    batches,
    error: status === "failed" ? (r.message ?? `dbt status ${r.status}`) : null,
    rowsWritten: typeof rows === "number" && Number.isInteger(rows) && rows >= 0 ? rows : null,
    startedAt: instant(execute?.started_at),
    endedAt: instant(execute?.completed_at),
  };
}

function batchesOf(r: DbtRunResult): DbtBatch[] | null {
  const b = r.batch_results;
  if (!b) return null;
  const list = [...(b.successful ?? []).map(([s]) => ({ start: instant(s), ok: true })), ...(b.failed ?? []).map(([s]) => ({ start: instant(s), ok: false }))];
  const valid = list.filter((x): x is DbtBatch => x.start !== null).sort((x, y) => x.start - y.start);
  return valid.length > 0 ? valid : null;
}

const instant = (s: string | null | undefined): number | null => {
  if (!s) return null;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(ms) ? null : ms;
};
