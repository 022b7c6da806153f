"use client";

import { useQuery } from "@tanstack/react-query";
import { AuditListSchema, AuditVerifySchema } from "@/lib/contracts/audit";
import { apiFetch } from "./api-fetch";
import { auditKeys } from "./query-keys";

export function useAuditList(filters: { kind: string; actor: string; incidentId: string }) {
  const qs = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ""));
  return useQuery({ queryKey: auditKeys.list(filters), queryFn: () => apiFetch(`/api/v1/audit?${qs}`, AuditListSchema) });
}

export function useAuditVerify() {
  return useQuery({ queryKey: auditKeys.verify(), queryFn: () => apiFetch("/api/v1/audit/verify", AuditVerifySchema) });
}
