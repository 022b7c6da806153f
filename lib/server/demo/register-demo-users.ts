import { inTransaction, type Db } from "../repositories/database";
import { upsertUser } from "../repositories/access/users";

/** The embedded demo's people: the local default identity (REPARO_DEFAULT_USER) is the commander. */
export const DEMO_USERS = [
  { id: "demo-commander", displayName: "Dana Okafor (incident commander)", role: "commander" },
  { id: "demo-operator", displayName: "Lukas Brandt (data engineer on call)", role: "operator" },
  { id: "demo-viewer", displayName: "Priya Raman (finance analyst)", role: "viewer" },
] as const;

/** Upserts rather than replaces: audit entries name these ids and must keep resolving. */
export async function registerDemoUsers(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    for (const u of DEMO_USERS) await upsertUser(tx, u);
  });
}
