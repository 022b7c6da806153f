import type { NoticeView } from "@/lib/contracts/notices";
import type { NoticeRecord } from "../repositories/notices/notices";

export function toNoticeView(n: NoticeRecord): NoticeView {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: n.id,
    recipientKey: n.recipientKey,
    recipientName: n.recipientName,
    channelKind: n.channelKind,
    channel: n.channel,
    event: n.event,
    subject: n.subject,
    text: n.text,
    units: n.units,
    status: n.status,
    attempts: n.attempts,
    lastError: n.lastError,
    nextAttemptAt: iso(n.nextAttemptAt),
    sentAt: iso(n.sentAt),
    acknowledgedAt: iso(n.acknowledgedAt),
    acknowledgedBy: n.acknowledgedBy,
    createdBy: n.createdBy,
    createdAt: n.createdAt.toISOString(),
  };
}
