import { FACT_SOURCE_LABELS } from "@/lib/domain/fact-sources";
import type { UnitDetail } from "@/lib/contracts/units";
import { getDb, type Db } from "../repositories/database";
import { InvalidFieldError, NotFoundError } from "@/lib/domain/errors";
import { auditEntriesNaming, type AuditEntryRecord } from "../repositories/audit/audit-log";
import { recordsOfUnit } from "../repositories/units/unit-matrix-reads";
import { getUnitStateSnapshot, problemsLookup } from "./state-service";
import { loadUnitStates } from "./load-unit-states";

/**
 * One cell of the matrix in full: its state and why, every publish, every attempt, the source
 * count and deviation, and the interventions that named it. The state comes from the same
 * loader as the matrix (scoped to the dataset and the upstream it reads, against the unit-state
 * service's upstream states), so they agree.
 */
export async function getUnitDetail(datasetNodeId: string, unitKey: string, now: Date, db: Db = getDb()): Promise<UnitDetail> {
  const knownProblems = problemsLookup(await getUnitStateSnapshot(db, now));
  const [states] = await loadUnitStates(db, now, { datasetNodeIds: [datasetNodeId], knownProblems });
  if (!states) throw new NotFoundError(`dataset: no dataset "${datasetNodeId}"`);
  const verdict = states.space.validate(unitKey);
  if (!verdict.valid) throw new InvalidFieldError("query.unit", verdict.reason);
  const unit = states.units.find((u) => u.ordinal === verdict.ordinal);
  if (!unit) throw new NotFoundError(`unit: "${unitKey}" is not an expected unit of ${datasetNodeId}`);
  const { dataset, writer } = states;
  const [records, audit] = await Promise.all([
    recordsOfUnit(db, dataset.id, writer?.id ?? null, unit.key),
    auditEntriesNaming(db, [dataset.nodeId, ...(writer ? [writer.nodeId] : [])]),
  ]);
  const nodes = new Set([dataset.nodeId, writer?.nodeId]);
  const { result } = unit;
  return {
    datasetNodeId: dataset.nodeId,
    datasetName: dataset.name,
    pipeline: dataset.pipeline,
    unitKey: unit.key,
    state: result.state,
    reasons: [...result.reasons],
    writer: writer
      ? {
          nodeId: writer.nodeId,
          name: writer.name,
          writeMode: writer.writeMode,
          writeModeFrom: writer.writeMode !== null && writer.factSources.writeMode ? FACT_SOURCE_LABELS[writer.factSources.writeMode] : null,
          owner: writer.owner || null,
          ownerFrom: writer.owner && writer.factSources.owner ? FACT_SOURCE_LABELS[writer.factSources.owner] : null,
        }
      : null,
    publishes: records.publishes.map((p) => ({ ...p, publishedAt: p.publishedAt.toISOString() })),
    attempts: records.attempts.map((a) => ({ ...a, startedAt: a.startedAt?.toISOString() ?? null, endedAt: a.endedAt?.toISOString() ?? null })),
    sourceCount: result.facts.sourceCount,
    deviation: result.facts.deviation,
    tolerance: dataset.tolerance,
    partialRows: result.facts.partialRows,
    latestRunId: result.facts.lastRunId,
    interventions: audit
      .filter((e) => namesUnit(e, nodes, unit.key))
      .map((e) => ({ seq: e.seq, kind: e.kind, actor: e.actor, at: e.at.toISOString(), reason: e.reason })),
  };
}

/** Whether the entry's targets name this unit of one of the nodes. */
function namesUnit(entry: AuditEntryRecord, nodes: Set<string | undefined>, key: string): boolean {
  return entry.targets.some((t) => nodes.has(t.nodeId) && t.units.includes(key));
}
