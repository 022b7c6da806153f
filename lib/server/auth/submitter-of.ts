import type { Tx } from "../repositories/database";
import { findUser } from "../repositories/access/users";
import type { Submitter } from "./roles";

/**
 * Who an id recorded on stored events is now, to apply that sender's rights when what they sent
 * is folded again: `token:<name>` is a machine (it reports what its orchestrator ran); a person
 * has the role they hold today (a removed one is a viewer); null (the local executor, events from
 * before senders were recorded) is no one in particular.
 */
export async function submitterOf(tx: Tx, id: string | null): Promise<Submitter | undefined> {
  if (id === null) return undefined;
  if (id.startsWith("token:")) return { id, role: "operator", source: "token", namespaces: [] };
  const user = await findUser(tx, id);
  return user ? { id, role: user.role, source: "session", namespaces: user.namespaces } : { id, role: "viewer", source: "session", namespaces: [] };
}
