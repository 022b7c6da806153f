"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MeSchema } from "@/lib/contracts/access";
import { z } from "zod";
import { apiFetch } from "./api-fetch";
import { meKeys } from "./query-keys";

export function useMe() {
  return useQuery({ queryKey: meKeys.me(), queryFn: () => apiFetch("/api/auth/me", MeSchema), staleTime: 60_000 });
}

const SignedOutSchema = z.object({ signedOut: z.literal(true), redirect: z.string().nullable() });

/** Signs out; then the provider's own sign-out page (single sign-on) or the sign-in page. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/auth/logout", SignedOutSchema, { method: "POST" }),
    onSuccess: (r) => {
      client.clear();
      window.location.assign(r.redirect ?? "/sign-in?signed-out=1");
    },
  });
}
