import type { Channel } from "@/lib/contracts/people";
import { ChannelSchema } from "@/lib/contracts/people";

export interface NotifyConfig {
  /** REPARO_NOTIFY_WEBHOOK_URL: the channel of every recipient that declared none (a generic webhook); null = none. */
  defaultChannel: Channel | null;
  /** REPARO_NOTIFY_WEBHOOK_SECRET: signs every generic-webhook notice (Reparo-Signature); null = unsigned. */
  webhookSecret: string | null;
  /** REPARO_SMTP_URL: smtp(s)://user:pass@host:port — the server e-mail channels send through; null = no e-mail. */
  smtpUrl: string | null;
  /** REPARO_SMTP_FROM: the sender of every e-mail notice. */
  smtpFrom: string | null;
}

/**
 * From the environment (docs/notifications.md), read once per delivery round and validated with a
 * message naming the variable, like the alert webhook's (alert-config.ts): a typo stops with its
 * name rather than silently notifying nobody.
 */
export function readNotifyConfig(env: Readonly<Record<string, string | undefined>> = process.env): NotifyConfig {
  const url = env.REPARO_NOTIFY_WEBHOOK_URL?.trim() || null;
  let defaultChannel: Channel | null = null;
  if (url !== null) {
    // Credentials in the URL are allowed here (sent as HTTP Basic), unlike in a declared channel: the environment is not shown to anyone.
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (parsed === null || !/^https?:$/.test(parsed.protocol)) throw new Error(`REPARO_NOTIFY_WEBHOOK_URL must be an http(s) URL, got "${url}"`);
    defaultChannel = { kind: "webhook", url };
  }
  const secret = env.REPARO_NOTIFY_WEBHOOK_SECRET?.trim() || null;
  if (secret !== null && secret.length < 16) throw new Error("REPARO_NOTIFY_WEBHOOK_SECRET must be at least 16 characters");
  const smtpUrl = env.REPARO_SMTP_URL?.trim() || null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) throw new Error("REPARO_SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…");
  const smtpFrom = env.REPARO_SMTP_FROM?.trim() || null;
  if (smtpFrom !== null && !ChannelSchema.safeParse({ kind: "email", address: smtpFrom.replace(/^.*<(.+)>$/, "$1") }).success)
    throw new Error(`REPARO_SMTP_FROM must be an e-mail address (or "Name <address>"), got "${smtpFrom}"`);
  if (smtpUrl !== null && smtpFrom === null) throw new Error("REPARO_SMTP_FROM must be set when REPARO_SMTP_URL is: the sender of e-mail notices");
  return { defaultChannel, webhookSecret: secret, smtpUrl, smtpFrom };
}

/**
 * A channel as a viewer may see it (the incident's notices and the audit log are read by viewers):
 * the kind and the host. A webhook's path is left out whatever its kind: Slack, Discord and Teams
 * keep the hook's secret in it, and a Slack-style hook declared as a generic webhook would carry
 * it too — as the alerts page shows only the origin of its webhook to anyone but an admin.
 */
export function describeChannel(channel: Channel): string {
  if (channel.kind === "email") return `e-mail ${channel.address}`;
  try {
    const u = new URL(channel.url);
    const where = `${u.host}${u.pathname === "/" ? "" : "/…"}`;
    return `${channel.kind === "slack" ? "Slack" : "webhook"} ${u.protocol}//${where}`;
  } catch {
    return channel.kind;
  }
}
