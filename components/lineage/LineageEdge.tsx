"use client";

import { memo } from "react";
import { BaseEdge, getBezierPath, type Edge, type EdgeProps } from "@xyflow/react";
import type { LineageEdgeData } from "./flow-elements";
import { useNodeMark } from "./highlight-store";
import styles from "./Lineage.module.css";

const WORD: Record<LineageEdgeData["status"], string> = { exact: "", degraded: "degraded: all units", self: "", cut: "cut: cycle" };

/**
 * An edge lights up when both ends are in the closure (a cut edge never does: closures do not
 * walk it); it dims with the nodes outside it. Degraded and cut edges are dashed and say why on hover.
 */
export const LineageEdge = memo(function LineageEdge(props: EdgeProps<Edge<LineageEdgeData>>) {
  const { source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, data } = props;
  const from = useNodeMark(source);
  const to = useNodeMark(target);
  const status = data?.status ?? "exact";
  const state = from.state === "in" && to.state === "in" && status !== "cut" ? "in" : "out";
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const mapping = data?.mapping && data.mapping !== "identity" ? data.mapping : "";
  const label = WORD[status] || mapping;
  return (
    <>
      <BaseEdge path={path} markerEnd={markerEnd} className={styles.edge} data-closure={state} data-status={status} />
      {data?.note ? (
        <path d={path} className={styles.edgeHover}>
          <title>{data.note}</title>
        </path>
      ) : null}
      {label && (state === "in" || data?.labelled || status !== "exact") ? (
        <foreignObject x={labelX - 60} y={labelY - 10} width={120} height={20} className={styles.edgeLabelBox} data-closure={state}>
          <div className={styles.edgeLabel} data-status={status}>
            {label}
          </div>
        </foreignObject>
      ) : null}
    </>
  );
});
