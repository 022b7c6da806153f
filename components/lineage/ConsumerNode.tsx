"use client";

import { memo } from "react";
import type { NodeProps, Node } from "@xyflow/react";
import type { LineageNode, NodeRole } from "@/lib/contracts/lineage";
import { NodeShell } from "./NodeShell";
import styles from "./Lineage.module.css";

const LOOK: Partial<Record<NodeRole, { icon: string; word: string }>> = {
  dashboard: { icon: "◧", word: "dashboard" },
  export: { icon: "⇪", word: "export" },
  model: { icon: "◈", word: "model / feature set" },
};

/** An external consumer: a dashboard, an export leaving the platform, a model's feature set. */
export const ConsumerNode = memo(function ConsumerNode({ data }: NodeProps<Node<{ node: LineageNode }>>) {
  const look = LOOK[data.node.role] ?? { icon: "◇", word: "consumer" };
  const outside = data.node.traits.includes("consumed outside the platform");
  return (
    <NodeShell node={data.node} kindClass={styles.consumer} icon={look.icon}>
      <div className={styles.meta}>
        {look.word}
        {outside ? " · leaves the platform" : ""}
      </div>
    </NodeShell>
  );
});
