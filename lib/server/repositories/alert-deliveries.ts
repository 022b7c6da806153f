import { describeTarget } from "../alerts/alert-config";
import type { Db } from "../db/client";

export interface DeliveryRecord {
  alertId: string;
  rule: string;
  url: string;
  tryNumber: number;
  status: "delivered" | "failed";
  httpStatus: number | null;
  error: string | null;
  body: string;
  at: Date;
}

export async function recordDelivery(db: Db, d: DeliveryRecord): Promise<void> {
  await db.alertDelivery.create({ data: d });
}

/** Alerts already delivered (a 2xx answer): the webhook hears each alert once. */
export async function deliveredAlertIds(db: Db, alertIds: string[]): Promise<Set<string>> {
  if (alertIds.length === 0) return new Set();
  const rows = await db.alertDelivery.findMany({ where: { alertId: { in: alertIds }, status: "delivered" }, select: { alertId: true } });
  return new Set(rows.map((r) => r.alertId));
}

export async function recentDeliveries(db: Db, limit: number) {
  const rows = await db.alertDelivery.findMany({ orderBy: { at: "desc" }, take: limit });
  return rows.map((r) => ({ id: r.id, alertId: r.alertId, rule: r.rule, url: describeTarget(r.url) ?? "", tryNumber: r.tryNumber, status: r.status === "delivered" ? "delivered" as const : "failed" as const, httpStatus: r.httpStatus, error: r.error, at: r.at.toISOString() }));
}
