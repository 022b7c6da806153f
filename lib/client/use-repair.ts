"use client";

import { useQuery } from "@tanstack/react-query";
import { PlanViewSchema, PreconditionsViewSchema, ProgressViewSchema, ScopeViewSchema, ValidationViewSchema, type PlanOptions } from "@/lib/contracts/repair";
import { apiFetch } from "./api-fetch";
import { incidentKeys } from "./use-incidents";

const base = (id: string) => `/api/v1/incidents/${encodeURIComponent(id)}`;

export function useScope(id: string) {
  return useQuery({ queryKey: incidentKeys.step(id, "scope"), queryFn: () => apiFetch(`${base(id)}/scope`, ScopeViewSchema) });
}

export function usePreconditions(id: string) {
  return useQuery({ queryKey: incidentKeys.step(id, "preconditions"), queryFn: () => apiFetch(`${base(id)}/preconditions`, PreconditionsViewSchema) });
}

/** The plan preview for the chosen options: POST because the options are a body, but it writes nothing. */
export function usePlanPreview(id: string, options: PlanOptions) {
  return useQuery({
    queryKey: incidentKeys.step(id, "plan", options),
    queryFn: () => apiFetch(`${base(id)}/plan/preview`, PlanViewSchema, { method: "POST", body: JSON.stringify(options) }),
    placeholderData: (prev) => prev,
  });
}

/** Polls every second while the repair runs; stops once it ended. */
export function useProgress(id: string) {
  return useQuery({
    queryKey: incidentKeys.step(id, "progress"),
    queryFn: () => apiFetch(`${base(id)}/progress`, ProgressViewSchema),
    refetchInterval: (q) => (q.state.data?.run && ["queued", "running"].includes(q.state.data.run.status) ? 1000 : false),
  });
}

export function useValidation(id: string) {
  return useQuery({ queryKey: incidentKeys.step(id, "validation"), queryFn: () => apiFetch(`${base(id)}/validation`, ValidationViewSchema) });
}
