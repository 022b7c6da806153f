"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import type { Direction } from "@/lib/contracts/lineage";

/** Everything the picture depends on, held in the URL so a pasted link opens the same picture. */
export interface LineageView {
  node: string;
  units: string;
  direction: Direction;
  asOf: string;
  collapsed: string[];
  q: string;
}

const KEYS: (keyof LineageView)[] = ["node", "units", "direction", "asOf", "collapsed", "q"];

export function useLineageView(): [LineageView, (patch: Partial<LineageView>) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const view = useMemo<LineageView>(() => ({
    node: params.get("node") ?? "",
    units: params.get("units") ?? "",
    direction: params.get("direction") === "upstream" ? "upstream" : "downstream",
    asOf: params.get("asOf") ?? "",
    collapsed: (params.get("collapsed") ?? "").split(",").filter(Boolean),
    q: params.get("q") ?? "",
  }), [params]);
  const update = useCallback((patch: Partial<LineageView>) => {
    const next = { ...view, ...patch };
    const out = new URLSearchParams();
    for (const key of KEYS) {
      const value = key === "collapsed" ? next.collapsed.join(",") : String(next[key]);
      if (value && !(key === "direction" && value === "downstream")) out.set(key, value);
    }
    // The browser's own history call: Next.js syncs useSearchParams with it, without the server
    // round trip and page re-render that router.replace costs on every click of a 10,000-node graph.
    window.history.replaceState(null, "", `${pathname}?${out.toString()}`);
  }, [view, pathname]);
  return [view, update];
}
