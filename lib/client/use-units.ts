"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { UnitDetailSchema, UnitMatrixSchema, type MatrixState } from "@/lib/contracts/units";
import { apiFetch } from "./api-fetch";

export interface MatrixFilters {
  pipeline?: string;
  dataset?: string;
  states?: MatrixState[];
  from?: string;
  to?: string;
}

export const unitKeys = {
  all: ["units"] as const,
  matrix: (f: MatrixFilters) => [...unitKeys.all, "matrix", f] as const,
  detail: (dataset: string, unit: string) => [...unitKeys.all, "detail", dataset, unit] as const,
};

export function matrixUrl(f: MatrixFilters): string {
  const q = new URLSearchParams();
  if (f.pipeline) q.set("pipeline", f.pipeline);
  if (f.dataset) q.set("dataset", f.dataset);
  if (f.states?.length) q.set("states", f.states.join(","));
  if (f.from) q.set("from", f.from);
  if (f.to) q.set("to", f.to);
  const s = q.toString();
  return `/api/v1/units/matrix${s ? `?${s}` : ""}`;
}

export function useUnitMatrix(filters: MatrixFilters) {
  return useQuery({
    queryKey: unitKeys.matrix(filters),
    queryFn: () => apiFetch(matrixUrl(filters), UnitMatrixSchema),
    // Changing a filter keeps the previous picture on screen until the new one arrives.
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export function useUnitDetail(dataset: string | null, unit: string | null) {
  return useQuery({
    queryKey: unitKeys.detail(dataset ?? "", unit ?? ""),
    queryFn: () => apiFetch(`/api/v1/units/cell?${new URLSearchParams({ dataset: dataset!, unit: unit! })}`, UnitDetailSchema),
    enabled: Boolean(dataset && unit),
  });
}
