import { ForbiddenError } from "@/lib/domain/errors";

/**
 * Refuses cross-site mutations made with a browser's ambient credentials (the session cookie,
 * the demo identity). Browsers send Origin (and Sec-Fetch-Site) on every cross-site POST/PUT;
 * machine clients (orchestrators, curl) send neither and are not a CSRF vector.
 *
 * The Origin must be this console: exactly the scheme and host of REPARO_PUBLIC_URL when it is
 * set. Without it, only an Origin equal to the request's Host where that Host cannot be a
 * rebound DNS name (localhost or an IP address) — so a DNS-rebinding page (Host and Origin both
 * evil.example) is refused. A client-sent X-Forwarded-Host is never consulted.
 */
export function checkSameOrigin(req: Request): void {
  const site = req.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") throw new ForbiddenError("cross-site request refused");
  const origin = req.headers.get("origin");
  if (!origin) return;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    throw new ForbiddenError("cross-site request refused: malformed Origin");
  }
  const pub = publicUrl();
  if (pub) {
    if (o.origin !== pub.origin) throw new ForbiddenError(`cross-site request refused: Origin ${origin} is not ${pub.origin} (REPARO_PUBLIC_URL)`);
    return;
  }
  const host = req.headers.get("host") ?? "";
  if (o.host !== host) throw new ForbiddenError(`cross-site request refused: Origin ${origin} is not this console`);
  if (!isLiteralHost(o.hostname)) {
    throw new ForbiddenError(
      `cross-site request refused: set REPARO_PUBLIC_URL to accept browser changes at ${o.origin} (a host name could be a rebound DNS name)`,
    );
  }
}

export function publicUrl(): URL | null {
  const raw = process.env.REPARO_PUBLIC_URL;
  if (!raw) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function isLiteralHost(hostname: string): boolean {
  return hostname === "localhost" || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith("[");
}
