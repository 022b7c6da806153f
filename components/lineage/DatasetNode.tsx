"use client";

import { memo } from "react";
import type { NodeProps, Node } from "@xyflow/react";
import type { LineageNode } from "@/lib/contracts/lineage";
import { NodeShell } from "./NodeShell";
import styles from "./Lineage.module.css";

/** A table or file set, with its partitioning. */
export const DatasetNode = memo(function DatasetNode({ data }: NodeProps<Node<{ node: LineageNode }>>) {
  return (
    <NodeShell node={data.node} kindClass={styles.dataset} icon="▤">
      <div className={styles.meta}>{data.node.partitions}</div>
    </NodeShell>
  );
});
