import { z } from "zod";
import type { Db, Tx } from "../database";
import { isRole, type Role } from "../../auth/roles";
import { prismaOf } from "../prisma-handle";

/** People known to the console. The role and namespaces are parsed at this edge. */
export interface UserRecord {
  id: string;
  displayName: string;
  role: Role;
  namespaces: string[];
  createdAt: Date;
}

const Namespaces = z.array(z.string());

type Stored = { id: string; displayName: string; role: string; namespaces: string; createdAt: Date };

function toRecord(u: Stored): UserRecord {
  const parsed = Namespaces.safeParse(JSON.parse(u.namespaces));
  // A role this version does not know is read as the least one: never more than was granted.
  return {
    id: u.id,
    displayName: u.displayName,
    role: isRole(u.role) ? u.role : "viewer",
    namespaces: parsed.success ? parsed.data : [],
    createdAt: u.createdAt,
  };
}

export async function findUser(db: Db | Tx, id: string): Promise<UserRecord | null> {
  const u = await prismaOf(db).user.findUnique({ where: { id } });
  return u ? toRecord(u) : null;
}

export async function listUsers(db: Db | Tx): Promise<UserRecord[]> {
  return (await prismaOf(db).user.findMany({ orderBy: { id: "asc" } })).map(toRecord);
}

export async function countAdmins(db: Db | Tx): Promise<number> {
  return prismaOf(db).user.count({ where: { role: "admin" } });
}

export async function insertUser(tx: Tx, u: Omit<UserRecord, "createdAt">): Promise<UserRecord> {
  return toRecord(await prismaOf(tx).user.create({ data: { ...u, namespaces: JSON.stringify(u.namespaces) } }));
}

export async function updateUser(tx: Tx, id: string, change: Partial<Pick<UserRecord, "displayName" | "role" | "namespaces">>): Promise<UserRecord> {
  const { namespaces, ...rest } = change;
  return toRecord(await prismaOf(tx).user.update({ where: { id }, data: { ...rest, ...(namespaces ? { namespaces: JSON.stringify(namespaces) } : {}) } }));
}

export async function deleteUser(tx: Tx, id: string): Promise<void> {
  await prismaOf(tx).user.delete({ where: { id } });
}

/** Creates the user, or refreshes the name and role of one that exists (its namespaces are kept). */
export async function upsertUser(tx: Tx, u: { id: string; displayName: string; role: string }): Promise<void> {
  await prismaOf(tx).user.upsert({ where: { id: u.id }, create: { ...u }, update: { displayName: u.displayName, role: u.role } });
}

/** Display names by user id, for the ids that are registered. */
export async function displayNamesOf(db: Db | Tx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await prismaOf(db).user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, displayName: true } });
  return new Map(rows.map((u) => [u.id, u.displayName]));
}
