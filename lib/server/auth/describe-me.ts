import type { Me } from "@/lib/contracts/access";
import { getDb } from "../repositories/database";
import { findUser } from "../repositories/access/users";
import { demoMode } from "./identity";
import { oidcSettings } from "./oidc";
import type { Actor } from "./roles";
import { log } from "../observability/log";

export async function describeMe(actor: Actor): Promise<Me> {
  const user = actor.source === "anonymous" || actor.source === "token" ? null : await findUser(getDb(), actor.id);
  let oidc: ReturnType<typeof oidcSettings> = null;
  try {
    oidc = oidcSettings();
  } catch (e) {
    // A bad setting must not take the shell down: sign-in says what is wrong when it is tried.
    log.error(`single sign-on is misconfigured: ${(e as Error).message}`);
  }
  return {
    id: actor.id,
    displayName: user?.displayName ?? (actor.source === "anonymous" ? "Not signed in" : actor.id),
    role: actor.role,
    source: actor.source,
    namespaces: [...actor.namespaces],
    demo: demoMode(),
    signIn: { oidc: oidc !== null, providerName: oidc?.providerName ?? null },
  };
}
