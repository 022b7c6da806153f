import { compositeKey } from "@/lib/domain/composite-key";

/**
 * Lineage versioned in time, one task at a time: rows are change points, so a closure for a
 * past run sees the edges of that time (PRODUCT.md). Pure; the caller loads and stores rows.
 */
export interface EdgeRow {
  id: string | null;
  taskId: string;
  datasetId: string;
  direction: "read" | "write";
  mapping: string;
  mappingParams: string;
  validFrom: number;
  validTo: number | null;
  observedRunId: string | null;
  changed?: boolean;
}

export interface RunLineage {
  runId: string;
  taskId: string;
  at: number;
  edges: { datasetId: string; direction: "read" | "write" }[];
  /** A completed run says what the task reads and writes now; others can only add what they saw. */
  authoritative: boolean;
}

const keyOf = (e: { datasetId: string; direction: string }) => compositeKey(e.direction, e.datasetId);

/**
 * Applies one run's observed edges. A run with no inputs and no outputs changes nothing:
 * producers omit them when they cannot extract them, which is not evidence the edges ended.
 * The newest completed run replaces the current edge set (edges it lacks end at its start);
 * any other run — older (arrived late) or not complete — only fills in edges missing at its
 * time, up to the next known change, so arrival order does not change the history.
 */
export function applyRunLineage(rows: EdgeRow[], observed: RunLineage): void {
  if (observed.edges.length === 0) return;
  // A producer may list one dataset twice (Spark lists an input per scan): one edge each way.
  const run = { ...observed, edges: [...new Map(observed.edges.map((e) => [keyOf(e), e])).values()] };
  const latest = rows.reduce((m, r) => Math.max(m, r.validFrom, r.validTo ?? r.validFrom), Number.NEGATIVE_INFINITY);
  if (run.authoritative && run.at >= latest) replaceCurrent(rows, run);
  else fillGaps(rows, run);
}

function replaceCurrent(rows: EdgeRow[], run: RunLineage): void {
  const wanted = new Set(run.edges.map(keyOf));
  const current = new Set<string>();
  for (const r of rows) {
    if (r.validTo !== null) continue;
    if (wanted.has(keyOf(r))) current.add(keyOf(r));
    else if (r.validFrom < run.at) {
      r.validTo = run.at;
      r.changed = true;
    }
  }
  for (const e of run.edges) if (!current.has(keyOf(e))) rows.push(newRow(rows, run, e, null));
}

function fillGaps(rows: EdgeRow[], run: RunLineage): void {
  for (const e of run.edges) {
    const same = rows.filter((r) => keyOf(r) === keyOf(e));
    if (same.some((r) => r.validFrom <= run.at && (r.validTo === null || r.validTo > run.at))) continue;
    const next = nextChangeAfter(rows, run.at);
    const adjoining = next === null ? undefined : same.find((r) => r.validFrom === next);
    if (adjoining) {
      adjoining.validFrom = run.at;
      adjoining.observedRunId = run.runId;
      adjoining.changed = true;
    } else rows.push(newRow(rows, run, e, next));
  }
}

function nextChangeAfter(rows: EdgeRow[], at: number): number | null {
  let next: number | null = null;
  for (const r of rows) {
    for (const t of [r.validFrom, r.validTo]) if (t !== null && t > at && (next === null || t < next)) next = t;
  }
  return next;
}

/** A new version of an edge keeps the mapping an operator or importer configured on the previous one. */
function newRow(rows: EdgeRow[], run: RunLineage, e: RunLineage["edges"][number], validTo: number | null): EdgeRow {
  const previous = rows.filter((r) => keyOf(r) === keyOf(e)).sort((a, b) => b.validFrom - a.validFrom)[0];
  return {
    id: null,
    taskId: run.taskId,
    datasetId: e.datasetId,
    direction: e.direction,
    mapping: previous?.mapping ?? "identity",
    mappingParams: previous?.mappingParams ?? "{}",
    validFrom: run.at,
    validTo,
    observedRunId: run.runId,
    changed: true,
  };
}
