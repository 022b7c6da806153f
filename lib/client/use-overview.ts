"use client";

import { useQuery } from "@tanstack/react-query";
import { OverviewSchema } from "@/lib/contracts/overview";
import { apiFetch } from "./api-fetch";
import { statesRefetchInterval } from "./states-refetch";

export const overviewKeys = { all: ["overview"] as const };

export function useOverview() {
  return useQuery({
    queryKey: overviewKeys.all,
    queryFn: () => apiFetch("/api/v1/overview", OverviewSchema),
    refetchInterval: statesRefetchInterval(30_000),
  });
}
