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
  /**
   * The whole lineage around the selection, rather than its closure laid out alone (the picture
   * a link to a selection opens on). Always true with nothing selected; `show=all` in the URL.
   */
  whole: boolean;
}

const KEYS: (keyof LineageView)[] = ["node", "units", "direction", "asOf", "collapsed", "q", "whole"];

type Patch = Partial<LineageView> | ((current: LineageView) => Partial<LineageView>);

function parse(params: { get(key: string): string | null }): LineageView {
  return {
    node: params.get("node") ?? "",
    units: params.get("units") ?? "",
    direction: params.get("direction") === "upstream" ? "upstream" : "downstream",
    asOf: params.get("asOf") ?? "",
    collapsed: (params.get("collapsed") ?? "").split(",").filter(Boolean),
    q: params.get("q") ?? "",
    whole: !params.get("node") || params.get("show") === "all",
  };
}

/**
 * The view from the URL, and an update that patches it. The update reads the URL when it is
 * called, not the view of the last render, so it never changes: the graph it is handed to
 * (10,000 nodes) does not re-render because a callback was re-created.
 */
export function useLineageView(): [LineageView, (patch: Patch) => void] {
  const params = useSearchParams();
  const pathname = usePathname();
  const view = useMemo(() => parse(params), [params]);
  const update = useCallback(
    (patch: Patch) => {
      const current = parse(new URLSearchParams(window.location.search));
      const next = { ...current, ...(typeof patch === "function" ? patch(current) : patch) };
      const out = new URLSearchParams();
      for (const key of KEYS) {
        // A selection made on the whole lineage stays on it; a link to a selection opens on its closure alone.
        if (key === "whole") {
          if (next.node && next.whole) out.set("show", "all");
          continue;
        }
        const value = key === "collapsed" ? next.collapsed.join(",") : String(next[key]);
        if (value && !(key === "direction" && value === "downstream")) out.set(key, value);
      }
      // The browser's own history call: Next.js syncs useSearchParams with it, without the server
      // round trip and page re-render that router.replace costs on every click of a 10,000-node graph.
      window.history.replaceState(null, "", `${pathname}?${out.toString()}`);
    },
    [pathname],
  );
  return [view, update];
}
