"use client";

import { Handle, Position } from "@xyflow/react";
import type { ReactNode } from "react";
import type { LineageNode } from "@/lib/contracts/lineage";
import { useNodeMark } from "./highlight-store";
import { NodeMarkText } from "./NodeMarkText";
import { pageFont, textWidth } from "../matrix/name-tail";
import { nodeLabel } from "./node-label";
import styles from "./Lineage.module.css";

/**
 * Room for the name in a node (Lineage.module.css: 200 px wide, 10 px padding each side, the
 * task's 4 px border and the icon with its gap), in the label's own font.
 */
const LABEL_ROOM = 200 - 2 * 10 - 5 - 25;
const LABEL_FONT = () => pageFont(700, 13);

/**
 * The frame every node renderer shares: handles, closure state as data attributes, the mark. The
 * name shown is what tells it apart (node-label.ts): a dbt resource's own name, any other long
 * name cut from its start at a separator. The whole name is its tooltip, the node's accessible
 * name (flow-elements.ts) and, on keyboard focus, a label above the node.
 */
export function NodeShell({ node, kindClass, icon, children }: { node: LineageNode; kindClass: string | undefined; icon: string; children?: ReactNode }) {
  const { state, mark } = useNodeMark(node.id);
  const font = LABEL_FONT();
  const shown = nodeLabel(node.name, (text) => textWidth(text, font) <= LABEL_ROOM);
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
          {shown}
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
