"use client";

import { memo } from "react";
import type { NodeProps, Node } from "@xyflow/react";
import type { LineageNode } from "@/lib/contracts/lineage";
import { NodeShell } from "./NodeShell";
import styles from "./Lineage.module.css";

/** A task: its repair-relevant traits (append, external side effect, reads its own past). */
export const TaskNode = memo(function TaskNode({ data }: NodeProps<Node<{ node: LineageNode }>>) {
  const risky = data.node.traits.filter((t) => t !== "replace" && t !== "merge");
  return (
    <NodeShell node={data.node} kindClass={styles.task} icon="⚙">
      <div className={styles.meta}>{risky.length > 0 ? risky.join(" · ") : data.node.traits.join(" · ")}</div>
    </NodeShell>
  );
});
