import type { SendNoticeBody } from "@/lib/contracts/notices";
import { ForbiddenError, InvalidFieldError } from "@/lib/domain/errors";
import { hasRole, type Actor } from "../auth/roles";
import { getDb, inTransaction, type Db } from "../repositories/database";
import { requireIncident } from "../incidents/require-incident";
import { recipientsFrom } from "./incident-recipients";
import { deliverSoon, prepareNotices, queueNotices, toTell } from "./queue-notices";

/**
 * On demand: the operator's edited message to the recipients the incident reaches (all, or those
 * named), queued like every notice — delivered off the request, retried, acknowledged by link.
 */
export async function sendNotice(id: string, body: SendNoticeBody, actor: Actor, now = new Date(), db: Db = getDb()) {
  // Another channel than the recipients' own is a commander's call: its acknowledgement links would
  // otherwise let anyone sending lift the resolve guard, which only a commander may override.
  if (body.channel && !hasRole(actor, "commander"))
    throw new ForbiddenError(`body.channel: sending to another channel than the recipients' own needs the commander role (${actor.id} is ${actor.role})`);
  const incident = await requireIncident(db, id, "add_note");
  const all = recipientsFrom(db);
  const recipientsOf = async (nodeIds: string[]) => {
    const found = await all(nodeIds);
    const unknown = (body.recipients ?? []).filter((k) => !found.some((r) => r.key === k));
    if (unknown.length > 0) throw new InvalidFieldError("body.recipients", `${unknown.join(", ")}: not a recipient this incident reaches`);
    return body.channel ? found.map((r) => ({ ...r, channel: body.channel! })) : found;
  };
  const prepared = await prepareNotices(db, toTell(incident), recipientsOf, { event: "manual", actor, now, text: body.text, only: body.recipients });
  const drafted = prepared(id);
  const auditSeq = await inTransaction(db, (tx) => queueNotices(tx, id, drafted, actor, now, body.text));
  deliverSoon();
  return { ok: true as const, queued: drafted.notices.length, auditSeq, unreachable: drafted.unreachable };
}
