import type { AddUser, ChangeUser, CreateToken, TokenView, UserView } from "@/lib/contracts/access";
import type { Actor } from "../auth/roles";
import { getDb } from "../repositories/database";
import type { ApiTokenRecord } from "../repositories/access/api-tokens";
import type { UserRecord } from "../repositories/access/users";
import { addUser, changeUser, createToken, listTokens, listUsers, removeUser, revokeToken, type ChangedBy } from "./manage-access";

/** The admin API's answers: people and tokens as the contracts show them (never a token's hash). */
export const userView = (u: UserRecord): UserView => ({
  id: u.id,
  displayName: u.displayName,
  role: u.role,
  namespaces: u.namespaces,
  createdAt: u.createdAt.toISOString(),
});

export const tokenView = (t: ApiTokenRecord): TokenView => ({
  name: t.name,
  scope: t.scope,
  namespaces: t.namespaces,
  createdBy: t.createdBy,
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  revokedAt: t.revokedAt?.toISOString() ?? null,
  revokedBy: t.revokedBy,
});

const by = (actor: Actor, reason: string): ChangedBy => ({ actor: actor.id, actorRole: actor.role, reason });

export const usersList = async () => ({ users: (await listUsers(getDb())).map(userView) });
export const userAdded = async (b: AddUser, actor: Actor) => userView(await addUser(getDb(), b, by(actor, b.reason)));
export const userChanged = async (id: string, b: ChangeUser, actor: Actor) =>
  userView(await changeUser(getDb(), id, { role: b.role, displayName: b.displayName, namespaces: b.namespaces }, by(actor, b.reason)));
export const userRemoved = async (id: string, reason: string, actor: Actor) => {
  await removeUser(getDb(), id, by(actor, reason));
  return { removed: id };
};
export const tokensList = async () => ({ tokens: (await listTokens(getDb())).map(tokenView) });
export const tokenCreated = async (b: CreateToken, actor: Actor) => {
  const { token, secret } = await createToken(getDb(), { name: b.name, scope: b.scope, namespaces: b.namespaces }, by(actor, b.reason));
  return { token: tokenView(token), secret };
};
export const tokenRevoked = async (name: string, reason: string, actor: Actor) => tokenView(await revokeToken(getDb(), name, by(actor, reason)));
