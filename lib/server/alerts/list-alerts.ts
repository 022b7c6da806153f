import type { Alerts } from "@/lib/contracts/alerts";
import { getDb, type Db } from "../db/client";
import { deliveredAlertIds, recentDeliveries } from "../repositories/alert-deliveries";
import { describeTarget, readAlertConfig } from "./alert-config";
import { evaluateAlertsWithStatus } from "./evaluate-alerts-now";

/** The alerts page: task and data alerts now, and the webhook's recent tries. */
export async function listAlerts(now: Date, db: Db = getDb()): Promise<Alerts> {
  const config = readAlertConfig();
  const { alerts, states } = await evaluateAlertsWithStatus(db, now, config);
  const [delivered, deliveries] = await Promise.all([deliveredAlertIds(db, alerts.map((a) => a.id)), recentDeliveries(db, 50)]);
  return {
    generatedAt: now.toISOString(),
    states,
    defaultGraceHours: config.defaultGraceMs / 3_600_000,
    webhook: { configured: config.webhookUrl !== null, target: describeTarget(config.webhookUrl) },
    alerts: alerts.map((a) => ({
      ...a,
      incidentHref: a.taskNodeId ? `/incidents/new?node=${encodeURIComponent(a.taskNodeId)}&units=${encodeURIComponent(a.units.join(","))}` : null,
      delivered: delivered.has(a.id),
    })),
    deliveries,
  };
}
