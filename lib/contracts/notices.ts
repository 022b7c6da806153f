import { z } from "zod";
import { ChannelSchema } from "./people";
import { BIDI_CONTROL, BIDI_MESSAGE } from "./plain-text";

/** The communication step (docs/notifications.md): notices of an incident, as the Communicate step and the ack page show them. */
export const NOTICE_STATUSES = ["queued", "sending", "sent", "failed", "undelivered"] as const;

export const NoticeViewSchema = z.object({
  id: z.string(),
  recipientKey: z.string(),
  recipientName: z.string(),
  channelKind: z.enum(["slack", "webhook", "email"]),
  /** Where it went, without credentials or query. */
  channel: z.string(),
  event: z.string(),
  subject: z.string(),
  text: z.string(),
  units: z.array(z.object({ nodeId: z.string(), name: z.string(), units: z.array(z.tuple([z.string(), z.string()])) })),
  status: z.enum(NOTICE_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** The next try of a queued or failed notice; null once sent or undelivered. */
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type NoticeView = z.infer<typeof NoticeViewSchema>;

export const NoticeRecipientSchema = z.object({
  key: z.string(),
  name: z.string(),
  role: z.enum(["owner", "consumer"]),
  /** Its own channel described, the default's, or null: nobody to send to. */
  channel: z.string().nullable(),
  /** The names of the nodes it owns or reads that the incident reaches. */
  reaches: z.array(z.string()),
});
export type NoticeRecipient = z.infer<typeof NoticeRecipientSchema>;

export const IncidentNoticesSchema = z.object({
  /** Who the incident reaches now (its closure's owners and consumers). */
  recipients: z.array(NoticeRecipientSchema),
  notices: z.array(NoticeViewSchema),
  /** The resolve guard: units delivered outside, neither re-delivered nor acknowledged, in words. */
  outstandingDeliveries: z.array(z.string()),
  /** REPARO_NOTIFY_WEBHOOK_URL described, or null: recipients without a channel of their own are then not told. */
  defaultChannel: z.string().nullable(),
});
export type IncidentNotices = z.infer<typeof IncidentNoticesSchema>;

/** POST /api/v1/incidents/{id}/notices: the operator's own message, to every recipient the incident reaches or the ones named. */
export const SendNoticeBodySchema = z.strictObject({
  recipients: z.array(z.string().trim().min(1).max(300)).min(1, "name at least one recipient, or leave recipients out to tell all").max(200).optional(),
  text: z.string().trim().min(1, "the message is empty").max(4000),
  /** Through this channel instead of each recipient's own (e.g. a team's e-mail rather than the default webhook). */
  channel: ChannelSchema.optional(),
});
export type SendNoticeBody = z.infer<typeof SendNoticeBodySchema>;
export const SendNoticeResultSchema = z.object({
  ok: z.literal(true),
  queued: z.number().int(),
  auditSeq: z.number().int().nullable(),
  unreachable: z.array(z.string()),
});

export const AckParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "not an acknowledgement token") });
/** Typed by whoever holds the link, unauthenticated, and kept in the audit log: plain text only. */
export const AckBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "say who acknowledges")
    .max(200)
    .refine((s) => !BIDI_CONTROL.test(s), BIDI_MESSAGE)
    .optional(),
});

/** What the ack page shows: the message acknowledged, never the incident's other recipients or units. */
export const AckViewSchema = z.object({
  recipientName: z.string(),
  subject: z.string(),
  text: z.string(),
  sentAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
});
export type AckView = z.infer<typeof AckViewSchema>;
