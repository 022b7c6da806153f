/**
 * A URL as anyone but an admin may see it: scheme and host. Slack, Discord and Teams keep a
 * webhook's token in its path, and a base URL can hold one too.
 */
export function originOnly(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return "(not a URL)";
  }
}
