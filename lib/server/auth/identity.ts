import { findActor } from "../repositories/users";
import type { Actor } from "./roles";

/**
 * Identity comes from a trusted header set by the organisation's auth proxy
 * (REPARO_IDENTITY_HEADER, default x-reparo-user). Without the header, the embedded demo uses
 * REPARO_DEFAULT_USER (default "demo-commander"); set it to an empty string behind a proxy so
 * requests without an identity are anonymous viewers.
 */
export function identityHeaderName(): string {
  return (process.env.REPARO_IDENTITY_HEADER ?? "x-reparo-user").toLowerCase();
}

export function defaultIdentity(): string | null {
  const value = process.env.REPARO_DEFAULT_USER ?? "demo-commander";
  return value === "" ? null : value;
}

export async function resolveActor(headers: Headers): Promise<Actor> {
  const id = headers.get(identityHeaderName())?.trim() || defaultIdentity();
  if (!id) return { id: "anonymous", role: "viewer" };
  return findActor(id);
}
