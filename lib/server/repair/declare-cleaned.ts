import { resolvePartitions } from "@/lib/domain/partitions";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { InvalidFieldError, RefusedError } from "@/lib/domain/errors";
import { evidenceOf } from "@/lib/domain/cleanings";
import { compositeKey } from "@/lib/domain/composite-key";
import { evidenceCleanings } from "../units/evidence-cleanings";
import { createUnitMarks, lockCleanings, warehouseCountsOf } from "../repositories/repair/unit-interventions";
import { unitRows, warehouseFor } from "../warehouses/warehouse-for";
import { appendTarget, refuseIfClaimed } from "./clean-unit";

export interface DeclareCleanedBody {
  taskNodeId: string;
  units: string[];
  reason: string;
  /** What the operator ran in the warehouse, for the record (never executed by Reparo). */
  statement: string;
}

/**
 * An operator cleaned appended units outside Reparo, in a warehouse Reparo is not connected to.
 * The declaration is recorded (audit entry + `clean_declared` marks, one transaction) but lifts
 * nothing by itself: the append blocker lifts only once a count of each unit's rows in its
 * warehouse (POST /api/v1/warehouse-counts), taken after the unit's latest attempt, shows 0
 * (domain/cleanings.ts) — the console never believes a cleaning nobody measured. A count of 0
 * already in evidences the declaration at once (`unit.clean_evidenced`).
 */
export async function declareCleaned(id: string, body: DeclareCleanedBody, actor: Actor, now = new Date(), db: Db = getDb()) {
  const { task, dataset } = await appendTarget(db, id, body.taskNodeId, now, "declare_cleaned");
  // The keys as the partition definition spells them, so the claim check sees the units really meant.
  const space = resolvePartitions(dataset.partitionDef, { asOf: now.getTime() });
  const keys = body.units.map((k, i) => {
    const v = space.validate(k);
    if (!v.valid) throw new InvalidFieldError(`body.units.${i}`, `${k} is not a unit of ${dataset.name}: ${v.reason}`);
    return v.key;
  });
  await refuseIfClaimed(db, task, keys);
  const warehouse = await warehouseFor(db, dataset);
  const statement = warehouse?.statement(unitRows(dataset, keys[0]!, now));
  if (warehouse && statement && !("unsupported" in statement)) {
    throw new RefusedError(
      `${dataset.name}'s warehouse (${dataset.namespace}) is connected: clean the units from Reparo (POST …/clean-unit), which deletes and counts their rows itself`,
    );
  }
  const units = [...new Set(keys)];
  const entry = await inTransaction(db, async (tx) => {
    await lockCleanings(tx, [dataset.id]);
    const e = await appendAudit(
      tx,
      {
        kind: "unit.clean_declared",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        incidentId: id,
        targets: [{ nodeId: dataset.nodeId, units }],
        before: null,
        after: { task: task.nodeId, units, statement: body.statement, believedWhen: "a warehouse count after the unit's latest attempt shows 0 rows" },
      },
      now,
    );
    await createUnitMarks(tx, dataset.id, units, "clean_declared", body.reason, e.seq, now);
    // A count of 0 that arrived before the declaration evidences it now.
    const counts = await warehouseCountsOf(
      tx,
      units.map((unitKey) => ({ datasetId: dataset.id, unitKey })),
    );
    const zeros = units.flatMap((unitKey) => {
      const c = counts.get(compositeKey(dataset.id, unitKey));
      return c && evidenceOf(c) !== null
        ? [{ datasetId: dataset.id, unitKey, rowCount: 0, measuredAt: new Date(c.measuredAt), source: c.source, submittedBy: null }]
        : [];
    });
    await evidenceCleanings(tx, zeros, new Map([[dataset.nodeId, { id: dataset.id }]]), actor, now);
    return e;
  });
  return {
    ok: true as const,
    auditSeq: entry.seq,
    units,
    awaiting: `POST /api/v1/warehouse-counts with each unit's rows in ${dataset.namespace}, counted now`,
  };
}
