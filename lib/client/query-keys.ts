import type { CompletenessQuery } from "@/lib/contracts/completeness";
import type { MatrixFilters } from "./api-urls";
import type { HistoryFilters } from "./use-history";
import type { ClosureSelection } from "./use-lineage";

/**
 * Every query key the console's screens read, one factory per feature. Each feature's keys start
 * with its `all`, so invalidating `all` reaches every query of that feature (a mutation that owns
 * its invalidations names a feature, never a key spelled again by hand: incident-actions.ts).
 * A query waiting for its input (no selection yet) is keyed by the feature's `idle`, never run.
 */

export const incidentKeys = {
  all: ["incidents"] as const,
  list: (filters: Record<string, string>) => [...incidentKeys.all, "list", filters] as const,
  detail: (id: string) => [...incidentKeys.all, "detail", id] as const,
  step: (id: string, step: string, extra?: unknown) => [...incidentKeys.all, "step", id, step, extra ?? null] as const,
  rootCause: (taskNodeId: string, units: string) => [...incidentKeys.all, "root-cause", taskNodeId, units] as const,
};

export const auditKeys = {
  all: ["audit"] as const,
  list: (filters: Record<string, string>) => [...auditKeys.all, "list", filters] as const,
  verify: () => [...auditKeys.all, "verify"] as const,
};

export const lineageKeys = {
  all: ["lineage"] as const,
  graph: (asOf: string) => [...lineageKeys.all, "graph", asOf] as const,
  layout: (asOf: string, collapsed: readonly string[]) => [...lineageKeys.all, "layout", asOf, [...collapsed].sort()] as const,
  failures: () => [...lineageKeys.all, "failures"] as const,
  closure: (s: ClosureSelection) => [...lineageKeys.all, "closure", s.nodeId, s.units, s.direction, s.asOf] as const,
  holdings: (s: ClosureSelection) => [...lineageKeys.all, "holdings", s.nodeId, s.units, s.direction, s.asOf] as const,
  closureLayout: (s: ClosureSelection, aspect: number) => [...lineageKeys.all, "closure-layout", s.nodeId, s.units, s.direction, s.asOf, aspect] as const,
  people: (s: ClosureSelection) => [...lineageKeys.all, "people", s.nodeId, s.units, s.direction, s.asOf] as const,
  nodePeople: (nodeId: string) => [...lineageKeys.all, "node-people", nodeId] as const,
  idle: (what: "closure" | "holdings" | "closure-layout" | "people") => [...lineageKeys.all, what, "idle"] as const,
};

export const unitKeys = {
  all: ["units"] as const,
  matrix: (f: MatrixFilters) => [...unitKeys.all, "matrix", f] as const,
  detail: (dataset: string, unit: string) => [...unitKeys.all, "detail", dataset, unit] as const,
};

export const completenessKeys = {
  all: ["completeness"] as const,
  datasets: () => [...completenessKeys.all, "datasets"] as const,
  status: (dataset: string) => [...completenessKeys.all, "status", dataset] as const,
  pipelineStatus: (pipeline: string) => [...completenessKeys.all, "pipeline-status", pipeline] as const,
  certificate: (q: CompletenessQuery) => [...completenessKeys.all, "certificate", q.dataset, q.from ?? "", q.to ?? ""] as const,
  idle: () => [...completenessKeys.all, "idle"] as const,
};

export const historyKeys = {
  all: ["history"] as const,
  list: (f: HistoryFilters) => [...historyKeys.all, f] as const,
};

export const overviewKeys = { all: ["overview"] as const };
export const alertsKeys = { all: ["alerts"] as const };
export const ingestionKeys = { all: ["ingestion"] as const, status: () => [...ingestionKeys.all, "status"] as const };
export const accessKeys = {
  all: ["access"] as const,
  users: () => [...accessKeys.all, "users"] as const,
  tokens: () => [...accessKeys.all, "tokens"] as const,
};
export const meKeys = { all: ["auth"] as const, me: () => [...meKeys.all, "me"] as const };
