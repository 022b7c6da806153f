"use client";

import { memo } from "react";
import { BaseEdge, getBezierPath, type Edge, type EdgeProps } from "@xyflow/react";
import { useNodeMark } from "./highlight-store";
import styles from "./Lineage.module.css";

/** An edge lights up when both ends are in the closure; it dims with the nodes outside it. */
export const LineageEdge = memo(function LineageEdge(props: EdgeProps<Edge<{ mapping: string; labelled: boolean }>>) {
  const { source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, data } = props;
  const from = useNodeMark(source);
  const to = useNodeMark(target);
  const state = from.state === "in" && to.state === "in" ? "in" : "out";
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const mapping = data?.mapping && data.mapping !== "identity" ? data.mapping : "";
  return (
    <>
      <BaseEdge path={path} markerEnd={markerEnd} className={styles.edge} data-closure={state} />
      {mapping && (state === "in" || data?.labelled) ? (
        <foreignObject x={labelX - 50} y={labelY - 10} width={100} height={20} className={styles.edgeLabelBox} data-closure={state}>
          <div className={styles.edgeLabel}>{mapping}</div>
        </foreignObject>
      ) : null}
    </>
  );
});
