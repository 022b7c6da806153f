import { z } from "zod";
import type { Db, Tx } from "../database";
import { TOKEN_SCOPES, type TokenScope } from "../../auth/roles";
import { prismaOf } from "../prisma-handle";

/** Machine tokens: only the hash of each secret is stored (auth/token-secret.ts). */
export interface ApiTokenRecord {
  id: string;
  name: string;
  scope: TokenScope;
  namespaces: string[];
  createdBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}

const Stored = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  namespaces: z.string().transform((s) => z.array(z.string()).parse(JSON.parse(s))),
  createdBy: z.string(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  revokedBy: z.string().nullable(),
});

const SELECT = {
  id: true,
  name: true,
  scope: true,
  namespaces: true,
  createdBy: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  revokedBy: true,
} as const;

export async function findTokenByHash(db: Db, hash: string): Promise<ApiTokenRecord | null> {
  const t = await prismaOf(db).apiToken.findUnique({ where: { hash }, select: SELECT });
  return t ? Stored.parse(t) : null;
}

export async function findTokenByName(db: Db | Tx, name: string): Promise<ApiTokenRecord | null> {
  const t = await prismaOf(db).apiToken.findUnique({ where: { name }, select: SELECT });
  return t ? Stored.parse(t) : null;
}

export async function listTokens(db: Db | Tx): Promise<ApiTokenRecord[]> {
  return (await prismaOf(db).apiToken.findMany({ orderBy: { createdAt: "asc" }, select: SELECT })).map((t) => Stored.parse(t));
}

export async function insertToken(
  tx: Tx,
  t: { name: string; hash: string; scope: TokenScope; namespaces: string[]; createdBy: string; createdAt: Date },
): Promise<ApiTokenRecord> {
  return Stored.parse(await prismaOf(tx).apiToken.create({ data: { ...t, namespaces: JSON.stringify(t.namespaces) }, select: SELECT }));
}

export async function markTokenRevoked(tx: Tx, id: string, by: string, at: Date): Promise<ApiTokenRecord> {
  return Stored.parse(await prismaOf(tx).apiToken.update({ where: { id }, data: { revokedAt: at, revokedBy: by }, select: SELECT }));
}

/** Last use, kept to the minute: a busy producer does not write on every event. */
export async function touchToken(db: Db, id: string, at: Date): Promise<void> {
  await prismaOf(db).apiToken.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(at.getTime() - 60_000) } }] },
    data: { lastUsedAt: at },
  });
}
