"use client";

import { memo, useContext } from "react";
import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { counted } from "@/lib/domain/words";
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
        <span className={styles.groupName} title={data.pipeline}>
          {data.pipeline}
        </span>
        <button
          type="button"
          className={`${styles.groupToggle} nodrag`}
          aria-expanded={!data.collapsed}
          aria-label={`${data.collapsed ? "Expand" : "Collapse"} pipeline ${data.pipeline}`}
          title={data.collapsed ? `Expand ${data.pipeline}` : `Collapse ${data.pipeline}`}
          onClick={() => onToggle(data.pipeline)}
        >
          {/* A drawn chevron: the fullwidth ＋/－ it replaces have no glyph in the system fonts (a box was drawn). */}
          <svg className={styles.chevron} viewBox="0 0 12 12" aria-hidden focusable="false">
            <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          {data.collapsed ? counted(data.nodeCount, "node") : null}
        </button>
      </div>
      {data.collapsed ? <Handle type="source" position={Position.Right} className={styles.handle} isConnectable={false} /> : null}
    </div>
  );
});
