import type { Db } from "../db/client";

/** The embedded demo's people: the local default identity (REPARO_DEFAULT_USER) is the commander. */
export const DEMO_USERS = [
  { id: "demo-commander", displayName: "Dana Okafor (incident commander)", role: "commander" },
  { id: "demo-operator", displayName: "Lukas Brandt (data engineer on call)", role: "operator" },
  { id: "demo-viewer", displayName: "Priya Raman (finance analyst)", role: "viewer" },
] as const;

/** Upserts rather than replaces: audit entries name these ids and must keep resolving. */
export async function registerDemoUsers(db: Db): Promise<void> {
  await db.$transaction(async (tx) => {
    for (const u of DEMO_USERS) {
      await tx.user.upsert({ where: { id: u.id }, create: { ...u }, update: { displayName: u.displayName, role: u.role } });
    }
  });
}
