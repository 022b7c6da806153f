import type { Db } from "../../db/client";

/** Console-wide values shared by every instance on the database. */
export async function readSetting(db: Db, key: string): Promise<string | null> {
  return (await db.setting.findUnique({ where: { key } }))?.value ?? null;
}

/** Stores `value` unless another instance stored one first; answers the value that holds. */
export async function settleSetting(db: Db, key: string, value: string): Promise<string> {
  await db.$executeRaw`INSERT INTO "Setting" ("key", "value") VALUES (${key}, ${value}) ON CONFLICT ("key") DO NOTHING`;
  return (await readSetting(db, key)) ?? value;
}
