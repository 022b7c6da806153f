import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/** Console-wide values shared by every instance on the database. */
export async function readSetting(db: Db, key: string): Promise<string | null> {
  return (await prismaOf(db).setting.findUnique({ where: { key } }))?.value ?? null;
}

/** Stores `value` unless another instance stored one first; answers the value that holds. */
export async function settleSetting(db: Db, key: string, value: string): Promise<string> {
  await prismaOf(db).$executeRaw`INSERT INTO "Setting" ("key", "value") VALUES (${key}, ${value}) ON CONFLICT ("key") DO NOTHING`;
  return (await readSetting(db, key)) ?? value;
}
