import { compositeKey } from "@/lib/domain/composite-key";
import { nodeName, type NodeId } from "@/lib/domain/ids";
import { validateUnits } from "@/lib/domain/validation";
import type { UnitValidationView, ValidationView } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { requireIncident } from "../incidents/require-incident";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/lineage/catalog-reads";
import { measuredRows } from "../warehouses/warehouse-for";
import { repairRunsOfIncident } from "../repositories/repair/repair-runs";
import { loadUnitStateIndex } from "./unit-state-index";

/**
 * The Validate step: lib/domain validateUnits for every unit the incident's repairs were to
 * build (the dataset each planned task writes): in the ledger, published once, non-empty,
 * reconciled with its source count, not stale; input version reported. A unit an operator
 * marked known-bad or skipped is accounted for by that recorded mark, not by passing.
 */
export async function validateIncident(id: string, now = new Date(), db: Db = getDb()): Promise<ValidationView> {
  const incident = await requireIncident(db, id);
  const pairs = new Map<string, [string, string]>();
  for (const p of incident.failedPairs) for (const unit of p.units) pairs.set(compositeKey(p.nodeId, unit), [p.nodeId, unit]);
  for (const run of await repairRunsOfIncident(db, id)) for (const [task, unit] of run.params.pairs) pairs.set(compositeKey(task, unit), [task, unit]);
  const [tasks, datasets, edges] = await Promise.all([listTasks(db), listDatasets(db), listEdgesAt(db, now)]);
  const outputOf = (taskNodeId: string) => {
    const task = tasks.find((t) => t.nodeId === taskNodeId);
    const write = task && edges.find((e) => e.taskId === task.id && e.direction === "write");
    return write ? datasets.find((d) => d.id === write.datasetId) : undefined;
  };
  const states = await loadUnitStateIndex(
    db,
    now,
    [...pairs.values()].flatMap(([task]) => outputOf(task)?.nodeId ?? []),
  );
  const units: UnitValidationView[] = [];
  for (const [taskNodeId, unitKey] of pairs.values()) {
    const dataset = outputOf(taskNodeId);
    const state = dataset && states.get(dataset.nodeId, unitKey);
    if (!dataset || !state) continue;
    const v = validateUnits([{ unitKey, facts: state.facts }], now.getTime()).units[0]!;
    const latest = state.result.facts;
    const mark = state.result.state === "known_bad" || state.result.state === "skipped" ? state.result.state : null;
    units.push({
      datasetNodeId: dataset.nodeId,
      name: nodeName(dataset.nodeId as NodeId),
      unitKey,
      passed: v.passed,
      state: v.state,
      checks: v.checks,
      inputVersion: v.inputVersion,
      rowCount: state.facts.ledger.length ? [...state.facts.ledger].sort((a, b) => b.publishedAt - a.publishedAt)[0]!.rowCount : null,
      sourceCount: latest.sourceCount,
      publishCount: latest.publishCount,
      rowsInWarehouse: await measuredRows(db, dataset, unitKey, now),
      failures: v.failures,
      notes: v.notes,
      mark,
    });
  }
  const failed = units.filter((u) => !u.passed && !u.mark);
  return {
    passed: units.length > 0 && failed.length === 0,
    units,
    failedUnits: failed.length,
    accountedByMarks: units.filter((u) => !u.passed && u.mark).length,
  };
}
