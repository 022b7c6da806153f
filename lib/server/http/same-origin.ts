import { ForbiddenError } from "./errors";

/**
 * Refuses cross-site mutations. Browsers send Origin (and Sec-Fetch-Site) on every cross-site
 * POST/PUT; machine clients (orchestrators, curl) send neither and are not a CSRF vector.
 */
export function checkSameOrigin(req: Request): void {
  const site = req.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") throw new ForbiddenError("cross-site request refused");
  const origin = req.headers.get("origin");
  if (!origin) return;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ForbiddenError("cross-site request refused: malformed Origin");
  }
  if (originHost !== host) throw new ForbiddenError(`cross-site request refused: Origin ${origin} is not this console`);
}
