"use client";

import { useQuery } from "@tanstack/react-query";
import { ClosurePeopleSchema, NodePeopleSchema } from "@/lib/contracts/owners";
import { apiFetch } from "./api-fetch";
import type { ClosureSelection } from "./use-lineage";
import { lineageKeys } from "./query-keys";

/**
 * The selected node's owners and readers, and everyone its closure reaches (GET
 * /api/v1/lineage-graph/people). The lineage page enables it once the closure is painted: for a
 * 45,000-node closure the owners' reads competed with the closure's own answer.
 */
export function useClosurePeople(selection: ClosureSelection | null, enabled = true) {
  return useQuery({
    queryKey: selection ? lineageKeys.people(selection) : lineageKeys.idle("people"),
    // Cancelled when the selection moves on: the server stops reading owners nobody waits for.
    queryFn: ({ signal }) => {
      const p = new URLSearchParams({ nodeId: selection!.nodeId, direction: selection!.direction });
      if (selection!.units) p.set("units", selection!.units);
      if (selection!.asOf) p.set("asOf", selection!.asOf);
      return apiFetch(`/api/v1/lineage-graph/people?${p}`, ClosurePeopleSchema, { signal });
    },
    enabled: selection !== null && enabled,
    retry: false,
  });
}

/** One node's owners (with where each was found) and the consumers reading it. */
export function useNodePeople(nodeId: string) {
  return useQuery({
    queryKey: lineageKeys.nodePeople(nodeId),
    queryFn: () => apiFetch(`/api/v1/lineage-graph/node-people?${new URLSearchParams({ nodeId })}`, NodePeopleSchema),
    staleTime: 60_000,
  });
}
