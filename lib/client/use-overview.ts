"use client";

import { useQuery } from "@tanstack/react-query";
import { OverviewSchema } from "@/lib/contracts/overview";
import { apiFetch } from "./api-fetch";
import { statesRefetchInterval } from "./states-refetch";
import { overviewKeys } from "./query-keys";

export function useOverview() {
  return useQuery({
    queryKey: overviewKeys.all,
    queryFn: () => apiFetch("/api/v1/overview", OverviewSchema),
    refetchInterval: statesRefetchInterval(30_000),
  });
}
