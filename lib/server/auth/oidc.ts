import * as client from "openid-client";
import { inTransaction, type Db } from "../repositories/database";
import { appendAudit } from "../audit/append-audit";
import { countAdmins, findUser, insertUser, updateUser } from "../repositories/access/users";
import { publicUrl } from "../http/same-origin";
import { ROLES, isRole, type Role } from "./roles";
import { openShortLived, sealSession, sealShortLived } from "./session-cookie";
import { compositeKey } from "@/lib/domain/composite-key";

/**
 * Single sign-on with OpenID Connect: authorization code + PKCE through openid-client (a
 * certified relying party). Configured by environment (docs/operations.md):
 * REPARO_OIDC_ISSUER, REPARO_OIDC_CLIENT_ID, REPARO_OIDC_CLIENT_SECRET (none = public client),
 * REPARO_OIDC_SCOPES, REPARO_OIDC_ROLE_CLAIM (default groups), REPARO_OIDC_ROLES
 * (`group=role[@namespace]`, comma-separated), REPARO_OIDC_DEFAULT_ROLE (default viewer),
 * REPARO_OIDC_ID_CLAIM (default sub), REPARO_OIDC_NAME (the sign-in button's label).
 */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string | null;
  scopes: string;
  roleClaim: string;
  idClaim: string;
  mappings: RoleMapping[];
  defaultRole: Role | null;
  providerName: string;
}

export interface RoleMapping {
  group: string;
  role: Role;
  namespace: string | null;
}

export class OidcConfigError extends Error {}

export function oidcSettings(env: Readonly<Record<string, string | undefined>> = process.env): OidcSettings | null {
  const issuer = env.REPARO_OIDC_ISSUER;
  if (!issuer) return null;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new OidcConfigError(`REPARO_OIDC_ISSUER is not a URL: ${issuer}`);
  }
  const clientId = env.REPARO_OIDC_CLIENT_ID;
  if (!clientId) throw new OidcConfigError("REPARO_OIDC_CLIENT_ID is required with REPARO_OIDC_ISSUER");
  const defaultRole = env.REPARO_OIDC_DEFAULT_ROLE ?? "viewer";
  if (defaultRole !== "none" && !isRole(defaultRole)) throw new OidcConfigError(`REPARO_OIDC_DEFAULT_ROLE: expected none or one of ${ROLES.join(", ")}`);
  return {
    issuer: url,
    clientId,
    clientSecret: env.REPARO_OIDC_CLIENT_SECRET || null,
    scopes: env.REPARO_OIDC_SCOPES ?? "openid profile email groups",
    roleClaim: env.REPARO_OIDC_ROLE_CLAIM ?? "groups",
    idClaim: env.REPARO_OIDC_ID_CLAIM ?? "sub",
    mappings: parseRoleMappings(env.REPARO_OIDC_ROLES ?? ""),
    defaultRole: defaultRole === "none" ? null : (defaultRole as Role),
    providerName: env.REPARO_OIDC_NAME ?? url.host,
  };
}

/** `reparo-admins=admin, data-eng=operator@orders, leads=commander` */
export function parseRoleMappings(text: string): RoleMapping[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^([^=]+)=([a-z]+)(?:@(.+))?$/.exec(entry);
      const [group, role, namespace] = [m?.[1], m?.[2], m?.[3]];
      if (!group || !role || !isRole(role))
        throw new OidcConfigError(`REPARO_OIDC_ROLES: "${entry}" is not group=role[@namespace] with a role of ${ROLES.join(", ")}`);
      if (role === "admin" && namespace)
        throw new OidcConfigError(`REPARO_OIDC_ROLES: "${entry}": an admin manages access everywhere and cannot be limited to a namespace`);
      return { group: group.trim(), role, namespace: namespace?.trim() || null };
    });
}

/**
 * The role the provider's groups give: the highest mapped role wins; it holds in the namespaces
 * its mappings name, or everywhere if one of them names none. No match → the default role.
 */
export function roleFromGroups(groups: readonly string[], s: Pick<OidcSettings, "mappings" | "defaultRole">): { role: Role; namespaces: string[] } | null {
  const matched = s.mappings.filter((m) => groups.includes(m.group));
  if (matched.length === 0) return s.defaultRole ? { role: s.defaultRole, namespaces: [] } : null;
  const top = matched.reduce<Role>((a, m) => (ROLES.indexOf(m.role) > ROLES.indexOf(a) ? m.role : a), "viewer");
  const atTop = matched.filter((m) => m.role === top);
  const namespaces = atTop.some((m) => m.namespace === null) ? [] : [...new Set(atTop.map((m) => m.namespace!))].sort();
  return { role: top, namespaces };
}

let discovered: { key: string; config: Promise<client.Configuration> } | null = null;

function configuration(s: OidcSettings): Promise<client.Configuration> {
  const key = compositeKey(s.issuer.href, s.clientId, s.clientSecret ?? "");
  if (discovered?.key !== key) {
    const auth = s.clientSecret ? client.ClientSecretPost(s.clientSecret) : client.None();
    const options = s.issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined;
    const config = client.discovery(s.issuer, s.clientId, s.clientSecret ?? undefined, auth, options);
    // A failed discovery (provider down) is retried on the next sign-in, not cached.
    config.catch(() => {
      if (discovered?.key === key) discovered = null;
    });
    discovered = { key, config };
  }
  return discovered.config;
}

/**
 * The console's own URL for a path: REPARO_PUBLIC_URL when set, else http:// and the Host the
 * browser used (Next.js rewrites request.url's host to the one it binds, so that is not it).
 */
export function consoleUrl(req: Request, path: string): URL {
  const host = req.headers.get("host");
  return new URL(path, publicUrl() ?? (host ? `http://${host}` : new URL(req.url).origin));
}

const FLOW_COOKIE = "reparo_oidc";

/** Starts a sign-in: the provider's authorization URL, and the cookie that carries the PKCE verifier. */
export async function beginSignIn(db: Db, req: Request, next: string): Promise<{ location: string; cookie: string }> {
  const s = oidcSettings();
  if (!s) throw new OidcConfigError("single sign-on is not configured (REPARO_OIDC_ISSUER)");
  const config = await configuration(s);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: consoleUrl(req, "/api/auth/callback").href,
    scope: s.scopes,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  const flow = await sealShortLived(db, { v: verifier, s: state, n: safeNext(next) }, 600);
  return { location: url.href, cookie: `${FLOW_COOKIE}=${flow}; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=600${secureFlag()}` };
}

export type SignInResult = { ok: true; userId: string; next: string; cookie: { value: string; expiresAt: Date } } | { ok: false; message: string };

/** Completes a sign-in at the callback: code → tokens → claims → role → the user → a session. */
export async function completeSignIn(db: Db, req: Request, flowCookie: string | null): Promise<SignInResult> {
  const s = oidcSettings();
  if (!s) return { ok: false, message: "single sign-on is not configured" };
  if (!flowCookie) return { ok: false, message: "the sign-in began elsewhere or took longer than 10 minutes: sign in again" };
  const opened = await openShortLived(db, flowCookie);
  if (!opened || typeof opened.v !== "string" || typeof opened.s !== "string" || typeof opened.n !== "string") {
    return { ok: false, message: "the sign-in took longer than 10 minutes: sign in again" };
  }
  const flow = { v: opened.v, s: opened.s, n: opened.n };
  const config = await configuration(s);
  const here = new URL(req.url);
  const callback = consoleUrl(req, `/api/auth/callback${here.search}`);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.v, expectedState: flow.s });
  } catch (e) {
    return { ok: false, message: `the identity provider refused the sign-in: ${(e as Error).message}` };
  }
  const idClaims: Record<string, unknown> = { ...(tokens.claims() ?? {}) };
  let claims: Record<string, unknown> = { ...idClaims };
  if (claims[s.roleClaim] === undefined && typeof idClaims.sub === "string") {
    claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...claims };
  }
  const rawId = claims[s.idClaim];
  if (typeof rawId !== "string" || rawId === "") return { ok: false, message: `the provider's token has no ${s.idClaim} claim (REPARO_OIDC_ID_CLAIM)` };
  // An e-mail address names a person only when the provider verified it: else anyone could claim an admin's.
  if (s.idClaim === "email" && claims.email_verified !== true)
    return { ok: false, message: `${rawId} is not a verified e-mail address at the provider (email_verified), so it cannot name a Reparo user` };
  const groups = toGroups(claims[s.roleClaim]);
  const granted = roleFromGroups(groups, s);
  if (!granted) return { ok: false, message: `${rawId} is in no group that REPARO_OIDC_ROLES maps to a role` };
  const displayName = [claims.name, claims.email, rawId].find((v): v is string => typeof v === "string" && v !== "")!;
  await recordSignIn(db, { id: rawId, displayName, ...granted }, s.providerName, groups);
  // Browsers drop cookies over 4 KB: a large ID token (many groups) is not kept; sign-out then asks the provider without a hint.
  const idToken = tokens.id_token && tokens.id_token.length <= 1_800 ? tokens.id_token : undefined;
  const cookie = await sealSession(db, { userId: rawId, via: "oidc", idToken });
  return { ok: true, userId: rawId, next: flow.n, cookie };
}

/** The role follows the provider's groups at every sign-in; a change is audited like an admin's. */
async function recordSignIn(
  db: Db,
  u: { id: string; displayName: string; role: Role; namespaces: string[] },
  provider: string,
  groups: string[],
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const before = await findUser(tx, u.id);
    const reason = `signed in through ${provider}; groups: ${groups.length ? groups.join(", ") : "(none)"}`;
    const access = (x: { role: Role; namespaces: string[]; displayName: string }) => ({
      role: x.role,
      namespaces: [...x.namespaces],
      displayName: x.displayName,
    });
    if (!before) {
      await insertUser(tx, u);
      await appendAudit(tx, { kind: "user.added", actor: `oidc:${provider}`, actorRole: "admin", reason, before: null, after: access(u) });
      return;
    }
    // The last admin keeps the role whatever the groups say: nobody could manage access otherwise.
    const keepAdmin = before.role === "admin" && u.role !== "admin" && (await countAdmins(tx)) === 1;
    const next = keepAdmin ? { ...u, role: "admin" as const, namespaces: [] } : u;
    const same = before.role === next.role && before.displayName === next.displayName && before.namespaces.join(",") === next.namespaces.join(",");
    if (same) return;
    const after = await updateUser(tx, u.id, { role: next.role, namespaces: next.namespaces, displayName: next.displayName });
    await appendAudit(tx, { kind: "user.changed", actor: `oidc:${provider}`, actorRole: "admin", reason, before: access(before), after: access(after) });
  });
}

/** Where the provider ends its own session after ours (RP-initiated logout), if it supports it. */
export async function endSessionUrl(req: Request, idToken: string | undefined): Promise<string | null> {
  const s = oidcSettings();
  if (!s) return null;
  const config = await configuration(s);
  if (!config.serverMetadata().end_session_endpoint) return null;
  const post = consoleUrl(req, "/sign-in?signed-out=1").href;
  return client.buildEndSessionUrl(
    config,
    idToken ? { id_token_hint: idToken, post_logout_redirect_uri: post } : { client_id: s.clientId, post_logout_redirect_uri: post },
  ).href;
}

export function clearedFlowCookie(): string {
  return `${FLOW_COOKIE}=; Path=/api/auth; HttpOnly; SameSite=Lax; Max-Age=0`;
}

export { FLOW_COOKIE };

function toGroups(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  if (typeof value === "string") return value.split(/[ ,]+/).filter(Boolean);
  return [];
}

/** Only a path of this console: never an open redirect. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/")) return "/";
  // Resolved as a browser would (which drops tabs and newlines, and reads "\\" as "/"): same origin only.
  const base = "http://reparo.invalid";
  let u: URL;
  try {
    u = new URL(next, base);
  } catch {
    return "/";
  }
  if (u.origin !== base || !/^[\x21-\x7e]*$/.test(next)) return "/";
  // Dot segments are resolved away ("/.//evil.example", "/..//x", "/.%2e//x" → "//…"): what is
  // left must still be a path of this console, not a protocol-relative address.
  const path = `${u.pathname}${u.search}${u.hash}`;
  return /^\/[^/\\]/.test(path) || path === "/" ? path : "/";
}

function secureFlag(): string {
  return process.env.REPARO_COOKIE_SECURE === "1" || (process.env.REPARO_PUBLIC_URL ?? "").startsWith("https:") ? "; Secure" : "";
}
