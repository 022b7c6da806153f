"use client";

import { useLayoutEffect } from "react";
import type { Closure, Holdings } from "@/lib/contracts/lineage";
import type { HighlightStore, NodeMark } from "./highlight-store";

/**
 * Pushes the closure into the highlight store (one Map, built from the response) and marks
 * when the highlighted frame is painted: reparo:highlight-start → reparo:highlight-done, then
 * tells the page (which asks for the holdings only then).
 */
export function useApplyHighlight(
  store: HighlightStore,
  closure: Closure | undefined,
  holdings: Holdings | undefined,
  enabled: boolean,
  onPainted: (closure: Closure) => void,
) {
  useLayoutEffect(() => {
    performance.mark("reparo:highlight-start");
    if (!enabled || !closure) {
      store.set(null);
      return;
    }
    const holdsOf = new Map(holdings?.nodes.map((n) => [n.nodeId, n]) ?? []);
    const marks = new Map<string, NodeMark>();
    for (const entry of closure.nodes) {
      const held = holdsOf.get(entry.nodeId);
      marks.set(entry.nodeId, { entry, holdings: held?.holdings ?? [], suspectUnknown: held?.suspectUnknown === true });
    }
    store.set(marks);
    const frame = requestAnimationFrame(() =>
      setTimeout(() => {
        performance.mark("reparo:highlight-done");
        onPainted(closure);
      }, 0),
    );
    return () => cancelAnimationFrame(frame);
  }, [store, closure, holdings, enabled, onPainted]);
}
