"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { UnitDetailSchema, UnitMatrixFromRunsSchema } from "@/lib/contracts/units";
import { apiFetch } from "./api-fetch";
import { matrixUrl, type MatrixFilters } from "./api-urls";
import { statesRefetchInterval } from "./states-refetch";

export type { MatrixFilters };

export const unitKeys = {
  all: ["units"] as const,
  matrix: (f: MatrixFilters) => [...unitKeys.all, "matrix", f] as const,
  detail: (dataset: string, unit: string) => [...unitKeys.all, "detail", dataset, unit] as const,
};

export function useUnitMatrix(filters: MatrixFilters) {
  return useQuery({
    queryKey: unitKeys.matrix(filters),
    queryFn: () => apiFetch(matrixUrl(filters), UnitMatrixFromRunsSchema),
    // Changing a filter keeps the previous picture on screen until the new one arrives.
    placeholderData: keepPreviousData,
    refetchInterval: statesRefetchInterval(60_000),
  });
}

export function useUnitDetail(dataset: string | null, unit: string | null) {
  return useQuery({
    queryKey: unitKeys.detail(dataset ?? "", unit ?? ""),
    queryFn: () => apiFetch(`/api/v1/units/cell?${new URLSearchParams({ dataset: dataset!, unit: unit! })}`, UnitDetailSchema),
    enabled: Boolean(dataset && unit),
  });
}
