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

/** A declared consumer says its kind and its people (traits: "export recipient", "Accounts payable"). */
const DECLARED = { icon: "◉" };

/**
 * An external consumer: a dashboard, an export leaving the platform, a model's feature set — or
 * a declared consumer (a person or team reading them, drawn in the consumers' box).
 */
export const ConsumerNode = memo(function ConsumerNode({ data }: NodeProps<Node<{ node: LineageNode }>>) {
  if (data.node.role === "consumer")
    return (
      <NodeShell node={data.node} kindClass={`${styles.consumer} ${styles.declaredConsumer}`} icon={DECLARED.icon}>
        <div className={styles.meta}>{data.node.traits.join(" · ")}</div>
      </NodeShell>
    );
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
