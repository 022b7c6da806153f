import type { MarkRequest } from "@/lib/contracts/incidents";
import { reconcile } from "@/lib/domain/validation";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { InvalidFieldError, RefusedError } from "@/lib/domain/errors";
import { moveIncident } from "../incidents/move-incident";
import { requireIncident } from "../incidents/require-incident";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/lineage/catalog-reads";
import { createUnitMarks } from "../repositories/repair/unit-interventions";
import { loadUnitStateIndex } from "./unit-state-index";

const KIND = { known_bad: "unit.marked_known_bad", skipped: "unit.skipped", marked_success: "unit.marked_success" } as const;

/**
 * Marks units of the dataset a task writes known-bad, skipped (a recorded omission that stays
 * visible forever) or successful. Mark success needs evidence the server can check: every unit
 * published and reconciling with its source count. The marks and their audit entry commit
 * together with the incident's move to validation (never while a repair runs: it holds those
 * units, and its end moves the incident on), where marked units are accounted for.
 */
export async function markUnits(id: string, req: MarkRequest, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "mark_units");
  const task = (await listTasks(db)).find((t) => t.nodeId === req.taskNodeId);
  if (!task) throw new InvalidFieldError("body.taskNodeId", `no task ${req.taskNodeId}`);
  const write = (await listEdgesAt(db, now)).find((e) => e.taskId === task.id && e.direction === "write");
  const dataset = write && (await listDatasets(db)).find((d) => d.id === write.datasetId);
  if (!dataset) throw new RefusedError(`${task.name} writes no dataset to mark`);
  const states = await loadUnitStateIndex(db, now, [dataset.nodeId]);
  const units = [...new Set(req.units)];
  const before = units.map((u, i) => {
    const s = states.get(dataset.nodeId, u);
    if (!s) throw new InvalidFieldError(`body.units.${i}`, `"${u}" is not an expected unit of ${dataset.name}`);
    return s;
  });
  let evidence = "";
  if (req.kind === "marked_success")
    evidence = successEvidence(
      units,
      before.map((b) => b.facts),
      dataset.tolerance,
      req.evidence,
    );
  const describe = (xs: string[]) => [...new Set(xs)].map((s) => `${s} ×${xs.filter((x) => x === s).length}`).join(", ");
  const after = req.kind === "marked_success" ? "published (marked success)" : req.kind;
  const entry = await inTransaction(db, async (tx) => {
    const common = { actor: actor.id, actorRole: actor.role, reason: req.reason, incidentId: id, targets: [{ nodeId: dataset.nodeId, units }] };
    const beforeState = { state: describe(before.map((b) => b.result.state)) };
    const e =
      req.kind === "marked_success"
        ? await appendAudit(tx, { ...common, kind: KIND.marked_success, before: beforeState, after: { state: after, evidence } }, now)
        : await appendAudit(tx, { ...common, kind: KIND[req.kind], before: beforeState, after: { state: after } }, now);
    await createUnitMarks(tx, dataset.id, units, req.kind, req.reason, e.seq, now);
    await moveIncident(tx, incident, "mark_units");
    return e;
  });
  return { ok: true as const, auditSeq: entry.seq };
}

function successEvidence(
  units: string[],
  facts: { ledger: readonly { rowCount: number | null; publishedAt: number }[]; sourceCount?: number | null }[],
  tolerance: number,
  given?: string,
): string {
  if (!given?.trim()) throw new InvalidFieldError("body.evidence", "marking success needs evidence, e.g. the reconciliation you checked");
  const verdicts = units.map((u, i) => {
    const latest = [...facts[i]!.ledger].sort((a, b) => b.publishedAt - a.publishedAt)[0];
    if (!latest) throw new RefusedError(`${u} has no publish in the ledger: marking it successful would claim data that does not exist`);
    const r = reconcile(latest.rowCount, facts[i]!.sourceCount, tolerance);
    if (r.verdict !== "within_band") throw new RefusedError(`${u} does not pass reconciliation (${r.reason}): no evidence that it is correct`);
    return `${u}: ${r.reason}`;
  });
  return `${given.trim()} — checked: ${verdicts.join("; ")}`;
}
