import crypto from "node:crypto";

export interface RetryOptions {
  maxTries: number;
  /** Delay before try n+1 is baseDelayMs × 2^(n−1): 500 ms, 1 s, 2 s … */
  baseDelayMs: number;
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface TryOutcome {
  tryNumber: number;
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

export const DEFAULT_RETRY: RetryOptions = { maxTries: 4, baseDelayMs: 500, timeoutMs: 5_000 };
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POSTs a JSON body until a 2xx answer or the tries run out, backing off exponentially; 4xx other
 * than 408/429 is final (the receiver rejected the body: resending it changes nothing). Every try
 * is reported to `onTry` so the caller records it.
 */
export async function postWithRetries(
  url: string,
  body: string,
  options: RetryOptions,
  onTry: (t: TryOutcome) => Promise<void>,
  secret: string | null = null,
): Promise<TryOutcome> {
  const sleep = options.sleep ?? wait;
  let last: TryOutcome = { tryNumber: 0, ok: false, httpStatus: null, error: "not tried" };
  for (let tryNumber = 1; tryNumber <= options.maxTries; tryNumber++) {
    if (tryNumber > 1) await sleep(options.baseDelayMs * 2 ** (tryNumber - 2));
    last = await postOnce(url, body, tryNumber, options.timeoutMs, secret);
    await onTry(last);
    if (last.ok) return last;
    const final = last.httpStatus !== null && last.httpStatus >= 300 && last.httpStatus < 500 && last.httpStatus !== 408 && last.httpStatus !== 429;
    if (final) return last;
  }
  return last;
}

/**
 * Stripe's and GitHub's scheme: `Reparo-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">` with REPARO_ALERT_WEBHOOK_SECRET, re-signed at every try, so the receiver checks
 * both who sent it and when (reject a t older than five minutes: a replay).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

async function postOnce(url: string, body: string, tryNumber: number, timeoutMs: number, secret: string | null): Promise<TryOutcome> {
  try {
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "reparo-alerts" };
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
      tryNumber,
      ok: res.ok,
      httpStatus: res.status,
      error: res.ok ? null : redirected ? `answered ${res.status} (a redirect: not followed)` : `answered ${res.status}`,
    };
  } catch (e) {
    return { tryNumber, ok: false, httpStatus: null, error: e instanceof Error ? e.message : String(e) };
  }
}
