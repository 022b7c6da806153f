"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { UNIT_STATES, type MatrixState } from "@/lib/contracts/units";
import type { Zoom } from "./aggregate";

export interface MatrixParams {
  pipeline?: string;
  states: MatrixState[];
  from?: string;
  to?: string;
  zoom: Zoom;
  /** The open cell: dataset node id and unit key. */
  cell: { dataset: string; unit: string } | null;
}

const ZOOMS: Zoom[] = ["unit", "week", "month"];

/** Filters, zoom and the open cell live in the URL, so a pasted link opens the same picture. */
export function useMatrixParams(): [MatrixParams, (patch: Partial<MatrixParams>) => void] {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const params = useMemo<MatrixParams>(() => {
    const zoom = search.get("zoom") as Zoom | null;
    const cellDataset = search.get("cell");
    const unit = search.get("unit");
    return {
      pipeline: search.get("pipeline") || undefined,
      states: (search.get("states") ?? "").split(",").filter((s): s is MatrixState => (UNIT_STATES as readonly string[]).includes(s)),
      from: search.get("from") || undefined,
      to: search.get("to") || undefined,
      zoom: zoom && ZOOMS.includes(zoom) ? zoom : "unit",
      cell: cellDataset && unit ? { dataset: cellDataset, unit } : null,
    };
  }, [search]);
  const update = useCallback(
    (patch: Partial<MatrixParams>) => {
      const next = { ...params, ...patch };
      const q = new URLSearchParams();
      if (next.pipeline) q.set("pipeline", next.pipeline);
      if (next.states.length) q.set("states", next.states.join(","));
      if (next.from) q.set("from", next.from);
      if (next.to) q.set("to", next.to);
      if (next.zoom !== "unit") q.set("zoom", next.zoom);
      if (next.cell) {
        q.set("cell", next.cell.dataset);
        q.set("unit", next.cell.unit);
      }
      const s = q.toString();
      router.replace(`${pathname}${s ? `?${s}` : ""}`, { scroll: false });
    },
    [params, pathname, router],
  );
  return [params, update];
}
