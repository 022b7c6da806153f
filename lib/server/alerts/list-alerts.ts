import type { PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet, toKeyRanges } from "@/lib/domain/unit-set";
import type { Alerts, AlertsQuery } from "@/lib/contracts/alerts";
import { getDb, type Db } from "../repositories/database";
import { deliveredAlertIds, recentDeliveries } from "../repositories/alerts/alert-deliveries";
import { describeTarget, readAlertConfig } from "./alert-config";
import { hasRole, type Actor } from "../auth/roles";
import { originOnly } from "../http/redact";
import { evaluateAlertsWithStatus } from "./evaluate-alerts-now";
import { groupAlertsKept } from "./group-alerts";
import { loadLineageGraph } from "../lineage/load-lineage-graph";
import { pairsHeldByOpenIncidents } from "../repositories/incidents/incidents";

/** The alerts page: task and data alerts now, and the webhook's recent tries. */
/** An alert row is a summary however many units fire it; the matrix and the incident hold them all. */
const MAX_UNITS = 50;
const MAX_DETAILS = 20;

/** The units as the new-incident form takes them: runs of consecutive keys written "from..to". */
function unitsParam(units: string[], space: PartitionSpace | undefined): string {
  if (!space) return units.join(",");
  const ordinals = units.map((k) => space.validate(k)).flatMap((v) => (v.valid ? [v.ordinal] : []));
  if (ordinals.length !== units.length) return units.join(",");
  return toKeyRanges(UnitSet.fromOrdinals(ordinals), space)
    .map(([from, to]) => (from === to ? from : `${from}..${to}`))
    .join(",");
}

/**
 * The webhook's address (and each delivery's) in full for admins only: Slack, Discord and Teams
 * keep the webhook's token in its path; anyone else sees its scheme and host.
 */
export async function listAlerts(
  now: Date,
  db: Db = getDb(),
  query: AlertsQuery = { limit: 500 },
  reader: Pick<Actor, "role"> = { role: "viewer" },
): Promise<Alerts> {
  const shownUrl = (url: string | null) => (url === null ? null : hasRole(reader, "admin") ? describeTarget(url) : originOnly(url));
  const config = readAlertConfig();
  const { alerts, states, spaceOf, snapshot, deliveries: sentOutside } = await evaluateAlertsWithStatus(db, now, config);
  const [delivered, deliveries, lineage, openIncidents] = await Promise.all([
    deliveredAlertIds(
      db,
      alerts.map((a) => a.id),
    ),
    recentDeliveries(db, 50),
    loadLineageGraph(db, now),
    pairsHeldByOpenIncidents(db),
  ]);
  const task = alerts.filter((a) => a.source === "task").length;
  const shown = alerts.slice(0, query.limit);
  return {
    generatedAt: now.toISOString(),
    states,
    counts: { task, data: alerts.length - task, undelivered: alerts.filter((a) => !delivered.has(a.id)).length },
    omitted: alerts.length - shown.length,
    defaultGraceHours: config.defaultGraceMs / 3_600_000,
    webhook: { configured: config.webhookUrl !== null, target: shownUrl(config.webhookUrl) },
    alerts: shown.map((a) => ({
      ...a,
      units: a.units.slice(0, MAX_UNITS),
      unitCount: a.units.length,
      details: a.details.slice(0, MAX_DETAILS),
      detailsOmitted: Math.max(0, a.details.length - MAX_DETAILS),
      incidentHref: a.taskNodeId
        ? `/incidents/new?node=${encodeURIComponent(a.taskNodeId)}&units=${encodeURIComponent(unitsParam(a.units, spaceOf(a.datasetNodeId)))}`
        : null,
      delivered: delivered.has(a.id),
    })),
    groups: groupAlertsKept(alerts, { ...lineage, snapshot, deliveries: sentOutside, openIncidents }),
    deliveries: deliveries.map((d) => ({ ...d, url: d.url === "" ? "" : (shownUrl(d.url) ?? "") })),
  };
}
