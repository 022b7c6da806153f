/**
 * Demo mode acts as its commander for anyone who reaches it, so it binds 127.0.0.1 — but a page on
 * another site can rebind its own DNS name to 127.0.0.1 and read the console through it (the
 * browser sends that name as Host). Demo mode therefore answers only requests addressed to this
 * machine by a loopback name, or to REPARO_PUBLIC_URL's host. Returns why a Host is refused, or null.
 */
export function demoHostRefusal(host: string | null, env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  if (env.REPARO_DEMO !== "1" || host === null) return null;
  const name = hostname(host);
  if (name === "localhost" || name === "127.0.0.1" || name === "[::1]" || /^127(\.\d{1,3}){3}$/.test(name)) return null;
  const pub = env.REPARO_PUBLIC_URL ? URL.parse(env.REPARO_PUBLIC_URL) : null;
  if (pub && pub.host.toLowerCase() === host.toLowerCase()) return null;
  return `this demo console answers only at localhost or 127.0.0.1 (or REPARO_PUBLIC_URL), not at ${name}: a name that resolves here may be a rebound DNS name`;
}

function hostname(host: string): string {
  const h = host.toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}
