/**
 * Alerts grouped by root cause: one page of alerts for one failure is noise (the demo's failed
 * stg_orders 2026-08-23 alone raised 11 — its task, every dataset it blocked, every period it left
 * open). Each alert is walked to its root causes (root-cause.ts); alerts sharing a root unit are
 * one group when they lead to the same root units, since repairing those is what clears them all.
 * An alert that reaches no root (a failed check with no unit) is a group of its own.
 *
 * Example: task_failed on stg_orders {08-17, 08-23}, missing_past_deadline on revenue_daily
 * {08-17, 08-23} and period_incomplete on fct_orders 2026-08 all lead to stg_orders 2026-08-17 and
 * 2026-08-23: one group. running_balance's alerts also lead to the duplicated 2026-08-10 (its
 * balance carries it forward): another group, named by all three.
 */
import { fnv1a64 } from "./fnv";
import type { RootCause } from "./root-cause";

export interface RootedAlert {
  readonly id: string;
  readonly severity: "critical" | "warning";
  readonly roots: readonly RootCause[];
}

export interface AlertGroupCore {
  /** Stable while the group has the same root units: "roots|<digest>", or "alert|<id>" for an alert with none. */
  readonly id: string;
  readonly alertIds: readonly string[];
  /** The group's root units, merged per (task, dataset), in the order first met. */
  readonly roots: readonly RootCause[];
  /** The most severe of its alerts'. */
  readonly severity: "critical" | "warning";
}

const unitId = (r: RootCause, key: string) => `${r.datasetNodeId}\u0000${key}`;

/**
 * One group per root-cause set: alerts whose walks end at exactly the same root units. (Not
 * connected components: a running balance waiting on three bad days would pull every alert of
 * each day into one group, hiding which repair clears what.) Groups with a critical alert first,
 * then the largest.
 */
export function groupAlertsByRootCause(alerts: readonly RootedAlert[]): AlertGroupCore[] {
  const bySet = new Map<string, RootedAlert[]>();
  for (const a of alerts) {
    const keys = a.roots.flatMap((r) => r.units.map((u) => unitId(r, u.key))).sort();
    const id = keys.length > 0 ? `roots|${fnv1a64([...new Set(keys)].join("\n"))}` : `alert|${a.id}`;
    bySet.set(id, [...(bySet.get(id) ?? []), a]);
  }
  const groups = [...bySet].map(([id, members]): AlertGroupCore => ({
    id,
    alertIds: members.map((m) => m.id),
    roots: mergeRoots(members.flatMap((m) => m.roots)),
    severity: members.some((m) => m.severity === "critical") ? "critical" : "warning",
  }));
  return groups.sort((a, b) => (a.severity === b.severity ? b.alertIds.length - a.alertIds.length : a.severity === "critical" ? -1 : 1));
}

function mergeRoots(roots: readonly RootCause[]): RootCause[] {
  const byDataset = new Map<
    string,
    { taskNodeId: RootCause["taskNodeId"]; datasetNodeId: RootCause["datasetNodeId"]; units: Map<string, RootCause["units"][number]> }
  >();
  for (const r of roots) {
    const held = byDataset.get(r.datasetNodeId) ?? { taskNodeId: r.taskNodeId, datasetNodeId: r.datasetNodeId, units: new Map() };
    for (const u of r.units) held.units.set(u.key, u);
    byDataset.set(r.datasetNodeId, held);
  }
  return [...byDataset.values()].map((r) => ({
    taskNodeId: r.taskNodeId,
    datasetNodeId: r.datasetNodeId,
    units: [...r.units.values()].sort((a, b) => a.key.localeCompare(b.key)),
  }));
}
