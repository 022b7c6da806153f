import { alertsSteadyUntil, evaluateAlerts, type Alert, type AlertDatasetInput, type DeliveredUnit, type FailedCheck } from "@/lib/domain/alert-rules";
import { allDeliveries, type DeliveryRecord } from "../repositories/ledger/external-deliveries";
import { listEdgesAt } from "../repositories/lineage/catalog-reads";
import { failingChecks } from "../repositories/ledger/failed-attempts";
import type { Db } from "../repositories/database";
import type { UnitStateFacts } from "@/lib/domain/unit-state";
import type { StatesStatus } from "@/lib/contracts/units";
import { getUnitStateSnapshot, NOT_EXPECTED, statusOf, type DatasetStateCodes, type UnitStateSnapshot } from "../units/state-service";
import type { AlertConfig } from "./alert-config";
import type { PartitionSpace } from "@/lib/domain/partitions";

export interface EvaluatedAlerts {
  alerts: EvaluatedAlert[];
  states: StatesStatus;
  /** A dataset's partition space by node id (to write an alert's units as runs of keys). */
  spaceOf: (datasetNodeId: string) => PartitionSpace | undefined;
  /** The states they were judged from, and the deliveries outside (grouping reads the same). */
  snapshot: UnitStateSnapshot;
  deliveries: DeliveryRecord[];
}

export interface EvaluatedAlert extends Alert {
  datasetName: string;
  pipeline: string | null;
}

/**
 * Every alert the ledger raises right now, from the one unit-state service the matrix reads:
 * only units that are not healthy can fire a rule, so only they are looked at.
 */
export async function evaluateAlertsNow(db: Db, now: Date, config: AlertConfig): Promise<EvaluatedAlert[]> {
  return (await evaluateAlertsWithStatus(db, now, config)).alerts;
}

/** The alerts and where the unit states they come from stand (a first computation may be running). */
export async function evaluateAlertsWithStatus(db: Db, now: Date, config: AlertConfig): Promise<EvaluatedAlerts> {
  const [snapshot, checks, edges, deliveries] = await Promise.all([getUnitStateSnapshot(db, now), failingChecks(db), listEdgesAt(db, now), allDeliveries(db)]);
  const states = snapshot.datasets;
  const readers = new Map<string, string[]>();
  for (const e of edges) if (e.direction === "read") readers.set(e.taskId, [...(readers.get(e.taskId) ?? []), e.datasetId]);
  const checkedBy = new Map<string, FailedCheck[]>();
  for (const c of checks) {
    for (const datasetId of readers.get(c.taskId) ?? []) {
      checkedBy.set(datasetId, [...(checkedBy.get(datasetId) ?? []), { check: c.nodeId, message: c.message, at: c.at.getTime() }]);
    }
  }
  const spaceByNode = new Map(states.map((d) => [d.dataset.nodeId, d.space]));
  const sentBy = new Map<string, DeliveryRecord[]>();
  for (const x of deliveries) sentBy.set(x.taskId, [...(sentBy.get(x.taskId) ?? []), x]);
  const alerts = states.flatMap((d) =>
    alertsOf(d, config, checkedBy.get(d.dataset.id) ?? [], deliveredOf(d, sentBy.get(d.writer?.id ?? "") ?? []), now.getTime()),
  );
  return { alerts, states: await statusOf(db, snapshot, now), spaceOf: (node) => spaceByNode.get(node), snapshot, deliveries };
}

// Per version of a dataset's states: its alerts, kept while the same rules would give the same
// answer — the same grace, tolerance, writer and failed checks, and no deadline of its units or
// periods reached since (alertsSteadyUntil). A read then judges only the datasets a write or the
// clock changed, not every problem unit of every dataset (at 10,950,000 units that was ~1 s).
const ALERTS = new WeakMap<DatasetStateCodes, { key: string; from: number; until: number | null; alerts: EvaluatedAlert[] }>();

function alertsOf(d: DatasetStateCodes, config: AlertConfig, failedChecks: FailedCheck[], delivered: DeliveredUnit[], now: number): EvaluatedAlert[] {
  const input = { ...toInput(d, config), failedChecks, delivered };
  const key = JSON.stringify([input.graceMs, input.tolerance, input.taskNodeId, d.dataset.name, d.dataset.pipeline, failedChecks, delivered]);
  const kept = ALERTS.get(d);
  if (kept && kept.key === key && now >= kept.from && (kept.until === null || now < kept.until)) return kept.alerts;
  const alerts = evaluateAlerts([input], now).map((a) => ({ ...a, datasetName: d.dataset.name, pipeline: d.dataset.pipeline }));
  ALERTS.set(d, { key, from: now, until: alertsSteadyUntil(input, now), alerts });
  return alerts;
}

/**
 * The dataset's units its writer delivered outside the platform that are not healthy now, with
 * their state (suspect included: a suspect export already sent is what its consumers must hear of).
 */
function deliveredOf(d: DatasetStateCodes, sent: readonly DeliveryRecord[]): DeliveredUnit[] {
  const byUnit = new Map<string, string[]>();
  for (const x of sent) byUnit.set(x.unitKey, [...(byUnit.get(x.unitKey) ?? []), `to ${x.destination} at ${x.sentAt.toISOString()}`]);
  const out: DeliveredUnit[] = [];
  for (const [unitKey, sentTo] of byUnit) {
    const v = d.space.validate(unitKey);
    const problem = v.valid ? d.problems.get(v.ordinal) : undefined;
    if (problem) out.push({ unitKey, state: problem.state, reasons: problem.reasons, sentTo });
  }
  return out.sort((a, b) => a.unitKey.localeCompare(b.unitKey));
}

function toInput(d: DatasetStateCodes, config: AlertConfig): AlertDatasetInput {
  const { units, periods } = unitsOnce(d);
  return {
    datasetNodeId: d.dataset.nodeId,
    taskNodeId: d.writer?.nodeId ?? null,
    tolerance: d.dataset.tolerance,
    graceMs: config.graceByDataset.get(d.dataset.nodeId) ?? config.defaultGraceMs,
    units,
    periods,
  };
}

// Per version of a dataset's states (never changed in place): the alert inputs of its units are
// built once, so a read after a write rebuilds only the datasets the write reached.
const UNITS = new WeakMap<DatasetStateCodes, Pick<AlertDatasetInput, "units" | "periods">>();

function unitsOnce(d: DatasetStateCodes): Pick<AlertDatasetInput, "units" | "periods"> {
  const kept = UNITS.get(d);
  if (kept) return kept;
  const time = d.space.time;
  // A day's period is its month, an hour's its day: the set an analyst quotes a number for.
  const periodOf = (key: string) => (time?.grain === "day" ? key.slice(0, 7) : time?.grain === "hour" ? key.slice(0, 10) : null);
  // A suspect unit fires no rule (each rule reads a state that precedes it, or facts that would
  // have made it empty or divergent): leaving those out keeps the work to the units that alert.
  const problems = [...d.problems].filter(([, r]) => r.state !== "suspect").sort(([a], [b]) => a - b);
  const units = problems.map(([o, r]) => {
    const key = d.space.keyAt(o);
    return {
      unitKey: key,
      state: r.state,
      reasons: r.reasons,
      windowEndMs: time ? time.windowStartMs(o + 1) : null,
      period: periodOf(key),
      publishCount: r.facts.publishCount,
      rowCount: rowCountOf(r.state, r.facts),
      sourceCount: r.facts.sourceCount,
      deviation: r.facts.deviation,
    };
  });
  const out = {
    units,
    periods: time
      ? periodsOf(
          d,
          units.flatMap((u, i) => (u.period === null ? [] : [[u.period, problems[i]![0]] as const])),
          periodOf,
        )
      : undefined,
  };
  UNITS.set(d, out);
  return out;
}

/**
 * For each period holding a problem unit: when it ends — its last unit's window, whether or not
 * that unit exists yet (a month of days closes with its last day, or the definition's end) — and
 * how many of its units have a state.
 */
function periodsOf(d: DatasetStateCodes, held: readonly (readonly [string, number])[], periodOf: (key: string) => string | null) {
  const out = new Map<string, { endMs: number; units: number }>();
  const time = d.space.time!;
  const def = d.dataset.partitionDef;
  const end = def.kind === "time" && def.end !== undefined ? d.space.validate(def.end) : null;
  const cap = end?.valid ? end.ordinal : Number.POSITIVE_INFINITY;
  for (const [period, ordinal] of held) {
    if (out.has(period)) continue;
    let [lo, hi] = [ordinal, ordinal];
    while (lo > 0 && periodOf(d.space.keyAt(lo - 1)) === period) lo--;
    while (hi < cap && periodOf(time.keyAt(hi + 1)) === period) hi++;
    let units = 0;
    for (let o = lo; o <= Math.min(hi, d.space.size - 1); o++) if (d.codes[o] !== NOT_EXPECTED) units++;
    out.set(period, { endMs: time.windowStartMs(hi + 1), units });
  }
  return out;
}

/**
 * The unit facts carry the deviation from the source count rather than the row count; the row
 * count is recovered from it (exact up to rounding), and an empty unit has 0 rows.
 */
function rowCountOf(state: string, f: UnitStateFacts): number | null {
  if (f.publishCount === 0) return null;
  if (state === "empty") return 0;
  if (f.sourceCount === null || f.deviation === null) return null;
  return Math.round(f.sourceCount * (1 + f.deviation));
}
