import type { DeliverResult } from "@/lib/contracts/alerts";
import { getDb, type Db } from "../repositories/database";
import { RefusedError } from "@/lib/domain/errors";
import { claimAlertSend, deliveredAlertIds, finishAlertSend, recordDelivery } from "../repositories/alerts/alert-deliveries";
import { thisOwner } from "../runtime/repair-lease";
import { describeTarget, readAlertConfig, type AlertConfig } from "./alert-config";
import { evaluateAlertsNow } from "./evaluate-alerts-now";
import { DEFAULT_RETRY, postWithRetries, type RetryOptions } from "./post-with-retries";

/**
 * Sends every alert the webhook has not yet acknowledged, one JSON body per alert, retried with
 * backoff; every try is an AlertDelivery row. An alert acknowledged once is not sent again (its
 * id is stable while the same rule fires for the same units), and an alert being sent by another
 * console instance at this moment is skipped: each send is claimed first (AlertSend), so
 * however many consoles deliver at once — the `alerts-deliver` job, an operator's POST — the
 * webhook hears each alert once.
 */
export async function deliverAlerts(
  now: Date,
  db: Db = getDb(),
  config: AlertConfig = readAlertConfig(),
  retry: RetryOptions = DEFAULT_RETRY,
): Promise<DeliverResult> {
  const url = config.webhookUrl;
  if (url === null) throw new RefusedError("no webhook configured: set REPARO_ALERT_WEBHOOK_URL");
  const alerts = await evaluateAlertsNow(db, now, config);
  const done = await deliveredAlertIds(
    db,
    alerts.map((a) => a.id),
  );
  const result: DeliverResult = { sent: 0, failed: 0, skipped: done.size, tries: 0 };
  for (const alert of alerts.filter((a) => !done.has(a.id))) {
    if (!(await claimAlertSend(db, alert.id, url, thisOwner().instance))) {
      result.skipped += 1;
      continue;
    }
    const body = JSON.stringify({
      type: "reparo.alert",
      sentAt: now.toISOString(),
      alert: {
        ...alert,
        incidentHref: alert.taskNodeId
          ? `/incidents/new?node=${encodeURIComponent(alert.taskNodeId)}&units=${encodeURIComponent(alert.units.join(","))}`
          : null,
      },
    });
    const outcome = await postWithRetries(
      url,
      body,
      retry,
      async (t) => {
        result.tries += 1;
        // Only the target without credentials or query string is kept: deliveries are shown to viewers.
        await recordDelivery(db, {
          alertId: alert.id,
          rule: alert.rule,
          url: describeTarget(url) ?? "",
          tryNumber: t.tryNumber,
          status: t.ok ? "delivered" : "failed",
          httpStatus: t.httpStatus,
          error: t.error,
          body,
          at: new Date(),
        });
      },
      config.webhookSecret,
    );
    await finishAlertSend(db, alert.id, url, thisOwner().instance, outcome.ok);
    if (outcome.ok) result.sent += 1;
    else result.failed += 1;
  }
  return result;
}

/** The `alerts-deliver` job: delivers when a webhook is configured, and does nothing otherwise. */
export async function deliverAlertsInBackground(now: Date, db: Db = getDb()): Promise<DeliverResult | null> {
  const config = readAlertConfig();
  if (config.webhookUrl === null) return null;
  return deliverAlerts(now, db, config);
}
