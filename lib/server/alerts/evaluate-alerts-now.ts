import { evaluateAlerts, type Alert, type AlertDatasetInput, type FailedCheck } from "@/lib/domain/alert-rules";
import { listEdgesAt } from "../repositories/catalog";
import { failingChecks } from "../repositories/failed-attempt-tasks";
import type { Db } from "../db/client";
import { loadUnitStates, type DatasetUnitStates } from "../units/load-unit-states";
import type { AlertConfig } from "./alert-config";

export interface EvaluatedAlert extends Alert {
  datasetName: string;
  pipeline: string | null;
}

/** Every alert the ledger raises right now, from the same unit states the matrix shows. */
export async function evaluateAlertsNow(db: Db, now: Date, config: AlertConfig): Promise<EvaluatedAlert[]> {
  const [states, checks, edges] = await Promise.all([loadUnitStates(db, now), failingChecks(db), listEdgesAt(db, now)]);
  const checkedBy = new Map<string, FailedCheck[]>();
  for (const c of checks) {
    for (const e of edges) {
      if (e.taskId !== c.taskId || e.direction !== "read") continue;
      checkedBy.set(e.datasetId, [...(checkedBy.get(e.datasetId) ?? []), { check: c.nodeId, message: c.message, at: c.at.getTime() }]);
    }
  }
  const inputs = states.map((d) => ({ ...toInput(d, config), failedChecks: checkedBy.get(d.dataset.id) ?? [] }));
  const byNode = new Map(states.map((d) => [d.dataset.nodeId, d.dataset]));
  return evaluateAlerts(inputs, now.getTime()).map((a) => ({ ...a, datasetName: byNode.get(a.datasetNodeId)!.name, pipeline: byNode.get(a.datasetNodeId)!.pipeline }));
}

function toInput(d: DatasetUnitStates, config: AlertConfig): AlertDatasetInput {
  const time = d.space.time;
  // A day's period is its month, an hour's its day: the set an analyst quotes a number for.
  const periodOf = (key: string) => (time?.grain === "day" ? key.slice(0, 7) : time?.grain === "hour" ? key.slice(0, 10) : null);
  return {
    datasetNodeId: d.dataset.nodeId,
    taskNodeId: d.writer?.nodeId ?? null,
    tolerance: d.dataset.tolerance,
    graceMs: config.graceByDataset.get(d.dataset.nodeId) ?? config.defaultGraceMs,
    units: d.units.map((u) => {
      const f = u.result.facts;
      return {
        unitKey: u.key,
        state: u.result.state,
        reasons: u.result.reasons,
        windowEndMs: time ? time.windowStartMs(u.ordinal + 1) : null,
        period: periodOf(u.key),
        publishCount: f.publishCount,
        rowCount: rowCountOf(u.result.state, f),
        sourceCount: f.sourceCount,
        deviation: f.deviation,
      };
    }),
  };
}

/**
 * The unit facts carry the deviation from the source count rather than the row count; the row
 * count is recovered from it (exact up to rounding), and an empty unit has 0 rows.
 */
function rowCountOf(state: string, f: DatasetUnitStates["units"][number]["result"]["facts"]): number | null {
  if (f.publishCount === 0) return null;
  if (state === "empty") return 0;
  if (f.sourceCount === null || f.deviation === null) return null;
  return Math.round(f.sourceCount * (1 + f.deviation));
}
