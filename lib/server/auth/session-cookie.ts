import crypto from "node:crypto";
import { EncryptJWT, jwtDecrypt, jwtVerify, SignJWT } from "jose";
import type { Db } from "../repositories/database";
import { readSetting, settleSetting } from "../repositories/system/settings";

/**
 * People's sessions: an encrypted, authenticated cookie (JWE, dir + A256GCM) holding who signed
 * in, how, and until when — no session table, so any console instance on the database reads it.
 * The key is REPARO_SESSION_SECRET when set (≥ 32 characters), else a random key generated once
 * and kept in the database's Setting table, shared by every instance.
 */
export const SESSION_COOKIE = "reparo_session";
export const SESSION_HOURS = Number(process.env.REPARO_SESSION_HOURS ?? 12);

export interface Session {
  userId: string;
  via: "oidc" | "link";
  /** The provider's id_token, kept for RP-initiated logout. */
  idToken?: string;
  expiresAt: Date;
}

let cached: { source: string; key: Uint8Array } | null = null;

async function sessionKey(db: Db): Promise<Uint8Array> {
  const secret = process.env.REPARO_SESSION_SECRET;
  if (secret) {
    if (secret.length < 32) throw new Error("REPARO_SESSION_SECRET must be at least 32 characters");
    if (cached?.source !== `env:${secret}`) cached = { source: `env:${secret}`, key: derive(secret, "session") };
    return cached.key;
  }
  if (cached?.source === "db") return cached.key;
  const stored = (await readSetting(db, "session-key")) ?? (await settleSetting(db, "session-key", crypto.randomBytes(32).toString("base64url")));
  cached = { source: "db", key: derive(stored, "session") };
  return cached.key;
}

function derive(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(`reparo:${purpose}:`).update(secret).digest());
}

export async function sealSession(db: Db, s: Omit<Session, "expiresAt">, now = new Date()): Promise<{ value: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
  const value = await new EncryptJWT({ via: s.via, ...(s.idToken ? { idt: s.idToken } : {}) })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setSubject(s.userId)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .encrypt(await sessionKey(db));
  return { value, expiresAt };
}

/** The session a cookie value holds; null when it is missing, forged, or expired. */
export async function openSession(db: Db, value: string | null | undefined, now = new Date()): Promise<Session | null> {
  if (!value) return null;
  try {
    const { payload } = await jwtDecrypt(value, await sessionKey(db), { currentDate: now });
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    const via = payload.via === "oidc" ? "oidc" : "link";
    return { userId: payload.sub, via, idToken: typeof payload.idt === "string" ? payload.idt : undefined, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return null;
  }
}

/** A short-lived sealed value (the OIDC flow's PKCE verifier and state, between redirects). */
export async function sealShortLived(db: Db, payload: Record<string, string>, seconds: number): Promise<string> {
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .encrypt(await sessionKey(db));
}

export async function openShortLived(db: Db, value: string): Promise<Record<string, unknown> | null> {
  try {
    return (await jwtDecrypt(value, await sessionKey(db))).payload;
  } catch {
    return null;
  }
}

/** A one-time sign-in link's token (for the first admin, or a console without single sign-on). */
export async function signInLinkToken(db: Db, userId: string, minutes: number, now = new Date()): Promise<string> {
  return new SignJWT({ purpose: "sign-in-link" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setJti(crypto.randomBytes(16).toString("base64url"))
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + minutes * 60)
    .sign(await sessionKey(db));
}

export async function readSignInLinkToken(db: Db, token: string, now = new Date()): Promise<{ userId: string; jti: string } | null> {
  try {
    const { payload } = await jwtVerify(token, await sessionKey(db), { algorithms: ["HS256"], currentDate: now });
    if (payload.purpose !== "sign-in-link" || typeof payload.sub !== "string" || typeof payload.jti !== "string") return null;
    return { userId: payload.sub, jti: payload.jti };
  } catch {
    return null;
  }
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** Secure when the console's public URL is https (or REPARO_COOKIE_SECURE=1). */
export function sessionCookieHeader(value: string, expiresAt: Date): string {
  const secure = process.env.REPARO_COOKIE_SECURE === "1" || (process.env.REPARO_PUBLIC_URL ?? "").startsWith("https:");
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookieHeader(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}
