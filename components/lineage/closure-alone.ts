import type { ClosureLayout, LineageGraphView, LineageLayoutResult } from "@/lib/contracts/lineage";

/**
 * A closure drawn on its own: the graph's nodes the closure layout places and the edges between
 * them, and a layout with no pipeline boxes (the closure's nodes come from several pipelines; a
 * node's accessible name and the closure table still name its pipeline). Nodes the graph does not
 * hold (the catalog changed between the two answers) are left out until both are asked again.
 */
export function closureAlone(graph: LineageGraphView, layout: ClosureLayout): { graph: LineageGraphView; layout: LineageLayoutResult } {
  const nodes = graph.nodes.filter((n) => layout.positions[n.id] !== undefined);
  const shown = new Set(nodes.map((n) => n.id));
  const edges = graph.edges.filter((e) => shown.has(e.source) && shown.has(e.target));
  const positions = Object.fromEntries(nodes.map((n) => [n.id, layout.positions[n.id]!]));
  return { graph: { ...graph, nodes, edges }, layout: { groups: [], positions } };
}
