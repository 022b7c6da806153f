"use client";

import { createContext, useContext, useSyncExternalStore } from "react";
import type { ClosureNode, Holding } from "@/lib/contracts/lineage";

export interface NodeMark {
  entry: ClosureNode;
  holdings: Holding[];
  /** Whether its units are suspect is not known yet: the unit states' first computation has not reached it. */
  suspectUnknown: boolean;
}

/**
 * The closure highlight, outside React Flow's node array: selecting a failure changes which
 * nodes light up without rebuilding 10,000 node objects. Each node subscribes to its own entry,
 * so only nodes whose mark changed re-render (and with onlyRenderVisibleElements, only the
 * mounted ones subscribe at all).
 */
export class HighlightStore {
  private marks = new Map<string, NodeMark>();
  private active = false;
  private listeners = new Set<() => void>();

  set(marks: Map<string, NodeMark> | null): void {
    this.marks = marks ?? new Map();
    this.active = marks !== null;
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  markOf = (id: string): NodeMark | undefined => this.marks.get(id);
  isActive = (): boolean => this.active;
}

export const HighlightContext = createContext<HighlightStore>(new HighlightStore());

/**
 * "in" (with its mark) or "out". Dimming the nodes outside a shown closure is CSS on the canvas
 * (data-closure-active), not state here: a new closure re-renders only the nodes entering or
 * leaving it, not every mounted node (measured: ~450 ms → see docs/lineage.md).
 */
export function useNodeMark(id: string): { state: "in" | "out"; mark: NodeMark | undefined } {
  const store = useContext(HighlightContext);
  const mark = useSyncExternalStore(
    store.subscribe,
    () => store.markOf(id),
    () => undefined,
  );
  return { state: mark ? "in" : "out", mark };
}
