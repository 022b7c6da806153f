/**
 * Which pairs of a repair must wait because a pair they read failed: the downstream closure of
 * the failed pairs, through the lineage's partition mappings (and a sequential task's own next
 * units). An orchestrator Reparo dispatches to runs exactly what it is sent, so the repair run
 * holds back these pairs itself — and only these: a branch that does not read the failure goes on.
 *
 *   stg_orders[08-17] failed → fct_orders[08-17], revenue_daily[08-17], running_balance[08-17…]
 *   wait; fct_orders[08-23] does not.
 */
import { closure, type Seed } from "./closure";
import type { NodeId } from "./ids";
import type { LineageGraph } from "./lineage-graph";
import { UnitSet } from "./unit-set";

export function readsAFailure(
  graph: LineageGraph,
  failed: readonly { readonly taskNodeId: string; readonly unitKey: string }[],
): (taskNodeId: string, unitKey: string) => boolean {
  const byNode = new Map<number, number[]>();
  for (const f of failed) {
    const i = graph.index.get(f.taskNodeId as NodeId);
    if (i === undefined) continue;
    const v = graph.nodes[i]!.space.validate(f.unitKey);
    if (v.valid) byNode.set(i, [...(byNode.get(i) ?? []), v.ordinal]);
  }
  if (byNode.size === 0) return () => false;
  const seeds: Seed[] = [...byNode].map(([i, ordinals]) => ({ node: graph.nodes[i]!.id, units: UnitSet.fromOrdinals(ordinals) }));
  const reached = closure(graph, seeds, "downstream").entries;
  return (taskNodeId, unitKey) => {
    const entry = reached.get(taskNodeId as NodeId);
    const i = graph.index.get(taskNodeId as NodeId);
    if (!entry || i === undefined) return false;
    const v = graph.nodes[i]!.space.validate(unitKey);
    return v.valid && entry.units.contains(v.ordinal);
  };
}
