import type { AuditTarget } from "@/lib/contracts/audit";
import type { NoticeEvent, NoticePlan } from "@/lib/domain/notice-draft";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { runningJobQueue } from "../jobs/job-queue";
import { log } from "../observability/log";
import type { Db, Tx } from "../repositories/database";
import { insertNotices } from "../repositories/notices/notices";
import { severityInForce, type IncidentRecord } from "../repositories/incidents/incidents";
import { ackKey } from "./ack-token";
import { draftNotices, type DraftedNotices, type NoticeRecipientInput } from "./draft-notices";
import { incidentFacts } from "./notice-facts";
import { readNotifyConfig } from "./notify-config";

export interface IncidentToTell {
  id: string | null;
  title: string;
  detectedAt: Date;
  failedPairs: AuditTarget[];
  /** The level in force (SEV1–SEV4), said in the subject; null: none assessed. */
  severity: string | null;
}

/** An incident as its notices tell it: the severity in force (set over computed), in words. */
export function toTell(incident: Pick<IncidentRecord, "id" | "title" | "detectedAt" | "failedPairs" | "severity">): IncidentToTell {
  return { ...incident, severity: incident.severity ? severityInForce(incident.severity) : null };
}

/** Drafts for an incident whose id the transaction will know (an incident being opened has none yet). */
export type PreparedNotices = (incidentId: string) => DraftedNotices;

/**
 * Everything a notice needs that is read outside the incident's transaction: the facts (closure,
 * deliveries, plan), who they reach and the acknowledgement key. The caller drafts in its
 * transaction with the incident's id, so the notices commit with the change they tell of.
 */
export async function prepareNotices(
  db: Db,
  incident: IncidentToTell,
  recipientsOf: (nodeIds: string[]) => Promise<NoticeRecipientInput[]>,
  o: { event: NoticeEvent; actor: Actor; now: Date; text?: string; closedReason?: string | null; only?: readonly string[]; plan?: NoticePlan },
): Promise<PreparedNotices> {
  const gathered = await incidentFacts(db, incident, o.now);
  // A plan being confirmed is not stored yet when its notice is drafted: the caller says it.
  const facts = o.plan ? { ...gathered.facts, plan: o.plan } : gathered.facts;
  const all = await recipientsOf(facts.affected.map((a) => a.nodeId));
  const recipients = o.only ? all.filter((r) => o.only!.includes(r.key)) : all;
  const config = readNotifyConfig();
  const key = await ackKey(db);
  return (incidentId) =>
    draftNotices(facts, recipients, {
      incidentId,
      event: o.event,
      closedReason: o.closedReason,
      text: o.text,
      config,
      ackKey: key,
      actor: o.actor.id,
      now: o.now,
    });
}

/**
 * For the incident's own moves (opened, plan confirmed, resolved, abandoned): telling people never
 * stops the move itself. A failure to gather the facts is logged and the move goes on untold —
 * the Communicate step then shows no notice for it, and an operator sends one by hand.
 */
export async function prepareNoticesForMove(
  db: Db,
  incident: IncidentToTell,
  recipientsOf: (nodeIds: string[]) => Promise<NoticeRecipientInput[]>,
  o: { event: NoticeEvent; actor: Actor; now: Date; closedReason?: string | null; plan?: NoticePlan },
): Promise<PreparedNotices | null> {
  try {
    return await prepareNotices(db, incident, recipientsOf, o);
  } catch (e) {
    log.error(`notices for ${incident.id ?? "a new incident"} (${o.event}) not drafted: ${(e as Error).message}`);
    return null;
  }
}

/** Writes the notices and their record in the caller's transaction. */
export async function queueNotices(tx: Tx, incidentId: string, drafted: DraftedNotices, actor: Actor, now: Date, text?: string): Promise<number | null> {
  if (drafted.notices.length === 0) return null;
  await insertNotices(tx, drafted.notices);
  const names = drafted.notices.map((n) => `${n.recipientName} (${n.channelDescribed})`);
  const entry = await appendAudit(
    tx,
    {
      kind: "notice.queued",
      actor: actor.id,
      actorRole: actor.role,
      reason: `to tell ${names.join(", ")}`,
      incidentId,
      before: null,
      after: {
        noticeIds: drafted.notices.map((n) => n.id),
        recipients: drafted.notices.map((n) => n.recipientName),
        event: drafted.notices[0]!.event,
        ...(text ? { text } : {}),
      },
    },
    now,
  );
  return entry.seq;
}

/** After the commit: deliver now rather than at the job's next period (the period is the net for a console that stopped). */
export function deliverSoon(): void {
  runningJobQueue()
    ?.send("notices-deliver", {}, { key: "notices-deliver" })
    .catch(() => undefined);
}
