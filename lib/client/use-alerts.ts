"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertsSchema, DeliverResultSchema } from "@/lib/contracts/alerts";
import { apiFetch } from "./api-fetch";
import { statesRefetchInterval } from "./states-refetch";
import { alertsKeys } from "./query-keys";

export function useAlerts() {
  return useQuery({ queryKey: alertsKeys.all, queryFn: () => apiFetch("/api/v1/alerts", AlertsSchema), refetchInterval: statesRefetchInterval(60_000) });
}

/** Sends undelivered alerts to the webhook; the list (delivered flags, tries) is refetched after. */
export function useDeliverAlerts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/v1/alerts/deliveries", DeliverResultSchema, { method: "POST", body: "{}" }),
    onSettled: () => client.invalidateQueries({ queryKey: alertsKeys.all }),
  });
}
