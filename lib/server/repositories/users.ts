import { getDb } from "../db/client";
import { isRole, type Actor } from "../auth/roles";

/** The actor for an identity; unknown identities are read-only viewers. */
export async function findActor(id: string): Promise<Actor> {
  const user = await getDb().user.findUnique({ where: { id } });
  return { id, role: user && isRole(user.role) ? user.role : "viewer" };
}
