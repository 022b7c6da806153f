import crypto from "node:crypto";

/**
 * Machine-token secrets: 32 random bytes, base64url, behind a recognisable prefix (so a leaked
 * token is found by secret scanners and never mistaken for a password). Only the SHA-256 of the
 * secret is stored; a token is looked up by that hash.
 */
export const TOKEN_PREFIX = "rpt_";

export function newTokenSecret(): string {
  return TOKEN_PREFIX + crypto.randomBytes(32).toString("base64url");
}

export function hashTokenSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

/** The secret of an `Authorization: Bearer <secret>` header; null when the header is absent. */
export function bearerSecret(authorization: string | null): string | null | "malformed" {
  // Another scheme (Basic from a proxy's auth_basic, say) is not ours: no token was sent.
  if (authorization === null || !/^Bearer(\s|$)/i.test(authorization)) return null;
  const m = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(authorization);
  return m?.[1] ?? "malformed";
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  const ha = crypto.createHash("sha256").update(a).digest();
  const hb = crypto.createHash("sha256").update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}
