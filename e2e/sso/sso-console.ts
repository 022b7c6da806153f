import crypto from "node:crypto";
import { EncryptJWT } from "jose";

/** The production-mode console the sign-in tests use (playwright.config.ts starts it beside the provider). */
export const SSO_PORT = Number(process.env.E2E_SSO_PORT ?? 3201);
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3901);
export const SSO_URL = `http://127.0.0.1:${SSO_PORT}`;
export const SESSION_SECRET = "e2e-session-secret-0123456789abcdef";

export const SSO_ENV: Record<string, string> = {
  REPARO_PUBLIC_URL: SSO_URL,
  REPARO_OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
  REPARO_OIDC_CLIENT_ID: "reparo-e2e",
  REPARO_OIDC_CLIENT_SECRET: "reparo-e2e-client-secret",
  REPARO_OIDC_ROLES: "reparo-admins=admin,orders-eng=operator@orders",
  REPARO_OIDC_NAME: "Test IdP",
  REPARO_SESSION_SECRET: SESSION_SECRET,
  // Nothing listens there: the hardening spec checks who may read its path (where Slack keeps a webhook's token).
  REPARO_ALERT_WEBHOOK_URL: "http://127.0.0.1:9/services/T0000/B0000/e2e-webhook-secret",
};

/** A session cookie as the console seals it (lib/server/auth/session-cookie.ts), with any expiry. */
export async function sealedSession(userId: string, expiresAt: Date): Promise<string> {
  const key = new Uint8Array(crypto.createHash("sha256").update("reparo:session:").update(SESSION_SECRET).digest());
  return new EncryptJWT({ via: "oidc" })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setSubject(userId)
    .setIssuedAt(Math.floor(expiresAt.getTime() / 1000) - 3600)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .encrypt(key);
}
