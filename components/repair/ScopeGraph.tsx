"use client";

import { Background, Controls, MarkerType, ReactFlow, type Edge } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import type { ScopeWithLayout } from "@/lib/contracts/repair";
import { ScopeGraphNode, type ScopeFlowNode } from "./ScopeGraphNode";
import styles from "./Scope.module.css";

const nodeTypes = { scope: ScopeGraphNode };

/** The closure on the graph: only the nodes in scope and the lineage edges between them, left to right. */
export function ScopeGraph({ scope }: { scope: ScopeWithLayout }) {
  const { layout } = scope;
  const nodes = useMemo<ScopeFlowNode[]>(
    () =>
      scope.nodes.map((n) => ({
        id: n.nodeId,
        type: "scope",
        data: { node: n },
        position: layout.positions[n.nodeId] ?? { x: 0, y: 0 },
        draggable: false,
        connectable: false,
        ariaLabel: `${n.name} (${n.kind})`,
      })),
    [scope.nodes, layout],
  );
  const edges = useMemo<Edge[]>(
    () =>
      scope.edges.map((e) => ({
        id: `${e.from}>${e.to}`,
        source: e.from,
        target: e.to,
        markerEnd: { type: MarkerType.ArrowClosed },
      })),
    [scope.edges],
  );
  // Tall enough to read every label without zooming, never taller than the viewport.
  const height = Math.min(520, Math.max(220, layout.height * 0.75 + 48));
  return (
    <div
      className={styles.graph}
      style={{ height }}
      data-testid="scope-graph"
      role="figure"
      aria-label={`Scope graph: ${scope.nodes.length} nodes, ${scope.edges.length} edges`}
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ padding: 0.08 }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        minZoom={0.3}
        maxZoom={1.5}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
