import { z } from "zod";
import { ChannelSchema, type Channel } from "@/lib/contracts/people";
import type { AffectedNode, NoticeEvent } from "@/lib/domain/notice-draft";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export const NOTICE_STATUSES = ["queued", "sending", "sent", "failed", "undelivered"] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export interface NewNotice {
  id: string;
  incidentId: string;
  recipientKey: string;
  recipientName: string;
  channel: Channel;
  channelDescribed: string;
  event: NoticeEvent;
  subject: string;
  units: AffectedNode[];
  text: string;
  ackTokenHash: string;
  createdBy: string;
  createdAt: Date;
}

export interface NoticeRecord {
  id: string;
  incidentId: string;
  recipientKey: string;
  recipientName: string;
  channelKind: Channel["kind"];
  channel: string;
  target: Channel;
  event: string;
  subject: string;
  units: AffectedNode[];
  text: string;
  status: NoticeStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  createdBy: string;
  createdAt: Date;
}

const UnitsSchema = z.array(z.object({ nodeId: z.string(), name: z.string(), units: z.array(z.tuple([z.string(), z.string()])) }));

type Row = Awaited<ReturnType<ReturnType<typeof prismaOf>["notice"]["findFirstOrThrow"]>>;

function toRecord(r: Row): NoticeRecord {
  return {
    id: r.id,
    incidentId: r.incidentId,
    recipientKey: r.recipientKey,
    recipientName: r.recipientName,
    channelKind: ChannelSchema.parse(JSON.parse(r.target)).kind,
    channel: r.channel,
    target: ChannelSchema.parse(JSON.parse(r.target)),
    event: r.event,
    subject: r.subject,
    units: UnitsSchema.parse(JSON.parse(r.units)),
    text: r.text,
    status: z.enum(NOTICE_STATUSES).parse(r.status),
    attempts: r.attempts,
    lastError: r.lastError,
    nextAttemptAt: r.status === "queued" || r.status === "failed" ? r.nextAttemptAt : null,
    sentAt: r.sentAt,
    acknowledgedAt: r.acknowledgedAt,
    acknowledgedBy: r.acknowledgedBy,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
  };
}

/** Writes notices in the caller's transaction: they exist exactly when the incident change they tell of does. */
export async function insertNotices(tx: Tx, notices: readonly NewNotice[]): Promise<void> {
  for (const n of notices)
    await prismaOf(tx).notice.create({
      data: {
        id: n.id,
        incidentId: n.incidentId,
        recipientKey: n.recipientKey,
        recipientName: n.recipientName,
        channelKind: n.channel.kind,
        channel: n.channelDescribed,
        target: JSON.stringify(n.channel),
        event: n.event,
        units: JSON.stringify(n.units),
        subject: n.subject,
        text: n.text,
        status: "queued",
        nextAttemptAt: n.createdAt,
        ackTokenHash: n.ackTokenHash,
        createdBy: n.createdBy,
        createdAt: n.createdAt,
      },
    });
}

export async function noticesOfIncident(db: Db | Tx, incidentId: string): Promise<NoticeRecord[]> {
  const rows = await prismaOf(db).notice.findMany({ where: { incidentId }, orderBy: [{ createdAt: "asc" }, { recipientKey: "asc" }] });
  return rows.map(toRecord);
}

export async function findNotice(db: Db | Tx, id: string): Promise<NoticeRecord | null> {
  const row = await prismaOf(db).notice.findUnique({ where: { id } });
  return row ? toRecord(row) : null;
}

export async function findNoticeByTokenHash(db: Db | Tx, hash: string): Promise<NoticeRecord | null> {
  const row = await prismaOf(db).notice.findUnique({ where: { ackTokenHash: hash } });
  return row ? toRecord(row) : null;
}

/** Notices due for a try now: queued or failed with their next try passed, or claimed by a sender whose claim lapsed. */
export async function dueNoticeIds(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await prismaOf(db).notice.findMany({
    where: {
      OR: [
        { status: { in: ["queued", "failed"] }, nextAttemptAt: { lte: now } },
        { status: "sending", claimedUntil: { lt: now } },
      ],
    },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * Claims one notice's next try for `instance` until `until`: a compare-and-set on the row, so of
 * any number of consoles asking at once exactly one gets it (a notice is delivered once).
 */
export async function claimNotice(db: Db, id: string, instance: string, now: Date, until: Date): Promise<NoticeRecord | null> {
  const { count } = await prismaOf(db).notice.updateMany({
    where: {
      id,
      OR: [
        { status: { in: ["queued", "failed"] }, nextAttemptAt: { lte: now } },
        { status: "sending", claimedUntil: { lt: now } },
      ],
    },
    data: { status: "sending", claimedBy: instance, claimedUntil: until },
  });
  return count === 1 ? findNotice(db, id) : null;
}

/** A try's outcome, written only by the instance holding the claim (false: it lapsed and another took it). */
export async function finishNoticeTry(
  tx: Tx,
  id: string,
  instance: string,
  outcome: { status: "sent" | "failed" | "undelivered"; attempts: number; lastError: string | null; nextAttemptAt: Date; sentAt: Date | null },
): Promise<boolean> {
  const { count } = await prismaOf(tx).notice.updateMany({
    where: { id, status: "sending", claimedBy: instance },
    data: { ...outcome, claimedBy: null, claimedUntil: null },
  });
  return count === 1;
}

/** Records the acknowledgement once: false when it was already acknowledged. */
export async function acknowledgeNotice(tx: Tx, id: string, by: string, at: Date): Promise<boolean> {
  const { count } = await prismaOf(tx).notice.updateMany({ where: { id, acknowledgedAt: null }, data: { acknowledgedAt: at, acknowledgedBy: by } });
  return count === 1;
}
