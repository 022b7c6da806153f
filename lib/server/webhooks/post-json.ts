import crypto from "node:crypto";

/**
 * Stripe's and GitHub's scheme: `Reparo-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">` with the receiver's secret (REPARO_ALERT_WEBHOOK_SECRET, REPARO_NOTIFY_WEBHOOK_SECRET), re-signed at every try, so the receiver checks
 * both who sent it and when (reject a t older than five minutes: a replay).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

export interface PostOutcome {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

/**
 * One POST of a JSON body, the way every outbound webhook of the console is sent (alerts and
 * notices): signed when a secret is given, credentials in the URL sent as HTTP Basic, a redirect
 * never followed, bounded by a timeout. Never throws: an unreachable receiver is an outcome.
 */
export async function postJsonOnce(url: string, body: string, options: { timeoutMs: number; secret: string | null; userAgent: string }): Promise<PostOutcome> {
  const { timeoutMs, secret } = options;
  try {
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": options.userAgent };
    if (secret) headers["reparo-signature"] = signatureHeader(secret, body, new Date());
    // fetch refuses credentials in a URL: user:password@ is sent as HTTP Basic, as curl would.
    const target = new URL(url);
    if (target.username || target.password) {
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString("base64")}`;
      target.username = "";
      target.password = "";
    }
    // A redirect is not followed: the body (and its signature) goes only where it was configured to.
    const res = await fetch(target, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    const redirected = res.status >= 300 && res.status < 400;
    return {
      ok: res.ok,
      httpStatus: res.status,
      error: res.ok ? null : redirected ? `answered ${res.status} (a redirect: not followed)` : `answered ${res.status}`,
    };
  } catch (e) {
    return { ok: false, httpStatus: null, error: e instanceof Error ? e.message : String(e) };
  }
}
