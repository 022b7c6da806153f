"use client";

import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import type { ScopeNode } from "@/lib/contracts/repair";
import { describeRanges } from "@/components/units/describe-units";
import { stateColour, worstOf } from "./scope-colours";
import styles from "./Scope.module.css";

export type ScopeFlowNode = Node<{ node: ScopeNode }, "scope">;

/** One node of the scope graph: name, unit set in words, and a band of what it holds now. */
export function ScopeGraphNode({ data: { node } }: NodeProps<ScopeFlowNode>) {
  const worst = worstOf(node.holdsNow.map((h) => h.state));
  const total = node.holdsNow.reduce((s, h) => s + h.count, 0);
  const units = `${describeRanges(node.units)} (${node.unitCount} ${node.unitCount === 1 ? "unit" : "units"})`;
  const holds = node.holdsNow.map((h) => `${h.count} ${h.state.replace(/_/g, " ")}`).join(", ");
  return (
    <div
      className={styles.node}
      data-testid={`scope-graph-node-${node.name}-${node.kind}`}
      data-seed={node.seed ? "true" : undefined}
      data-worst={worst ?? undefined}
      style={{ borderColor: worst ? stateColour(worst) : undefined }}
      title={`${node.nodeId}\n${units}${holds ? `\nholds now: ${holds}` : ""}`}
    >
      <Handle type="target" position={Position.Left} className={styles.handle} isConnectable={false} />
      <div className={styles.nodeTitle}>
        <span aria-hidden>{node.kind === "task" ? "⚙" : "▤"}</span>
        <strong>{node.name}</strong>
        {node.seed ? (
          <span className={styles.seed} data-testid="seed-mark">
            failed
          </span>
        ) : null}
      </div>
      <div className={styles.nodeUnits} data-testid="scope-graph-units">
        {units}
      </div>
      <div className={styles.band} role="img" aria-label={holds ? `holds now: ${holds}` : "holds nothing yet"}>
        {node.holdsNow.map((h) => (
          <span key={h.state} style={{ flexGrow: h.count, background: stateColour(h.state) }} />
        ))}
        {total === 0 ? <span style={{ flexGrow: 1 }} /> : null}
      </div>
      <Handle type="source" position={Position.Right} className={styles.handle} isConnectable={false} />
    </div>
  );
}
