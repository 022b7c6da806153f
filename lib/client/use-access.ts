"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  CreatedTokenSchema,
  TokenListSchema,
  TokenViewSchema,
  UserListSchema,
  UserViewSchema,
  type AddUser,
  type ChangeUser,
  type CreateToken,
} from "@/lib/contracts/access";
import { apiFetch } from "./api-fetch";
import { accessKeys, auditKeys } from "./query-keys";

export function useUsers(enabled: boolean) {
  return useQuery({ queryKey: accessKeys.users(), queryFn: () => apiFetch("/api/v1/access/users", UserListSchema), enabled });
}

export function useTokens(enabled: boolean) {
  return useQuery({ queryKey: accessKeys.tokens(), queryFn: () => apiFetch("/api/v1/access/tokens", TokenListSchema), enabled });
}

/** Every access change refreshes the lists and the audit log that records it. */
function useAccessMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      for (const queryKey of [accessKeys.all, auditKeys.all]) void client.invalidateQueries({ queryKey });
    },
  });
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

export const useAddUser = () => useAccessMutation((b: AddUser) => apiFetch("/api/v1/access/users", UserViewSchema, json("POST", b)));
export const useChangeUser = () =>
  useAccessMutation(({ id, ...b }: ChangeUser & { id: string }) =>
    apiFetch(`/api/v1/access/users/${encodeURIComponent(id)}`, UserViewSchema, json("PATCH", b)),
  );
export const useRemoveUser = () =>
  useAccessMutation(({ id, reason }: { id: string; reason: string }) =>
    apiFetch(`/api/v1/access/users/${encodeURIComponent(id)}`, z.object({ removed: z.string() }), json("DELETE", { reason })),
  );
export const useCreateToken = () => useAccessMutation((b: CreateToken) => apiFetch("/api/v1/access/tokens", CreatedTokenSchema, json("POST", b)));
export const useRevokeToken = () =>
  useAccessMutation(({ name, reason }: { name: string; reason: string }) =>
    apiFetch(`/api/v1/access/tokens/${encodeURIComponent(name)}/revoke`, TokenViewSchema, json("POST", { reason })),
  );
