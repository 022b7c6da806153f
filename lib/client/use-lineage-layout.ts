"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { LineageLayoutSchema } from "@/lib/contracts/lineage";
import { apiFetch } from "./api-fetch";
import { lineageLayoutUrl } from "./api-urls";
import { lineageKeys } from "./query-keys";

/**
 * The ELK layout of the lineage (GET /api/v1/lineage-graph/layout), laid out and kept by the
 * server under the graph's content hash: the page never runs ELK. Fetched beside the graph, not
 * after it; the page checks both carry the same hash. Collapsing a pipeline keeps the previous
 * picture on screen until the new layout arrives.
 */
export function useLineageLayout(asOf: string, collapsed: readonly string[]) {
  return useQuery({
    queryKey: lineageKeys.layout(asOf, collapsed),
    queryFn: () => apiFetch(lineageLayoutUrl(asOf, collapsed), LineageLayoutSchema),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
