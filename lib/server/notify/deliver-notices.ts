import { appendAudit } from "../audit/append-audit";
import { getDb, inTransaction, type Db } from "../repositories/database";
import { claimNotice, dueNoticeIds, finishNoticeTry, type NoticeRecord } from "../repositories/notices/notices";
import { thisOwner } from "../runtime/repair-lease";
import { ackKey, ackTokenOf, ackUrlOf } from "./ack-token";
import { readNotifyConfig, type NotifyConfig } from "./notify-config";
import { sendThroughChannel } from "./send-through-channel";

export interface NoticeRetry {
  /** After this many failed tries a notice is undelivered: shown on the incident, tried no more. */
  maxAttempts: number;
  /** The wait before try n+1 is baseDelayMs × 3^(n−1): 10 s, 30 s, 90 s, 4.5 min, 13.5 min. */
  baseDelayMs: number;
}
export const DEFAULT_NOTICE_RETRY: NoticeRetry = { maxAttempts: 6, baseDelayMs: 10_000 };
/** A claim outlives the slowest try (10 s per channel timeout) by far; a sender that died is replaced after it. */
const CLAIM_MS = 120_000;
const BATCH = 50;
const NOTIFIER = { actor: "reparo:notifier", actorRole: "system" } as const;

export interface DeliverNoticesResult {
  sent: number;
  failed: number;
  undelivered: number;
}

/**
 * The `notices-deliver` job: one try of every notice due now, each claimed first (a notice is
 * delivered once, whichever console runs the job), its outcome and its audit entry (`notice.sent`
 * or `notice.failed`, naming recipient and channel) in one transaction. A failed try is retried
 * with backoff by a later round; never by sleeping here, so a dead channel holds up nobody.
 */
export async function deliverNotices(
  now: Date,
  db: Db = getDb(),
  config: NotifyConfig = readNotifyConfig(),
  retry: NoticeRetry = DEFAULT_NOTICE_RETRY,
): Promise<DeliverNoticesResult> {
  const result: DeliverNoticesResult = { sent: 0, failed: 0, undelivered: 0 };
  const ids = await dueNoticeIds(db, now, BATCH);
  if (ids.length === 0) return result;
  const key = await ackKey(db);
  const instance = thisOwner().instance;
  for (const id of ids) {
    // The claim runs from when it is made, not from the round's start: a round of slow channels
    // must not hand out claims already lapsed, which another console would take and send again.
    const claimedAt = new Date(Math.max(Date.now(), now.getTime()));
    const notice = await claimNotice(db, id, instance, claimedAt, new Date(claimedAt.getTime() + CLAIM_MS));
    if (notice === null) continue;
    const outcome = await sendThroughChannel(notice.target, outgoing(notice, key), config);
    const at = new Date();
    const attempt = notice.attempts + 1;
    const status = outcome.ok ? "sent" : attempt >= retry.maxAttempts ? "undelivered" : "failed";
    const nextAttemptAt = new Date(at.getTime() + retry.baseDelayMs * 3 ** (attempt - 1));
    await inTransaction(db, async (tx) => {
      const mine = await finishNoticeTry(tx, id, instance, {
        status,
        attempts: attempt,
        lastError: outcome.error,
        nextAttemptAt,
        sentAt: outcome.ok ? at : null,
      });
      if (!mine) return;
      const said = { noticeId: id, recipient: notice.recipientName, channel: notice.channel, attempt };
      await appendAudit(
        tx,
        outcome.ok
          ? {
              kind: "notice.sent",
              ...NOTIFIER,
              reason: `told ${notice.recipientName} through ${notice.channel}`,
              incidentId: notice.incidentId,
              before: { status: notice.attempts === 0 ? "queued" : "failed" },
              after: said,
            }
          : {
              kind: "notice.failed",
              ...NOTIFIER,
              reason: `could not tell ${notice.recipientName} through ${notice.channel}: ${outcome.error ?? "refused"}`,
              incidentId: notice.incidentId,
              before: { status: notice.attempts === 0 ? "queued" : "failed" },
              after: {
                ...said,
                error: outcome.error ?? "refused",
                status: status === "undelivered" ? "undelivered" : "failed",
                nextAttemptAt: status === "failed" ? nextAttemptAt.toISOString() : null,
              },
            },
        at,
      );
    });
    result[status === "sent" ? "sent" : status === "failed" ? "failed" : "undelivered"] += 1;
  }
  return result;
}

function outgoing(n: NoticeRecord, key: string) {
  return {
    noticeId: n.id,
    incidentId: n.incidentId,
    event: n.event,
    recipient: n.recipientName,
    subject: n.subject,
    text: n.text,
    units: n.units,
    ackUrl: ackUrlOf(ackTokenOf(key, n.id)),
  };
}
