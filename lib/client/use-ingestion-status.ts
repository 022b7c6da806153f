"use client";

import { useQuery } from "@tanstack/react-query";
import { IngestionStatusSchema } from "@/lib/contracts/ingestion";
import { apiFetch } from "./api-fetch";
import { ingestionKeys } from "./query-keys";

export function useIngestionStatus() {
  return useQuery({
    queryKey: ingestionKeys.status(),
    queryFn: () => apiFetch("/api/v1/ingestion", IngestionStatusSchema),
    refetchInterval: 10_000,
  });
}
