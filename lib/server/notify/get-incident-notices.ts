import type { IncidentNotices } from "@/lib/contracts/notices";
import { nodeName } from "@/lib/domain/ids";
import { getDb, type Db } from "../repositories/database";
import { noticesOfIncident } from "../repositories/notices/notices";
import { requireIncident } from "../incidents/require-incident";
import { outstandingDeliveriesOf } from "./delivery-guard";
import { recipientsFrom } from "./incident-recipients";
import { incidentFacts } from "./notice-facts";
import { toTell } from "./queue-notices";
import { describeChannel } from "@/lib/contracts/people";
import { readNotifyConfig } from "./notify-config";
import { toNoticeView } from "./notices-view";

/** The Communicate step: who the incident reaches, every notice with its delivery and acknowledgement, and what holds the resolve. */
export async function getIncidentNotices(id: string, now = new Date(), db: Db = getDb()): Promise<IncidentNotices> {
  const incident = await requireIncident(db, id);
  const gathered = await incidentFacts(db, toTell(incident), now);
  const affected = new Set(gathered.facts.affected.filter((a) => a.units.length > 0).map((a) => a.nodeId));
  const [notices, outstanding, recipients] = await Promise.all([
    noticesOfIncident(db, id),
    outstandingDeliveriesOf(db, incident, now, gathered),
    recipientsFrom(db)([...affected]),
  ]);
  const config = readNotifyConfig();
  const fallback = config.defaultChannel ? describeChannel(config.defaultChannel) : null;
  return {
    recipients: recipients.map((r) => ({
      key: r.key,
      name: r.name,
      role: r.role,
      channel: r.channel ? describeChannel(r.channel) : fallback,
      reaches: [...new Set(r.nodeIds.filter((n) => affected.has(n)).map((n) => nodeName(n)))],
    })),
    notices: notices.map(toNoticeView),
    outstandingDeliveries: outstanding.map((o) => o.words),
    defaultChannel: fallback,
  };
}
