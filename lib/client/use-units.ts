"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { UnitDetailSchema, UnitMatrixFromRunsSchema } from "@/lib/contracts/units";
import { apiFetch } from "./api-fetch";
import { matrixUrl, type MatrixFilters } from "./api-urls";
import { statesRefetchInterval } from "./states-refetch";
import { unitKeys } from "./query-keys";

export type { MatrixFilters };

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
