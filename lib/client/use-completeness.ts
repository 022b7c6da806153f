"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CompletenessSchema, DatasetOptionsSchema, type CompletenessQuery } from "@/lib/contracts/completeness";
import { DatasetStatusSchema, PipelineStatusSchema } from "@/lib/contracts/dataset-status";
import { apiFetch } from "./api-fetch";
import { completenessKeys } from "./query-keys";

export function completenessUrl(q: CompletenessQuery): string {
  const params = new URLSearchParams({ dataset: q.dataset });
  if (q.from) params.set("from", q.from);
  if (q.to) params.set("to", q.to);
  return `/api/v1/completeness?${params}`;
}

export function useDatasetOptions() {
  return useQuery({ queryKey: completenessKeys.datasets(), queryFn: () => apiFetch("/api/v1/completeness/datasets", DatasetOptionsSchema), staleTime: 60_000 });
}

export function useCompleteness(q: CompletenessQuery | null) {
  return useQuery({
    queryKey: q ? completenessKeys.certificate(q) : completenessKeys.idle(),
    queryFn: () => apiFetch(completenessUrl(q!), CompletenessSchema),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** A dataset's status line (GET /api/v1/datasets/{id}/status), read again every minute as its badge is. */
export function useDatasetStatus(dataset: string) {
  return useQuery({
    queryKey: completenessKeys.status(dataset),
    queryFn: () => apiFetch(`/api/v1/datasets/${encodeURIComponent(dataset)}/status`, DatasetStatusSchema),
    refetchInterval: 60_000,
    retry: false,
  });
}

/** A pipeline's status (GET /api/v1/pipelines/{id}/status): each dataset's line and its own. */
export function usePipelineStatus(pipeline: string) {
  return useQuery({
    queryKey: completenessKeys.pipelineStatus(pipeline),
    queryFn: () => apiFetch(`/api/v1/pipelines/${encodeURIComponent(pipeline)}/status`, PipelineStatusSchema),
    refetchInterval: 60_000,
    retry: false,
  });
}
