"use client";

import { useReactFlow } from "@xyflow/react";
import { useEffect } from "react";
import type { Closure } from "@/lib/contracts/lineage";

/** Frames the closure when it changes, so a pasted link opens on the blast radius, not on the whole estate. */
export function FitToClosure({ closure, ready }: { closure: Closure | undefined; ready: boolean }) {
  const flow = useReactFlow();
  useEffect(() => {
    if (!closure || !ready || closure.nodes.length === 0) return;
    const frame = requestAnimationFrame(() => {
      void flow.fitView({ nodes: closure.nodes.map((n) => ({ id: n.nodeId })), padding: 0.15, duration: 250, maxZoom: 1.1 });
    });
    return () => cancelAnimationFrame(frame);
  }, [closure, ready, flow]);
  return null;
}
