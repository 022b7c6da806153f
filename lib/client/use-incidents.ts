"use client";

import { useQuery } from "@tanstack/react-query";
import { IncidentDetailSchema, IncidentListSchema } from "@/lib/contracts/incidents";
import { RootCauseViewSchema } from "@/lib/contracts/root-cause";
import { apiFetch } from "./api-fetch";
import { incidentKeys } from "./query-keys";

/** Where the units asked come from (GET /api/v1/root-cause): shown before an incident is opened on them. */
export function useRootCause(taskNodeId: string, units: readonly string[]) {
  const joined = units.join(",");
  const qs = new URLSearchParams({ taskNodeId, units: joined });
  return useQuery({
    queryKey: incidentKeys.rootCause(taskNodeId, joined),
    queryFn: () => apiFetch(`/api/v1/root-cause?${qs}`, RootCauseViewSchema),
    enabled: /^job:[^:]+:.+$/.test(taskNodeId) && units.length > 0,
    retry: false,
  });
}

export function useIncidentList(filters: { status: string; mine: string; pipeline: string }) {
  const qs = new URLSearchParams({ status: filters.status, mine: filters.mine, ...(filters.pipeline ? { pipeline: filters.pipeline } : {}) });
  return useQuery({ queryKey: incidentKeys.list(filters), queryFn: () => apiFetch(`/api/v1/incidents?${qs}`, IncidentListSchema) });
}

export function useIncident(id: string) {
  return useQuery({ queryKey: incidentKeys.detail(id), queryFn: () => apiFetch(`/api/v1/incidents/${encodeURIComponent(id)}`, IncidentDetailSchema) });
}
