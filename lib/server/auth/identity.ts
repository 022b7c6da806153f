import { getDb } from "../repositories/database";
import { HttpError } from "../http/errors";
import { findTokenByHash, touchToken } from "../repositories/access/api-tokens";
import { findUser } from "../repositories/access/users";
import { ANONYMOUS, type Actor } from "./roles";
import { openSession, readCookie, SESSION_COOKIE } from "./session-cookie";
import { bearerSecret, hashTokenSecret, sameSecret } from "./token-secret";

/**
 * Who is asking, in this order — a request carries one credential:
 * 1. `Authorization: Bearer <token>`: a machine token (an unknown or revoked one is a 401, never
 *    a fallback to anonymous);
 * 2. the session cookie of a person who signed in (single sign-on or a one-time link);
 * 3. the identity header of the organisation's auth proxy (REPARO_IDENTITY_HEADER, default
 *    x-reparo-user) — honoured only when the request also carries REPARO_PROXY_SECRET in
 *    x-reparo-proxy-secret, so a client cannot name itself; in demo mode (REPARO_DEMO=1) always;
 * 4. demo mode only: REPARO_DEFAULT_USER (default demo-commander);
 * 5. otherwise anonymous, a viewer: every mutation needs one of the above.
 */
export function demoMode(): boolean {
  return process.env.REPARO_DEMO === "1";
}

export function identityHeaderName(): string {
  return (process.env.REPARO_IDENTITY_HEADER ?? "x-reparo-user").toLowerCase();
}

export const PROXY_SECRET_HEADER = "x-reparo-proxy-secret";

export class UnauthenticatedError extends HttpError {
  constructor(
    message: string,
    readonly challenge = 'Bearer realm="reparo"',
  ) {
    super(401, "unauthenticated", message);
  }
}

export async function resolveActor(headers: Headers): Promise<Actor> {
  const db = getDb();
  const bearer = bearerSecret(headers.get("authorization"));
  if (bearer === "malformed") throw new UnauthenticatedError("Authorization: expected `Bearer <token>`", 'Bearer realm="reparo", error="invalid_request"');
  if (bearer !== null) {
    const token = await findTokenByHash(db, hashTokenSecret(bearer));
    if (!token || token.revokedAt) throw new UnauthenticatedError("this token is unknown or revoked", 'Bearer realm="reparo", error="invalid_token"');
    // Last use is kept to the minute: most requests write nothing.
    const now = new Date();
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) await touchToken(db, token.id, now);
    return { id: `token:${token.name}`, role: "operator", source: "token", namespaces: token.namespaces, tokenScope: token.scope };
  }
  const session = await openSession(db, readCookie(headers.get("cookie"), SESSION_COOKIE));
  if (session) {
    const user = await findUser(db, session.userId);
    // A person removed by an admin loses access at once, whatever their cookie says.
    if (user) return { id: user.id, role: user.role, source: "session", namespaces: user.namespaces };
  }
  const named = headers.get(identityHeaderName())?.trim();
  if (named && (demoMode() || proxySecretPresented(headers))) return userActor(named, demoMode() ? "demo" : "proxy");
  if (demoMode()) {
    const fallback = process.env.REPARO_DEFAULT_USER ?? "demo-commander";
    if (fallback) return userActor(fallback, "demo");
  }
  return ANONYMOUS;
}

function proxySecretPresented(headers: Headers): boolean {
  const secret = process.env.REPARO_PROXY_SECRET;
  const presented = headers.get(PROXY_SECRET_HEADER);
  return !!secret && !!presented && sameSecret(secret, presented);
}

/** An identity the proxy or the demo names: its role comes from the User table (unknown → viewer). */
async function userActor(id: string, source: "proxy" | "demo"): Promise<Actor> {
  const user = await findUser(getDb(), id);
  return user ? { id, role: user.role, source, namespaces: user.namespaces } : { id, role: "viewer", source, namespaces: [] };
}
