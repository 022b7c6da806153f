import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/** The persisted unit-state snapshot: one row per database, its body the use case's JSON. */
const ID = "current";

export async function readUnitStateSnapshot(db: Db): Promise<{ body: string; computedAt: Date } | null> {
  return prismaOf(db).unitStateSnapshot.findUnique({ where: { id: ID }, select: { body: true, computedAt: true } });
}

export async function writeUnitStateSnapshot(db: Db, body: string, computedAt: Date): Promise<void> {
  await prismaOf(db).unitStateSnapshot.upsert({ where: { id: ID }, create: { id: ID, body, computedAt }, update: { body, computedAt } });
}
