import crypto from "node:crypto";
import type { Channel } from "@/lib/contracts/people";
import { draftNotice, type NoticeEvent } from "@/lib/domain/notice-draft";
import type { NewNotice } from "../repositories/notices/notices";
import type { IncidentFacts } from "./notice-facts";
import { ackTokenOf, hashAckToken } from "./ack-token";
import { describeChannel } from "@/lib/contracts/people";
import type { NotifyConfig } from "./notify-config";

/** Who is told (lib/server/people/recipients.ts answers it from the lineage and the declarations). */
export interface NoticeRecipientInput {
  key: string;
  name: string;
  role: "owner" | "consumer";
  channel: Channel | null;
  nodeIds: string[];
}

export interface DraftedNotices {
  notices: NewNotice[];
  /** Recipients the incident reaches who have no channel and no default is set: shown, not silently dropped. */
  unreachable: string[];
}

/**
 * One notice per recipient the incident reaches, drafted from its facts (lib/domain/notice-draft),
 * through the recipient's channel or the default one. `text`, when given, is the operator's edited
 * message and replaces the draft for every recipient (still only sent to those it reaches).
 */
export function draftNotices(
  facts: IncidentFacts,
  recipients: readonly NoticeRecipientInput[],
  o: { incidentId: string; event: NoticeEvent; closedReason?: string | null; text?: string; config: NotifyConfig; ackKey: string; actor: string; now: Date },
): DraftedNotices {
  const notices: NewNotice[] = [];
  const unreachable: string[] = [];
  for (const r of recipients) {
    const draft = draftNotice({ ...facts, event: o.event, closedReason: o.closedReason ?? null }, r);
    if (draft === null) continue;
    const channel = r.channel ?? o.config.defaultChannel;
    if (channel === null) {
      unreachable.push(r.name);
      continue;
    }
    const id = `ntc_${crypto.randomUUID()}`;
    notices.push({
      id,
      incidentId: o.incidentId,
      recipientKey: r.key,
      recipientName: r.name,
      channel,
      channelDescribed: describeChannel(channel),
      event: o.event,
      subject: draft.subject,
      units: draft.units,
      text: o.text ?? draft.text,
      ackTokenHash: hashAckToken(ackTokenOf(o.ackKey, id)),
      createdBy: o.actor,
      createdAt: o.now,
    });
  }
  return { notices, unreachable };
}
