"use client";

import { Handle, Position } from "@xyflow/react";
import type { ReactNode } from "react";
import type { LineageNode } from "@/lib/contracts/lineage";
import { useNodeMark } from "./highlight-store";
import { NodeMarkText } from "./NodeMarkText";
import styles from "./Lineage.module.css";

/**
 * The frame every node renderer shares: handles, closure state as data attributes, the mark. The
 * name is cut with an ellipsis at the node's edge; the whole name is its tooltip, the node's
 * accessible name (flow-elements.ts) and, on keyboard focus, a label above the node.
 */
export function NodeShell({ node, kindClass, icon, children }: { node: LineageNode; kindClass: string | undefined; icon: string; children?: ReactNode }) {
  const { state, mark } = useNodeMark(node.id);
  return (
    <div
      className={`${styles.node} ${kindClass}`}
      data-testid={`node-${node.id}`}
      data-closure={state}
      data-seed={mark?.entry.seed ? "true" : undefined}
      title={`${node.id}\n${node.partitions}${node.traits.length ? `\n${node.traits.join(" · ")}` : ""}`}
    >
      <Handle type="target" position={Position.Left} className={styles.handle} isConnectable={false} />
      <div className={styles.nodeTitle}>
        <span aria-hidden className={styles.icon}>
          {icon}
        </span>
        <strong className={styles.label} title={node.name} data-testid="node-label">
          {node.name}
        </strong>
      </div>
      <div className={styles.fullName} aria-hidden>
        {node.name}
      </div>
      {mark ? <NodeMarkText mark={mark} /> : children}
      <Handle type="source" position={Position.Right} className={styles.handle} isConnectable={false} />
    </div>
  );
}
