"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { IncidentNoticesSchema, SendNoticeBodySchema, SendNoticeResultSchema } from "@/lib/contracts/notices";
import { describeIssues, fieldIssues } from "@/lib/contracts/field-issues";
import { apiFetch } from "./api-fetch";
import { auditKeys, incidentKeys } from "./query-keys";

const base = (id: string) => `/api/v1/incidents/${encodeURIComponent(id)}/notices`;

/** The incident's notices and the resolve guard: read again every 5 s while one is still on its way (queued, sending, retried). */
export function useIncidentNotices(id: string) {
  return useQuery({
    queryKey: incidentKeys.step(id, "notices"),
    queryFn: () => apiFetch(base(id), IncidentNoticesSchema),
    refetchInterval: (q) => (q.state.data?.notices.some((n) => n.status === "queued" || n.status === "sending" || n.status === "failed") ? 5_000 : false),
  });
}

/** Sending an edited message: the notices, the incident's timeline and the audit log read again. */
export function useSendNotice(id: string) {
  const qc = useQueryClient();
  return useMutation<z.output<typeof SendNoticeResultSchema>, Error, z.input<typeof SendNoticeBodySchema>>({
    mutationFn: (input) => {
      const parsed = SendNoticeBodySchema.safeParse(input);
      if (!parsed.success) throw new Error(describeIssues(fieldIssues(parsed.error, "body")));
      return apiFetch(base(id), SendNoticeResultSchema, { method: "POST", body: JSON.stringify(parsed.data) });
    },
    onSuccess: () => Promise.all([incidentKeys.all, auditKeys.all].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}
