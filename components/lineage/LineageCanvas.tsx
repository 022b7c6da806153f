"use client";

import { memo, useEffect, useMemo } from "react";
import { Background, Controls, MiniMap, ReactFlow, type Node, type NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import type { LineageGraphView, LineageLayoutResult } from "@/lib/contracts/lineage";
import { ConsumerNode } from "./ConsumerNode";
import { DatasetNode } from "./DatasetNode";
import { flowElements } from "./flow-elements";
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
const MINIMAP_UP_TO = 3_000;
/** Above this size the lineage opens, and frames closures, only at a legible zoom (FitToClosure). */
export const WHOLE_VIEW_UP_TO = 3_000;

interface Props {
  graph: LineageGraphView;
  layout: LineageLayoutResult;
  closureActive: boolean;
  onSelect: (nodeId: string) => void;
}

/**
 * The graph itself: memoised elements, only visible elements rendered, minimap and controls.
 * Memoised as a whole: a selection re-renders the page around it, and the highlight reaches the
 * nodes through the highlight store, not through these props.
 */
export const LineageCanvas = memo(function LineageCanvas({ graph, layout, closureActive, onSelect }: Props) {
  const { nodes, edges } = useMemo(() => flowElements(graph, layout), [graph, layout]);
  const start = useMemo(() => bigStart(layout), [layout]);
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
        onlyRenderVisibleElements
        fitView={start === undefined}
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
        {nodes.length <= MINIMAP_UP_TO ? <MiniMap pannable zoomable nodeColor={minimapColor} ariaLabel="Minimap of the lineage" /> : null}
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
});

/**
 * Small lineages open on the whole estate. A big one would open at a zoom where nothing is
 * legible and thousands of nodes and edges are mounted and painted (measured: ~4 s of React
 * Flow rendering at 10,000 nodes): it opens, legible, on the start of its first pipeline, and
 * the failures, search, the pipeline list and zoom move the view from there.
 */
function bigStart(layout: LineageLayoutResult) {
  if (Object.keys(layout.positions).length <= WHOLE_VIEW_UP_TO) return undefined;
  const first = [...layout.groups].sort((a, b) => a.x - b.x || a.y - b.y)[0];
  if (!first) return undefined;
  const zoom = 0.6;
  return { x: 24 - first.x * zoom, y: 24 - first.y * zoom, zoom };
}
