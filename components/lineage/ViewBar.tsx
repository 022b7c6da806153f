"use client";

import { useReactFlow, useStore } from "@xyflow/react";
import { useMemo } from "react";
import { counted } from "@/lib/domain/words";
import { countOutside, fitAll, MINIMAP_CORNER, MINIMAP_UP_TO, type Placed, type Rect } from "./framing";
import styles from "./Lineage.module.css";

interface Props {
  placed: Placed[];
  boxes: Rect[];
  closureIds: readonly string[] | null;
  /** The closure is drawn alone (closure-alone.ts), not in the whole lineage. */
  alone: boolean;
  /** Switches between the closure alone and the whole lineage; null when the closure cannot be drawn alone. */
  onAlone: ((alone: boolean) => void) | null;
}

/**
 * What the view leaves out, live as it pans and zooms: "12 of 40 nodes outside the view" (and how
 * many of a shown closure's), with "Fit all" to see the whole lineage at whatever zoom that takes.
 * With a selection, the way between its closure laid out alone — legible whole — and the whole
 * lineage around it; a closure too wide to be drawn alone has "Fit the closure" instead.
 */
export function ViewBar({ placed, boxes, closureIds, alone, onAlone }: Props) {
  const flow = useReactFlow();
  const [x, y, zoom] = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const minZoom = useStore((s) => s.minZoom);
  const withMinimap = useStore((s) => s.nodes.length <= MINIMAP_UP_TO) && !alone;
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
  if (alone) {
    return (
      <div className={styles.viewBar} data-testid="lineage-view-bar">
        <span data-testid="lineage-outside">
          {all.outside === 0 ? (
            <span className="muted">The closure alone: all {counted(all.total, "node")} in view</span>
          ) : (
            <strong>
              {all.outside} of the closure&apos;s {counted(all.total, "node")} outside the view
            </strong>
          )}
        </span>
        {all.outside > 0 ? (
          <button type="button" onClick={() => fit(placed.map((p) => p.rect))}>
            Fit the closure
          </button>
        ) : null}
        {onAlone ? (
          <button type="button" onClick={() => onAlone(false)}>
            Show the whole lineage
          </button>
        ) : null}
      </div>
    );
  }
  const closure = inClosure && inClosure.length > 0 ? countOutside(inClosure, viewport, width, height) : null;
  return (
    <div className={styles.viewBar} data-testid="lineage-view-bar">
      {all.outside === 0 ? (
        <span className="muted" data-testid="lineage-outside">
          All {counted(all.total, "node")} in view
        </span>
      ) : (
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
      )}
      {closure && onAlone ? (
        <button type="button" onClick={() => onAlone(true)}>
          Show the closure alone
        </button>
      ) : closure && closure.outside > 0 ? (
        <button type="button" onClick={() => fit(inClosure!.map((p) => p.rect))}>
          Fit the closure
        </button>
      ) : null}
      {all.outside > 0 ? (
        <button type="button" onClick={() => fit(boxes)}>
          Fit all
        </button>
      ) : null}
    </div>
  );
}
