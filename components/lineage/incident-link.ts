import type { Closure, LineageGraphView } from "@/lib/contracts/lineage";
import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";

/**
 * The link that opens an incident for the selection (app/incidents/new, prefilled): the selected
 * task — or, for a selected dataset, the task that writes it — and the selection's units as key
 * ranges (`2026-08-17`, `2026-08-01..2026-08-07`; an unpartitioned node's one unit is `*`). Null when no task writes the selection (a source
 * has nothing in the catalog to re-run) or the closure is of another selection.
 */
export function incidentHref(selected: string, closure: Closure, graph: Pick<LineageGraphView, "edges">): string | null {
  const seed = closure.nodes.find((n) => n.seed && n.nodeId === selected);
  if (!seed) return null;
  const task = seed.kind === "task" ? seed.nodeId : graph.edges.find((e) => e.kind === "writes" && e.target === seed.nodeId)?.source;
  if (!task) return null;
  const units = seed.units === null ? UNPARTITIONED_KEY : seed.units.map(([from, to]) => (from === to ? from : `${from}..${to}`)).join(",");
  return `/incidents/new?${new URLSearchParams({ node: task, units })}`;
}
