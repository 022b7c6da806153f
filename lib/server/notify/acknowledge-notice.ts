import type { AckView } from "@/lib/contracts/notices";
import { NotFoundError } from "@/lib/domain/errors";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, inTransaction, type Db } from "../repositories/database";
import { acknowledgeNotice as recordAck, findNoticeByTokenHash, type NoticeRecord } from "../repositories/notices/notices";
import { hashAckToken } from "./ack-token";

async function noticeOfToken(db: Db, token: string): Promise<NoticeRecord> {
  const notice = await findNoticeByTokenHash(db, hashAckToken(token));
  if (notice === null) throw new NotFoundError("no notice has this acknowledgement link");
  return notice;
}

const view = (n: NoticeRecord): AckView => ({
  recipientName: n.recipientName,
  subject: n.subject,
  text: n.text,
  sentAt: n.sentAt?.toISOString() ?? null,
  acknowledgedAt: n.acknowledgedAt?.toISOString() ?? null,
  acknowledgedBy: n.acknowledgedBy,
});

/** What the link acknowledges (the message as it was sent to this recipient, nothing else of the incident). */
export async function readAcknowledgement(token: string, db: Db = getDb()): Promise<AckView> {
  return view(await noticeOfToken(db, token));
}

/**
 * Records who acknowledged the notice — the name typed, else the signed-in user — on the notice and
 * in the audit log, in one transaction. The link is the credential: whoever holds it was sent it.
 * Acknowledging again changes nothing and says who did first.
 */
export async function acknowledgeNotice(token: string, name: string | undefined, actor: Actor, now = new Date(), db: Db = getDb()): Promise<AckView> {
  const notice = await noticeOfToken(db, token);
  // The name typed says who read it (a team's shared link is followed by one of them); the audit
  // entry's actor stays whoever the request was: the signed-in user, or the link.
  const by = name ?? (actor.source === "anonymous" ? `${notice.recipientName} (by link)` : actor.id);
  await inTransaction(db, async (tx) => {
    if (!(await recordAck(tx, notice.id, by, now))) return;
    await appendAudit(
      tx,
      {
        kind: "notice.acknowledged",
        actor: actor.source === "anonymous" ? `ack:${by}` : actor.id,
        actorRole: actor.source === "anonymous" ? "recipient" : actor.role,
        reason: `${by} acknowledged the notice to ${notice.recipientName}`,
        incidentId: notice.incidentId,
        targets: notice.units.map((u) => ({ nodeId: u.nodeId, units: u.units.map(([a, b]) => (a === b ? a : `${a}..${b}`)) })),
        before: null,
        after: { noticeId: notice.id, recipient: notice.recipientName, by },
      },
      now,
    );
  });
  return readAcknowledgement(token, db);
}
