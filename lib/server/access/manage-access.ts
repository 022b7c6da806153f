import { appendAudit } from "../audit/append-audit";
import { inTransaction, type Db } from "../repositories/database";
import { InvalidFieldError, ConflictError, NotFoundError } from "@/lib/domain/errors";
import { findTokenByName, insertToken, listTokens, markTokenRevoked, type ApiTokenRecord } from "../repositories/access/api-tokens";
import { countAdmins, deleteUser, findUser, insertUser, listUsers, updateUser, type UserRecord } from "../repositories/access/users";
import type { Role, TokenScope } from "../auth/roles";
import { hashTokenSecret, newTokenSecret } from "../auth/token-secret";

/**
 * People and machine tokens, managed by an admin (the admin page) or by whoever runs the CLI on
 * the console's machine (`npm run users`, `npm run tokens`). Every change commits with its audit
 * entry: before → after, who, why.
 */
export interface ChangedBy {
  actor: string;
  actorRole: string;
  reason: string;
}

const accessOf = (u: Pick<UserRecord, "role" | "namespaces" | "displayName">) => ({ role: u.role, namespaces: [...u.namespaces], displayName: u.displayName });
const tokenOf = (t: ApiTokenRecord) => ({ name: t.name, scope: t.scope, namespaces: [...t.namespaces], revoked: t.revokedAt !== null });

/** An admin manages access for everyone, so an admin's role is never limited to namespaces. */
function requireUnlimitedAdmin(role: Role | undefined, namespaces: readonly string[] | undefined): void {
  if (role === "admin" && (namespaces ?? []).some((n) => n.trim() !== ""))
    throw new InvalidFieldError("namespaces", "an admin manages access everywhere: an admin's role cannot be limited to namespaces");
}

export async function addUser(db: Db, u: { id: string; role: Role; displayName?: string; namespaces?: string[] }, by: ChangedBy): Promise<UserRecord> {
  requirePersonId(u.id);
  requireUnlimitedAdmin(u.role, u.namespaces);
  return inTransaction(db, async (tx) => {
    if (await findUser(tx, u.id)) throw new ConflictError(`user ${u.id} exists; change it with set-role`);
    const created = await insertUser(tx, { id: u.id, role: u.role, displayName: u.displayName?.trim() || u.id, namespaces: normalise(u.namespaces) });
    await appendAudit(tx, { kind: "user.added", actor: by.actor, actorRole: by.actorRole, reason: by.reason, before: null, after: accessOf(created) });
    return created;
  });
}

export async function changeUser(db: Db, id: string, change: { role?: Role; displayName?: string; namespaces?: string[] }, by: ChangedBy): Promise<UserRecord> {
  return inTransaction(db, async (tx) => {
    const before = await findUser(tx, id);
    if (!before) throw new NotFoundError(`no user ${id}`);
    requireUnlimitedAdmin(change.role ?? before.role, change.namespaces ?? before.namespaces);
    if (before.role === "admin" && change.role && change.role !== "admin" && (await countAdmins(tx)) === 1) {
      throw new ConflictError(`${id} is the last admin: make another admin first, or nobody can manage access`);
    }
    const after = await updateUser(tx, id, {
      ...change,
      ...(change.namespaces ? { namespaces: normalise(change.namespaces) } : {}),
      ...(change.displayName !== undefined ? { displayName: change.displayName.trim() || id } : {}),
    });
    await appendAudit(tx, {
      kind: "user.changed",
      actor: by.actor,
      actorRole: by.actorRole,
      reason: by.reason,
      before: accessOf(before),
      after: accessOf(after),
    });
    return after;
  });
}

export async function removeUser(db: Db, id: string, by: ChangedBy): Promise<void> {
  await inTransaction(db, async (tx) => {
    const before = await findUser(tx, id);
    if (!before) throw new NotFoundError(`no user ${id}`);
    if (before.role === "admin" && (await countAdmins(tx)) === 1) throw new ConflictError(`${id} is the last admin: make another admin first`);
    // Audit entries keep naming the id: a removed user's history stays readable.
    await deleteUser(tx, id);
    await appendAudit(tx, { kind: "user.removed", actor: by.actor, actorRole: by.actorRole, reason: by.reason, before: accessOf(before), after: null });
  });
}

export async function createToken(
  db: Db,
  t: { name: string; scope: TokenScope; namespaces?: string[] },
  by: ChangedBy,
): Promise<{ token: ApiTokenRecord; secret: string }> {
  const secret = newTokenSecret();
  const token = await inTransaction(db, async (tx) => {
    if (await findTokenByName(tx, t.name)) throw new ConflictError(`a token named ${t.name} exists (revoked tokens keep their name)`);
    const created = await insertToken(tx, {
      name: t.name,
      hash: hashTokenSecret(secret),
      scope: t.scope,
      namespaces: normalise(t.namespaces),
      createdBy: by.actor,
      createdAt: new Date(),
    });
    await appendAudit(tx, { kind: "token.created", actor: by.actor, actorRole: by.actorRole, reason: by.reason, before: null, after: tokenOf(created) });
    return created;
  });
  return { token, secret };
}

export async function revokeToken(db: Db, name: string, by: ChangedBy): Promise<ApiTokenRecord> {
  return inTransaction(db, async (tx) => {
    const before = await findTokenByName(tx, name);
    if (!before) throw new NotFoundError(`no token named ${name}`);
    if (before.revokedAt) return before;
    const after = await markTokenRevoked(tx, before.id, by.actor, new Date());
    await appendAudit(tx, {
      kind: "token.revoked",
      actor: by.actor,
      actorRole: by.actorRole,
      reason: by.reason,
      before: tokenOf(before),
      after: tokenOf(after),
    });
    return after;
  });
}

export { listTokens, listUsers };

function normalise(namespaces: readonly string[] | undefined): string[] {
  return [...new Set((namespaces ?? []).map((n) => n.trim()).filter((n) => n.length > 0))].sort();
}

/**
 * The audit log names machines `token:<name>`, the command line `cli:<os user>`, and nobody
 * `anonymous`: a person with such an id could not be told from them afterwards.
 */
function requirePersonId(id: string): void {
  const lower = id.toLowerCase();
  if (lower === "anonymous" || lower.startsWith("token:") || lower.startsWith("cli:"))
    throw new InvalidFieldError("body.id", `${id} reads as a machine in the audit log (token:…, cli:… and anonymous are reserved): choose another id`);
  if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(id)) throw new InvalidFieldError("body.id", "holds a bidirectional control character");
}
