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
    // As in a declared channel, no credentials: the target is stored with each notice and read back
    // through ChannelSchema, which refuses them (sign with REPARO_NOTIFY_WEBHOOK_SECRET instead).
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (parsed === null || !/^https?:$/.test(parsed.protocol)) throw new Error(`REPARO_NOTIFY_WEBHOOK_URL must be an http(s) URL, got "${url}"`);
    if (parsed.username || parsed.password)
      throw new Error("REPARO_NOTIFY_WEBHOOK_URL must not carry a user or password: sign the notices with REPARO_NOTIFY_WEBHOOK_SECRET instead");
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
