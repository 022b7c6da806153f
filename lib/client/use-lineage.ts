"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CompactClosureSchema, expandClosure } from "@/lib/contracts/compact-closure";
import { CompactHoldingsSchema, expandHoldings } from "@/lib/contracts/compact-holdings";
import { CompactLineageGraphSchema, expandLineageGraph } from "@/lib/contracts/compact-lineage-graph";
import { ClosureLayoutSchema, LineageFailuresSchema, type Direction } from "@/lib/contracts/lineage";
import { apiFetch } from "./api-fetch";
import { lineageGraphUrl } from "./api-urls";
import { lineageKeys } from "./query-keys";

export interface ClosureSelection {
  nodeId: string;
  units: string;
  direction: Direction;
  asOf: string;
}

const params = (s: ClosureSelection) => {
  const p = new URLSearchParams({ nodeId: s.nodeId, direction: s.direction });
  if (s.units) p.set("units", s.units);
  if (s.asOf) p.set("asOf", s.asOf);
  return p.toString();
};

export function useLineageGraph(asOf: string) {
  return useQuery({
    queryKey: lineageKeys.graph(asOf),
    // The compact answer (each string once, no edge ids), expanded here: 35 MB written out at 50,000 nodes.
    queryFn: () => apiFetch(lineageGraphUrl(asOf), CompactLineageGraphSchema).then(expandLineageGraph),
    staleTime: 60_000,
  });
}

/** The closure of the selection (GET /api/v1/closure); disabled until a node is selected. */
export function useClosure(selection: ClosureSelection | null) {
  return useQuery({
    queryKey: selection ? lineageKeys.closure(selection) : lineageKeys.idle("closure"),
    // The compact answer (each id and unit set once), expanded here: a 45,000-node closure is 14 MB written out.
    queryFn: () => apiFetch(`/api/v1/closure?${params(selection!)}&form=compact`, CompactClosureSchema).then(expandClosure),
    enabled: selection !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

const HOLDINGS_RECHECK_MS = 10_000;

export function useClosureHoldings(selection: ClosureSelection | null) {
  return useQuery({
    queryKey: selection ? lineageKeys.holdings(selection) : lineageKeys.idle("holdings"),
    // Cancelled when the selection moves on: the server stops working on a question nobody waits for.
    // Compact (each id and distinct holding once): a 45,000-node closure's holdings are 12 MB written out.
    queryFn: ({ signal }) =>
      apiFetch(`/api/v1/lineage-graph/holdings?${params(selection!)}&form=compact`, CompactHoldingsSchema, { signal }).then(expandHoldings),
    enabled: selection !== null,
    retry: false,
    // While the unit states' first computation runs, some nodes' suspect units are unknown: asked
    // again until it is over (each ask answers from what is computed, it never computes).
    refetchInterval: (query) => (query.state.data?.statesComputing ? HOLDINGS_RECHECK_MS : false),
  });
}

/**
 * The closure laid out on its own (GET /api/v1/lineage-graph/closure-layout), for a canvas of
 * about `aspect` (width / height, rounded so a resize by a few pixels asks nothing new).
 */
export function useClosureLayout(selection: ClosureSelection | null, aspect: number) {
  const rounded = Math.round(aspect * 4) / 4;
  return useQuery({
    queryKey: selection ? lineageKeys.closureLayout(selection, rounded) : lineageKeys.idle("closure-layout"),
    queryFn: () => apiFetch(`/api/v1/lineage-graph/closure-layout?${params(selection!)}&aspect=${rounded}`, ClosureLayoutSchema),
    enabled: selection !== null && rounded > 0,
    staleTime: 60_000,
    retry: false,
  });
}

/** The failed (task, unit) pairs to pick from: a targeted read, not the whole overview. */
export function useLineageFailures() {
  return useQuery({
    queryKey: lineageKeys.failures(),
    queryFn: () => apiFetch("/api/v1/lineage-graph/failures", LineageFailuresSchema),
    refetchInterval: 30_000,
  });
}
