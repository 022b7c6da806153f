import type { MatrixState } from "@/lib/contracts/units";

/**
 * The addresses of the pages' first requests, shared by the client hooks and the pages' server
 * components, which ask the browser to preload them while the page's scripts load: a preload is
 * only used when its URL is exactly the one the hook then fetches.
 */
export const LINEAGE_GRAPH_PATH = "/api/v1/lineage-graph";

/** The graph's compact form (lib/contracts/compact-lineage-graph.ts): a 50,000-node lineage is 35 MB written out. */
export function lineageGraphUrl(asOf: string): string {
  return `${LINEAGE_GRAPH_PATH}?${new URLSearchParams(asOf ? { asOf, form: "compact" } : { form: "compact" })}`;
}

export function lineageLayoutUrl(asOf: string, collapsed: readonly string[]): string {
  const params = new URLSearchParams();
  if (asOf) params.set("asOf", asOf);
  const key = [...collapsed].sort().join(",");
  if (key) params.set("collapsed", key);
  return `${LINEAGE_GRAPH_PATH}/layout${params.size ? `?${params}` : ""}`;
}

export interface MatrixFilters {
  pipeline?: string;
  dataset?: string;
  states?: MatrixState[];
  from?: string;
  to?: string;
}

/** The page's matrix: rows in runs (lib/contracts/cell-runs.ts), a tenth of the cells' bytes on a large world. */
export function matrixUrl(f: MatrixFilters): string {
  const q = new URLSearchParams();
  if (f.pipeline) q.set("pipeline", f.pipeline);
  if (f.dataset) q.set("dataset", f.dataset);
  if (f.states?.length) q.set("states", f.states.join(","));
  if (f.from) q.set("from", f.from);
  if (f.to) q.set("to", f.to);
  q.set("cells", "runs");
  return `/api/v1/units/matrix?${q}`;
}
