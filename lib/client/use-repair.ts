"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  PlanViewSchema,
  PreconditionsViewSchema,
  ProgressViewSchema,
  ScopeWithLayoutSchema,
  ValidationViewSchema,
  type PlanOptions,
} from "@/lib/contracts/repair";
import { isActiveRun } from "@/lib/domain/repair-run-lifecycle";
import { apiFetch } from "./api-fetch";
import { invalidateEffect } from "./incident-actions";
import { incidentKeys } from "./query-keys";

const base = (id: string) => `/api/v1/incidents/${encodeURIComponent(id)}`;

export function useScope(id: string) {
  return useQuery({ queryKey: incidentKeys.step(id, "scope"), queryFn: () => apiFetch(`${base(id)}/scope`, ScopeWithLayoutSchema) });
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
    // A unit declared cleaned outside Reparo waits for a count sent from elsewhere: look again every 10 s.
    refetchInterval: (q) => (q.state.data?.blockers.some((b) => b.resolution?.rowsInUnits.some((u) => u.declared?.awaiting)) ? 10_000 : false),
  });
}

/**
 * The latest repair's per-unit progress: read once, then streamed by the server (server-sent
 * events) while the repair runs — each change as it happens, on whichever console runs it.
 * Where the stream cannot be opened (or drops), it falls back to reading every 2 s.
 */
export function useProgress(id: string, options: { live?: boolean } = {}) {
  const qc = useQueryClient();
  const key = incidentKeys.step(id, "progress");
  const [streaming, setStreaming] = useState(false);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiFetch(`${base(id)}/progress`, ProgressViewSchema),
    refetchInterval: (q) => (!streaming && q.state.data?.run && isActiveRun(q.state.data.run.status) ? 2000 : false),
  });
  const active = Boolean(options.live) || (query.data?.run ? isActiveRun(query.data.run.status) : false);
  useEffect(() => {
    if (!active || typeof EventSource === "undefined") return;
    const source = new EventSource(`${base(id)}/progress/stream`);
    source.addEventListener("open", () => setStreaming(true));
    source.addEventListener("progress", (e) => {
      const parsed = ProgressViewSchema.safeParse(JSON.parse((e as MessageEvent<string>).data));
      if (parsed.success) qc.setQueryData(incidentKeys.step(id, "progress"), parsed.data);
    });
    const stop = () => {
      source.close();
      setStreaming(false);
    };
    // The stream broke: read the progress once more, and the incident it moved on.
    const settle = () => {
      stop();
      void qc.invalidateQueries({ queryKey: incidentKeys.step(id, "progress") });
      void qc.invalidateQueries({ queryKey: incidentKeys.detail(id) });
    };
    // The run ended: the repair changed units — every screen that shows them reads them again
    // (matrix, lineage, overview, alerts, completeness, history), not after their stale time.
    const ended = () => {
      stop();
      void invalidateEffect(qc, "repairs");
    };
    source.addEventListener("end", ended);
    source.addEventListener("error", settle);
    return stop;
  }, [active, id, qc]);
  return query;
}

export function useValidation(id: string) {
  return useQuery({ queryKey: incidentKeys.step(id, "validation"), queryFn: () => apiFetch(`${base(id)}/validation`, ValidationViewSchema) });
}
