import { MarkerType, Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import { LINEAGE_NODE_SIZE, type LineageGraphView, type LineageLayoutResult, type LineageNode } from "@/lib/contracts/lineage";
import { groupId } from "./framing";
import type { PipelineGroupData } from "./PipelineGroupNode";

export interface LineageEdgeData extends Record<string, unknown> {
  mapping: string;
  labelled: boolean;
  status: LineageGraphView["edges"][number]["status"];
  note: string;
}

const LABEL_ALL_EDGES_UP_TO = 2_000;

/**
 * Size and handles known up front. React Flow mounts every node it has no handle bounds for, to
 * measure it, even with onlyRenderVisibleElements: at 10,000 nodes that first mount (and the
 * unmount of all but the ~40 in view) was most of the seconds between the layout and the paint.
 * Mounted nodes are still measured by React Flow; these are the same numbers (NodeShell's fixed
 * size, the default 6 px handles centred on the left and right sides).
 */
const HANDLE = 6;
function sideHandles(width: number, height: number): NodeHandle[] {
  const y = height / 2 - HANDLE / 2;
  return [
    { type: "target", position: Position.Left, x: -HANDLE / 2, y, width: HANDLE, height: HANDLE },
    { type: "source", position: Position.Right, x: width - HANDLE / 2, y, width: HANDLE, height: HANDLE },
  ];
}
const NODE_HANDLES = sideHandles(LINEAGE_NODE_SIZE.width, LINEAGE_NODE_SIZE.height);

const TYPE_OF_ROLE: Record<LineageNode["role"], string> = {
  task: "task",
  dataset: "dataset",
  dashboard: "consumer",
  export: "consumer",
  model: "consumer",
  consumer: "consumer",
};

/**
 * React Flow elements from the graph and its layout: pipeline boxes as parents, nodes inside
 * them (hidden when the pipeline is collapsed, their edges re-attached to the box); or, for a
 * closure laid out alone (closure-alone.ts), the nodes without boxes. Built once
 * per layout; the closure highlight never rebuilds them (highlight-store.ts).
 */
export function flowElements(graph: LineageGraphView, layout: LineageLayoutResult): { nodes: Node[]; edges: Edge[] } {
  const collapsed = new Set(layout.groups.filter((g) => g.collapsed).map((g) => g.pipeline));
  const nodes: Node[] = layout.groups.map((g) => ({
    id: groupId(g.pipeline),
    type: "pipeline",
    position: { x: g.x, y: g.y },
    width: g.width,
    height: g.height,
    measured: { width: g.width, height: g.height },
    handles: g.collapsed ? sideHandles(g.width, g.height) : [],
    data: { pipeline: g.pipeline, collapsed: g.collapsed, nodeCount: g.nodeCount } satisfies PipelineGroupData,
    selectable: false,
    focusable: false,
    zIndex: -1,
  }));
  const boxed = new Set(layout.groups.map((g) => g.pipeline));
  const pipelineOf = new Map<string, string>();
  for (const n of graph.nodes) {
    pipelineOf.set(n.id, n.pipeline);
    if (collapsed.has(n.pipeline)) continue;
    const at = layout.positions[n.id];
    if (!at) continue;
    nodes.push({
      id: n.id,
      type: TYPE_OF_ROLE[n.role],
      position: at,
      // A closure laid out alone has no pipeline boxes: its positions are the canvas's own.
      ...(boxed.has(n.pipeline) ? { parentId: groupId(n.pipeline), extent: "parent" as const } : {}),
      ...LINEAGE_NODE_SIZE,
      measured: LINEAGE_NODE_SIZE,
      handles: NODE_HANDLES,
      data: { node: n },
      ariaLabel: `${n.kind} ${n.name} in ${n.pipeline}`,
    });
  }
  const endOf = (id: string) => (collapsed.has(pipelineOf.get(id) ?? "") ? groupId(pipelineOf.get(id)!) : id);
  // Mapping labels on every edge of a small lineage; on a big one only along a shown closure.
  const labelled = graph.edges.length <= LABEL_ALL_EDGES_UP_TO;
  const seen = new Set<string>();
  const edges: Edge[] = [];
  for (const e of graph.edges) {
    const [source, target] = [endOf(e.source), endOf(e.target)];
    const id = `${source}->${target}`;
    if (source === target || seen.has(id)) continue;
    seen.add(id);
    const data: LineageEdgeData = { mapping: e.mapping, labelled, status: e.status, note: e.note };
    edges.push({ id, source, target, type: "lineage", data, markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14 }, focusable: false });
  }
  return { nodes, edges };
}
