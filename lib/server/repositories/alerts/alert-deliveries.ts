import crypto from "node:crypto";
import { describeTarget } from "../../alerts/alert-config";
import type { Db } from "../database";
import { insertNew, type Column } from "../sql/bulk-sql";
import { prismaOf } from "../prisma-handle";

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
  await prismaOf(db).alertDelivery.create({ data: d });
}

/** Alerts already delivered (a 2xx answer): the webhook hears each alert once. */
export async function deliveredAlertIds(db: Db, alertIds: string[]): Promise<Set<string>> {
  if (alertIds.length === 0) return new Set();
  // Usually fewer deliveries were made than alerts stand (no webhook, or most already resolved):
  // then reading every delivered row is one short query where a list of tens of thousands of ids
  // would be several. Only when there are more is the list asked for.
  const all = await prismaOf(db).alertDelivery.findMany({ where: { status: "delivered" }, select: { alertId: true }, take: alertIds.length + 1 });
  if (all.length <= alertIds.length) {
    const delivered = new Set(all.map((r) => r.alertId));
    return new Set(alertIds.filter((id) => delivered.has(id)));
  }
  const rows = await prismaOf(db).alertDelivery.findMany({ where: { alertId: { in: alertIds }, status: "delivered" }, select: { alertId: true } });
  return new Set(rows.map((r) => r.alertId));
}

export async function recentDeliveries(db: Db, limit: number) {
  const rows = await prismaOf(db).alertDelivery.findMany({ orderBy: { at: "desc" }, take: limit });
  return rows.map((r) => ({
    id: r.id,
    alertId: r.alertId,
    rule: r.rule,
    url: describeTarget(r.url) ?? "",
    tryNumber: r.tryNumber,
    status: r.status === "delivered" ? ("delivered" as const) : ("failed" as const),
    httpStatus: r.httpStatus,
    error: r.error,
    at: r.at.toISOString(),
  }));
}

/**
 * A send claimed this long ago and never finished (its instance died) may be claimed again:
 * longer than the `alerts-deliver` job may run (600 s), so a live sender is never doubled.
 */
const ABANDONED_AFTER_MS = 15 * 60_000;
const SEND_COLUMNS: Column[] = [
  ...["id", "alertId", "receiver", "status", "claimedBy"].map((name): Column => ({ name, type: "text" })),
  { name: "claimedAt", type: "timestamp" },
];

const sendId = (alertId: string, url: string) => `as_${crypto.createHash("sha256").update(`${alertId}\u0000${url}`).digest("hex").slice(0, 40)}`;

/**
 * Claims the delivery of one alert to one receiver for `instance`: true for exactly one of any
 * number of concurrent claimers. A first claim inserts (ON CONFLICT DO NOTHING); a send that
 * failed, or was abandoned by a dead instance, is claimed again by a compare-and-swap.
 */
export async function claimAlertSend(db: Db, alertId: string, url: string, instance: string): Promise<boolean> {
  const id = sendId(alertId, url);
  const at = new Date(); // the claim's own time, not the delivery round's
  return prismaOf(db).$transaction(async (tx) => {
    const inserted = await insertNew(
      tx,
      "AlertSend",
      SEND_COLUMNS,
      [{ id, alertId, receiver: describeTarget(url) ?? "", status: "sending", claimedBy: instance, claimedAt: at }],
      "id",
    );
    if (inserted.length === 1) return true;
    const { count } = await prismaOf(tx).alertSend.updateMany({
      where: { id, OR: [{ status: "failed" }, { status: "sending", claimedAt: { lt: new Date(at.getTime() - ABANDONED_AFTER_MS) } }] },
      data: { status: "sending", claimedBy: instance, claimedAt: at },
    });
    return count === 1;
  });
}

export async function finishAlertSend(db: Db, alertId: string, url: string, instance: string, delivered: boolean): Promise<void> {
  await prismaOf(db).alertSend.updateMany({
    where: { id: sendId(alertId, url), claimedBy: instance, status: "sending" },
    data: { status: delivered ? "delivered" : "failed" },
  });
}
