"use client";

import { Background, Controls, MarkerType, ReactFlow, type Edge } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import type { ScopeView } from "@/lib/contracts/repair";
import { useScopeLayout } from "@/lib/client/use-scope-layout";
import { ScopeGraphNode, type ScopeFlowNode } from "./ScopeGraphNode";
import styles from "./Scope.module.css";

const nodeTypes = { scope: ScopeGraphNode };

/** The closure on the graph: only the nodes in scope and the lineage edges between them, left to right. */
export function ScopeGraph({ scope }: { scope: ScopeView }) {
  const layout = useScopeLayout(scope);
  const nodes = useMemo<ScopeFlowNode[]>(() => scope.nodes.map((n) => ({
    id: n.nodeId, type: "scope", data: { node: n }, position: layout.data?.positions[n.nodeId] ?? { x: 0, y: 0 },
    draggable: false, connectable: false, ariaLabel: `${n.name} (${n.kind})`,
  })), [scope.nodes, layout.data]);
  const edges = useMemo<Edge[]>(() => scope.edges.map((e) => ({
    id: `${e.from}>${e.to}`, source: e.from, target: e.to, markerEnd: { type: MarkerType.ArrowClosed },
  })), [scope.edges]);
  if (layout.error) return <div className="error-box" role="alert">Could not lay out the scope graph: {layout.error.message}</div>;
  if (!layout.data) return <div className={`skeleton ${styles.graph}`} aria-busy="true" />;
  // Tall enough to read every label without zooming, never taller than the viewport.
  const height = Math.min(520, Math.max(220, layout.data.height * 0.75 + 48));
  return (
    <div className={styles.graph} style={{ height }} data-testid="scope-graph" role="figure" aria-label={`Scope graph: ${scope.nodes.length} nodes, ${scope.edges.length} edges`}>
      <ReactFlow nodes={nodes} edges={edges} nodeTypes={nodeTypes} fitView fitViewOptions={{ padding: 0.08 }}
        nodesDraggable={false} nodesConnectable={false} elementsSelectable={false} minZoom={0.3} maxZoom={1.5}>
        <Background gap={24} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
