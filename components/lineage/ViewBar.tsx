"use client";

import { useReactFlow, useStore } from "@xyflow/react";
import { useMemo } from "react";
import { counted } from "@/lib/domain/words";
import { countOutside, fitAll, MINIMAP_CORNER, MINIMAP_UP_TO, type Placed, type Rect } from "./framing";
import styles from "./Lineage.module.css";

/**
 * What the view leaves out, live as it pans and zooms: "12 of 40 nodes outside the view" (and how
 * many of a shown closure's), with "Fit all" to see the whole lineage at whatever zoom that takes,
 * and "Fit the closure" to see all of the selection's nodes (and not the unrelated pipelines).
 */
export function ViewBar({ placed, boxes, closureIds }: { placed: Placed[]; boxes: Rect[]; closureIds: readonly string[] | null }) {
  const flow = useReactFlow();
  const [x, y, zoom] = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const minZoom = useStore((s) => s.minZoom);
  const withMinimap = useStore((s) => s.nodes.length <= MINIMAP_UP_TO);
  const inClosure = useMemo(() => {
    if (!closureIds) return null;
    const ids = new Set(closureIds);
    return placed.filter((p) => ids.has(p.id));
  }, [placed, closureIds]);
  if (!width || !height) return <div className={styles.viewBar} />;
  const viewport = { x, y, zoom };
  const fit = (rects: readonly Rect[]) => {
    const v = fitAll(rects, width, height, minZoom, withMinimap ? MINIMAP_CORNER : undefined);
    if (v) void flow.setViewport(v, { duration: 250 });
  };
  const all = countOutside(placed, viewport, width, height);
  const closure = inClosure && inClosure.length > 0 ? countOutside(inClosure, viewport, width, height) : null;
  return (
    <div className={styles.viewBar} data-testid="lineage-view-bar">
      {all.outside === 0 ? (
        <span className="muted" data-testid="lineage-outside">
          All {counted(all.total, "node")} in view
        </span>
      ) : (
        <>
          <span data-testid="lineage-outside">
            <strong>
              {all.outside.toLocaleString("en-US")} of {counted(all.total, "node")} outside the view
            </strong>
            {closure && closure.outside > 0 ? (
              <>
                {" "}
                · {closure.outside} of the closure&apos;s {closure.total} (listed below)
              </>
            ) : null}
          </span>
          {closure && closure.outside > 0 ? (
            <button type="button" onClick={() => fit(inClosure!.map((p) => p.rect))}>
              Fit the closure
            </button>
          ) : null}
          <button type="button" onClick={() => fit(boxes)}>
            Fit all
          </button>
        </>
      )}
    </div>
  );
}
