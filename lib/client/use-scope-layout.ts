"use client";

import { useQuery } from "@tanstack/react-query";
import ELK from "elkjs/lib/elk.bundled.js";
import type { ElkNode } from "elkjs/lib/elk-api";
import type { ScopeView } from "@/lib/contracts/repair";

export const SCOPE_NODE_WIDTH = 180;
export const SCOPE_NODE_HEIGHT = 72;
/** Wider than this, the layers wrap into rows so the graph stays readable in the wizard's column. */
const WRAP_ABOVE = 1100;

export interface ScopeLayout {
  positions: Record<string, { x: number; y: number }>;
  width: number;
  height: number;
}

// One ELK for the page: the scope graph is ~15–30 nodes, small enough for the main thread.
let elk: InstanceType<typeof ELK> | null = null;

/** Left-to-right layered layout of the scope graph, cached per node and edge list. */
export function useScopeLayout(scope: Pick<ScopeView, "nodes" | "edges">) {
  const ids = scope.nodes.map((n) => n.nodeId);
  const edges = scope.edges.map((e) => `${e.from}>${e.to}`);
  return useQuery({
    queryKey: ["scope-layout", ids, edges],
    staleTime: Infinity,
    queryFn: async (): Promise<ScopeLayout> => {
      elk ??= new ELK();
      const graph = (wrap: boolean): ElkNode => ({
        id: "scope",
        layoutOptions: {
          "elk.algorithm": "layered",
          "elk.direction": "RIGHT",
          "elk.spacing.nodeNode": "16",
          "elk.layered.spacing.nodeNodeBetweenLayers": "36",
          "elk.edgeRouting": "POLYLINE",
          ...(wrap ? { "elk.layered.wrapping.strategy": "MULTI_EDGE", "elk.aspectRatio": "2.2" } : {}),
        },
        children: ids.map((id) => ({ id, width: SCOPE_NODE_WIDTH, height: SCOPE_NODE_HEIGHT })),
        edges: scope.edges.map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
      });
      const flat = await elk.layout(graph(false));
      const laid = (flat.width ?? 0) > WRAP_ABOVE ? await elk.layout(graph(true)) : flat;
      const positions = Object.fromEntries((laid.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
      return { positions, width: laid.width ?? 0, height: laid.height ?? 0 };
    },
  });
}
