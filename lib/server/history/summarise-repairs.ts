import { INTERVENTION_KINDS, type History, type RepairRow } from "@/lib/contracts/history";
import type { InterventionRecord } from "../repositories/repair/repair-history";
import { isoWeekOf, percentile } from "./time-stats";

const HOUR = 3_600_000;
/** Interventions that make the system believe something without the data proving it. */
export const RISKY_KINDS = ["unit.marked_success", "unit.skipped"] as const;

type Aggregates = Omit<History, "generatedAt" | "repairs" | "filters">;

/** The manager's charts and totals from the repair rows and the audit log's interventions. */
export function summariseRepairs(rows: RepairRow[], interventions: InterventionRecord[]): Aggregates {
  const resolutions = rows.map((r) => r.timeToResolutionMs).filter((v): v is number => v !== null);
  // Chart order and colours are fixed per kind (INTERVENTION_KINDS), so a kind keeps its colour whatever the filters.
  const present = new Set(interventions.map((i) => i.kind));
  const kinds = Object.keys(INTERVENTION_KINDS).filter((k) => present.has(k));
  return {
    totals: {
      repairs: rows.length,
      incidents: new Set(rows.map((r) => r.incident?.id).filter(Boolean)).size,
      medianResolutionMs: percentile(resolutions, 50),
      p90ResolutionMs: percentile(resolutions, 90),
      unitsRecomputed: rows.reduce((n, r) => n + r.unitsRecomputed, 0),
      fullRerunUnits: rows.reduce((n, r) => n + (r.fullRerunUnits ?? r.unitsRecomputed), 0),
      markSuccess: interventions.filter((i) => i.kind === "unit.marked_success").length,
      skips: interventions.filter((i) => i.kind === "unit.skipped").length,
    },
    weekly: weekly(rows),
    offenders: offenders(rows),
    compute: byWeek(
      rows.filter((r) => r.repairStartedAt !== null),
      (r) => new Date(r.repairStartedAt!),
    ).map(([week, items]) => ({
      week,
      unitsRecomputed: items.reduce((n, r) => n + r.unitsRecomputed, 0),
      // Without a plan the full re-run's cost is unknown: counted as the repair itself, never inflated.
      fullRerunUnits: items.reduce((n, r) => n + (r.fullRerunUnits ?? r.unitsRecomputed), 0),
    })),
    interventions: byWeek(interventions, (i) => i.at).map(([week, items]) => ({
      week,
      counts: Object.fromEntries(kinds.map((k) => [k, items.filter((i) => i.kind === k).length])),
    })),
    interventionKinds: kinds,
  };
}

function weekly(rows: RepairRow[]): Aggregates["weekly"] {
  const started = rows.filter((r) => r.repairStartedAt !== null);
  return byWeek(started, (r) => new Date(r.repairStartedAt!)).map(([week, items]) => {
    const res = items.map((r) => r.timeToResolutionMs).filter((v): v is number => v !== null);
    const hours = (v: number | null) => (v === null ? null : Math.round((v / HOUR) * 100) / 100);
    return { week, repairs: items.length, medianResolutionHours: hours(percentile(res, 50)), p90ResolutionHours: hours(percentile(res, 90)) };
  });
}

function offenders(rows: RepairRow[]): Aggregates["offenders"] {
  const byTask = new Map<string, { repairs: number; categories: Record<string, number> }>();
  for (const r of rows) {
    for (const task of r.tasks) {
      const entry = byTask.get(task) ?? { repairs: 0, categories: {} };
      entry.repairs += 1;
      for (const c of r.failureCategories.length ? r.failureCategories : ["unknown"]) entry.categories[c] = (entry.categories[c] ?? 0) + 1;
      byTask.set(task, entry);
    }
  }
  return [...byTask]
    .map(([task, v]) => ({ task, ...v }))
    .sort((a, b) => b.repairs - a.repairs || a.task.localeCompare(b.task))
    .slice(0, 10);
}

function byWeek<T>(items: T[], at: (t: T) => Date): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const week = isoWeekOf(at(item));
    groups.set(week, [...(groups.get(week) ?? []), item]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}
