/**
 * The resolve guard of the communication step (seed 001: "a number that has already been read …
 * or exported into a spreadsheet is not fixed by re-running a DAG"): an incident may not resolve
 * while a unit its closure reaches was delivered outside before the repair and has been neither
 * delivered again since the repair started nor acknowledged by whoever reads it.
 *
 *   weekly_revenue_export 2026-W34 sent to finance-ledger 2026-08-24 06:00   (before the repair)
 *   repair #1 started 2026-12-06 05:10
 *     - no later delivery of 2026-W34, no acknowledged notice naming it  → outstanding: refuse
 *     - sent again 2026-12-06 05:12 (a replay with its idempotency key)   → settled
 *     - the finance team acknowledged the notice naming 2026-W34          → settled
 */

export interface SentUnit {
  /** The delivering task's node and the dataset it writes: a notice naming either names the delivery. */
  nodeIds: readonly string[];
  unitKey: string;
  destination: string;
  sentAt: Date;
}

export interface OutstandingDelivery extends SentUnit {
  /** How the refusal names it: "weekly_revenue_export 2026-W34 (sent to finance-ledger on 2026-08-24 06:00 UTC)". */
  words: string;
}

/**
 * The deliveries that hold the resolve. `deliveries`: every delivery of a unit the closure reaches,
 * oldest first; `repairStartedAt`: when the incident's first repair started (null: none ran, so
 * nothing sent since counts as a repaired copy); `acknowledged(nodeId, unitKey)`: an acknowledged
 * notice of this incident named that unit.
 */
export function outstandingDeliveries(
  deliveries: readonly SentUnit[],
  repairStartedAt: Date | null,
  acknowledged: (nodeId: string, unitKey: string) => boolean,
  nameOf: (nodeId: string) => string,
): OutstandingDelivery[] {
  const byUnit = new Map<string, SentUnit[]>();
  for (const d of deliveries) {
    const k = JSON.stringify([d.nodeIds[0], d.unitKey]);
    byUnit.set(k, [...(byUnit.get(k) ?? []), d]);
  }
  const out: OutstandingDelivery[] = [];
  for (const sent of byUnit.values()) {
    const redelivered = repairStartedAt !== null && sent.some((d) => d.sentAt.getTime() >= repairStartedAt.getTime());
    if (redelivered) continue;
    const last = sent.reduce((a, b) => (b.sentAt > a.sentAt ? b : a));
    if (last.nodeIds.some((n) => acknowledged(n, last.unitKey))) continue;
    const at = `${last.sentAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
    out.push({ ...last, words: `${nameOf(last.nodeIds[0]!)} ${last.unitKey} (sent to ${last.destination} on ${at})` });
  }
  return out;
}
