"use client";

import { memo, useEffect, useMemo } from "react";
import { Background, Controls, MiniMap, ReactFlow, type Node, type NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import type { LineageGraphView, LineageLayoutResult } from "@/lib/contracts/lineage";
import { ConsumerNode } from "./ConsumerNode";
import { DatasetNode } from "./DatasetNode";
import { flowElements } from "./flow-elements";
import { LEGIBLE_ZOOM, MINIMAP_UP_TO } from "./framing";
import { LineageEdge } from "./LineageEdge";
import { PipelineGroupNode } from "./PipelineGroupNode";
import { TaskNode } from "./TaskNode";
import styles from "./Lineage.module.css";

const nodeTypes = { task: TaskNode, dataset: DatasetNode, consumer: ConsumerNode, pipeline: PipelineGroupNode };
const edgeTypes = { lineage: LineageEdge };

const MINIMAP_COLOR: Record<string, string> = { task: "#475569", dataset: "#94a3b8", consumer: "#0d9488", pipeline: "transparent" };
const minimapColor = (n: Node) => MINIMAP_COLOR[n.type ?? ""] ?? "#94a3b8";

/**
 * React Flow's minimap draws one subscribed component per node: 10,000 of them cost seconds on
 * the first paint. Above this size the pipeline boxes at the fitted zoom are the overview.
 */
/** Above this size the lineage opens on its first pipeline before it is framed (FrameView). */
const BIG_FROM = 3_000;
/**
 * Up to this size every node is mounted, in view or not: keyboard focus and the closure's nodes
 * reach the ones the legible framing leaves outside. Above it only the visible ones (at 10,000
 * nodes mounting them all took seconds).
 */
const MOUNT_ALL_UP_TO = 1_000;

interface Props {
  graph: LineageGraphView;
  layout: LineageLayoutResult;
  /** A closure laid out alone: legible whole, so no minimap over its corner. */
  alone: boolean;
  closureActive: boolean;
  onSelect: (nodeId: string) => void;
}

/**
 * The graph itself: memoised elements, only visible elements rendered, minimap and controls.
 * Memoised as a whole: a selection re-renders the page around it, and the highlight reaches the
 * nodes through the highlight store, not through these props.
 */
export const LineageCanvas = memo(function LineageCanvas({ graph, layout, alone, closureActive, onSelect }: Props) {
  const { nodes, edges } = useMemo(() => flowElements(graph, layout), [graph, layout]);
  const start = useMemo(() => startViewport(layout), [layout]);
  useEffect(() => {
    // After React committed the elements, the next frame paints them: the end of "lay out and paint".
    const frame = requestAnimationFrame(() => setTimeout(() => performance.mark("reparo:layout-done"), 0));
    return () => cancelAnimationFrame(frame);
  }, [nodes]);
  const onNodeClick: NodeMouseHandler = (_, node) => {
    if (node.type !== "pipeline") onSelect(node.id);
  };
  return (
    <div className={styles.canvas} data-testid="lineage-canvas" data-closure-active={closureActive ? "true" : "false"}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={onNodeClick}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        onlyRenderVisibleElements={nodes.length > MOUNT_ALL_UP_TO}
        defaultViewport={start}
        minZoom={0.02}
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
        onKeyDown={(e) => {
          const id = (e.target as HTMLElement).closest(".react-flow__node")?.getAttribute("data-id");
          if ((e.key === "Enter" || e.key === " ") && id && !id.startsWith("pipeline:")) {
            e.preventDefault();
            onSelect(id);
          }
        }}
      >
        <Background gap={24} />
        {nodes.length <= MINIMAP_UP_TO && !alone ? <MiniMap pannable zoomable nodeColor={minimapColor} ariaLabel="Minimap of the lineage" /> : null}
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
});

/**
 * Where the canvas stands before FrameView frames what matters (a frame later). A big lineage
 * must not open at React Flow's default view, where thousands of nodes would be mounted and
 * painted for one frame (measured: ~4 s at 10,000 nodes): it starts, legible, on its first
 * pipeline. A small one starts at the legible zoom on its corner.
 */
function startViewport(layout: LineageLayoutResult) {
  const first = Object.keys(layout.positions).length > BIG_FROM ? [...layout.groups].sort((a, b) => a.x - b.x || a.y - b.y)[0] : undefined;
  const at = first ?? { x: 0, y: 0 };
  return { x: 24 - at.x * LEGIBLE_ZOOM, y: 24 - at.y * LEGIBLE_ZOOM, zoom: LEGIBLE_ZOOM };
}
