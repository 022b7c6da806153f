import { z } from "zod";

/**
 * Who must know, and where they are reached (issue "Who must know"): the channel shape shared by
 * the declaration file (owners' and consumers' contacts), the notifier that sends through it and
 * the incident that shows whom it told. One schema, so a channel accepted in one place is never
 * refused in another.
 *
 *   { kind: "slack",   url: "https://hooks.slack.com/services/T000/B000/XXXX" }   Slack-compatible incoming webhook
 *   { kind: "webhook", url: "https://hooks.example.com/reparo" }                   generic JSON webhook, signed like the alert webhook
 *   { kind: "email",   address: "finance-ops@example.com" }                        e-mail over the configured SMTP server
 */
const httpUrl = (field: string) =>
  z
    .string()
    .trim()
    .max(2_000)
    .refine((s) => {
      try {
        const u = new URL(s);
        return (u.protocol === "https:" || u.protocol === "http:") && u.username === "" && u.password === "";
      } catch {
        return false;
      }
    }, `${field} must be an http(s) URL without credentials in it`);

export const ChannelSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("slack"), url: httpUrl("a Slack webhook's url") }),
  z.strictObject({ kind: z.literal("webhook"), url: httpUrl("a webhook's url") }),
  z.strictObject({ kind: z.literal("email"), address: z.email("an e-mail channel's address must be an e-mail address").max(320) }),
]);
export type Channel = z.infer<typeof ChannelSchema>;
export const CHANNEL_KINDS = ["slack", "webhook", "email"] as const;

/** A person or team to reach: a display name, optional people, and the channel messages go to. */
export const ContactSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  people: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  channel: ChannelSchema.optional(),
});
export type Contact = z.infer<typeof ContactSchema>;

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
