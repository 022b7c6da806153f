import type { ElkNode } from "elkjs/lib/elk-api";
import { SCOPE_NODE_SIZE, type ScopeLayout } from "@/lib/contracts/repair";
import type { Elk } from "./elk-threads";

/** What the layout reads of a scope (or any part of the lineage drawn alone): its nodes and the lineage edges between them. */
export interface ScopeGraphShape {
  nodes: readonly { nodeId: string }[];
  edges: readonly { from: string; to: string }[];
}

/** How a part of the lineage drawn on its own is laid out: its nodes' size, and when and how its layers wrap. */
export interface SubgraphLayoutOptions {
  nodeSize: { readonly width: number; readonly height: number };
  /** Whether the layout, laid out flat, is too wide for where it is shown. */
  tooWide: (flat: { width: number; height: number }) => boolean;
  /** The width/height ratio the wrapped layers aim at. */
  aspectRatio: number;
}

/** Wider than 1100 px, a scope's layers wrap into rows so the graph stays readable in the wizard's column. */
const SCOPE_OPTIONS: SubgraphLayoutOptions = { nodeSize: SCOPE_NODE_SIZE, tooWide: (flat) => flat.width > 1100, aspectRatio: 2.2 };

function scopeGraph(scope: ScopeGraphShape, options: SubgraphLayoutOptions, wrap: boolean): ElkNode {
  return {
    id: "scope",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "RIGHT",
      "elk.spacing.nodeNode": "16",
      "elk.layered.spacing.nodeNodeBetweenLayers": "36",
      "elk.edgeRouting": "POLYLINE",
      ...(wrap ? { "elk.layered.wrapping.strategy": "MULTI_EDGE", "elk.aspectRatio": String(options.aspectRatio) } : {}),
    },
    children: scope.nodes.map((n) => ({ id: n.nodeId, width: options.nodeSize.width, height: options.nodeSize.height })),
    edges: scope.edges.map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  };
}

/**
 * An incident's scope graph — or a closure drawn alone on /lineage — left to right, laid out by
 * the same ELK threads as the lineage (the browser runs no ELK). One too wide for where it is
 * shown is laid out again with its layers wrapped into rows.
 */
export async function layoutScope(elk: Elk, scope: ScopeGraphShape, options: SubgraphLayoutOptions = SCOPE_OPTIONS): Promise<ScopeLayout> {
  const flat = await elk.layout(scopeGraph(scope, options, false));
  const size = { width: flat.width ?? 0, height: flat.height ?? 0 };
  const laid = options.tooWide(size) ? await elk.layout(scopeGraph(scope, options, true)) : flat;
  const positions = Object.fromEntries((laid.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
  return { positions, width: laid.width ?? 0, height: laid.height ?? 0 };
}
