import type { ElkNode } from "elkjs/lib/elk-api";
import { SCOPE_NODE_SIZE, type ScopeLayout } from "@/lib/contracts/repair";
import type { Elk } from "./elk-threads";

/** Wider than this, the layers wrap into rows so the graph stays readable in the wizard's column. */
const WRAP_ABOVE = 1100;

/** What the layout reads of a scope: its nodes and the lineage edges between them. */
export interface ScopeGraphShape {
  nodes: readonly { nodeId: string }[];
  edges: readonly { from: string; to: string }[];
}

function scopeGraph(scope: ScopeGraphShape, wrap: boolean): ElkNode {
  return {
    id: "scope",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.spacing.nodeNode": "16",
      "elk.layered.spacing.nodeNodeBetweenLayers": "36",
      "elk.edgeRouting": "POLYLINE",
      ...(wrap ? { "elk.layered.wrapping.strategy": "MULTI_EDGE", "elk.aspectRatio": "2.2" } : {}),
    },
    children: scope.nodes.map((n) => ({ id: n.nodeId, width: SCOPE_NODE_SIZE.width, height: SCOPE_NODE_SIZE.height })),
    edges: scope.edges.map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  };
}

/**
 * An incident's scope graph, left to right, laid out by the same ELK threads as the lineage
 * (the browser runs no ELK). A scope too wide for the wizard's column is laid out again with its
 * layers wrapped into rows.
 */
export async function layoutScope(elk: Elk, scope: ScopeGraphShape): Promise<ScopeLayout> {
  const flat = await elk.layout(scopeGraph(scope, false));
  const laid = (flat.width ?? 0) > WRAP_ABOVE ? await elk.layout(scopeGraph(scope, true)) : flat;
  const positions = Object.fromEntries((laid.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
  return { positions, width: laid.width ?? 0, height: laid.height ?? 0 };
}
