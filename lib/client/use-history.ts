"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { HistorySchema } from "@/lib/contracts/history";
import { apiFetch } from "./api-fetch";
import { historyKeys } from "./query-keys";

export type HistoryFilters = Partial<Record<"pipeline" | "task" | "owner" | "from" | "to", string>>;

export function historyUrl(f: HistoryFilters, format: "json" | "csv" = "json"): string {
  const params = new URLSearchParams(Object.entries(f).filter((e): e is [string, string] => Boolean(e[1])));
  if (format === "csv") params.set("format", "csv");
  const qs = params.toString();
  return `/api/v1/history${qs ? `?${qs}` : ""}`;
}

export function useHistory(filters: HistoryFilters) {
  return useQuery({ queryKey: historyKeys.list(filters), queryFn: () => apiFetch(historyUrl(filters), HistorySchema), placeholderData: keepPreviousData });
}
