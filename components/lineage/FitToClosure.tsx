"use client";

import { getViewportForBounds, useReactFlow, useStoreApi } from "@xyflow/react";
import { useEffect } from "react";
import type { Closure } from "@/lib/contracts/lineage";

/**
 * Below this zoom node names are unreadable, and a big lineage mounts thousands of nodes and
 * edges (each highlight then re-renders and restyles them all: measured 0.3–0.5 s at 10,000
 * nodes against ~30 ms at this zoom).
 */
export const LEGIBLE_ZOOM = 0.5;
const PADDING = 0.15;
const MAX_ZOOM = 1.1;

/**
 * Frames the closure when it changes, so a pasted link opens on the blast radius, not on the
 * whole estate. On a big lineage (`legibleOnly`), a closure too wide to frame legibly is framed
 * from its seed: the seed and the nodes up to two steps from it (or one, or the seed alone) that
 * fit at a legible zoom; the closure table lists the rest. A small lineage is cheap to show whole.
 */
export function FitToClosure({ closure, ready, legibleOnly }: { closure: Closure | undefined; ready: boolean; legibleOnly: boolean }) {
  const flow = useReactFlow();
  const store = useStoreApi();
  useEffect(() => {
    if (!closure || !ready || closure.nodes.length === 0) return;
    // After the frame that paints the highlight: the closure lights up first, then the camera
    // moves to it (bounds over thousands of nodes and the fit's first frame are not in the way).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const { width, height, minZoom } = store.getState();
        const within = (depth: number) => closure.nodes.filter((n) => n.depth <= depth).map((n) => n.nodeId);
        const fits = (ids: string[]) => getViewportForBounds(flow.getNodesBounds(ids), width, height, minZoom, MAX_ZOOM, PADDING).zoom >= LEGIBLE_ZOOM;
        const framed = !legibleOnly ? within(Infinity) : ([Infinity, 2, 1].map(within).find(fits) ?? within(0));
        void flow.fitView({ nodes: framed.map((id) => ({ id })), padding: PADDING, duration: 250, maxZoom: MAX_ZOOM, minZoom: legibleOnly ? LEGIBLE_ZOOM : undefined });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [closure, ready, legibleOnly, flow, store]);
  return null;
}
