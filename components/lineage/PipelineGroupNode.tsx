"use client";

import { memo, useContext } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { GroupToggleContext } from "./group-toggle-context";
import styles from "./Lineage.module.css";

export interface PipelineGroupData extends Record<string, unknown> {
  pipeline: string;
  collapsed: boolean;
  nodeCount: number;
}

/** A pipeline's box; collapsed, it stands for all its nodes and the edges reach it instead. */
export const PipelineGroupNode = memo(function PipelineGroupNode({ data }: NodeProps<Node<PipelineGroupData>>) {
  const onToggle = useContext(GroupToggleContext);
  return (
    <div className={data.collapsed ? `${styles.group} ${styles.groupCollapsed}` : styles.group} data-testid={`pipeline-${data.pipeline}`}>
      {data.collapsed ? <Handle type="target" position={Position.Left} className={styles.handle} isConnectable={false} /> : null}
      <div className={styles.groupHeader}>
        <span>{data.pipeline}</span>
        <button
          type="button"
          className={`${styles.groupToggle} nodrag`}
          aria-expanded={!data.collapsed}
          aria-label={`${data.collapsed ? "Expand" : "Collapse"} pipeline ${data.pipeline}`}
          onClick={() => onToggle(data.pipeline)}
        >
          {data.collapsed ? `＋ ${data.nodeCount} nodes` : "－"}
        </button>
      </div>
      {data.collapsed ? <Handle type="source" position={Position.Right} className={styles.handle} isConnectable={false} /> : null}
    </div>
  );
});
