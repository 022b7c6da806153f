import { nodeName, type NodeId } from "@/lib/domain/ids";
import type { PlannedTask, RepairPlan } from "@/lib/domain/repair-planner";
import { keysOf } from "@/lib/domain/partitions";
import { toKeyRanges, UnitSet } from "@/lib/domain/unit-set";
import type { BlockerView, PlannedTaskView, PlanView } from "@/lib/contracts/repair";
import type { Db } from "../repositories/database";
import { awaitedEvidence } from "@/lib/domain/cleanings";
import { compositeKey } from "@/lib/domain/composite-key";
import { cleanDeclarations, latestAttemptStarts, warehouseCountsOf } from "../repositories/repair/unit-interventions";
import { measuredRowsOfUnits, unitRows, warehouseFor } from "../warehouses/warehouse-for";
import type { RepairContext } from "./load-repair-context";
import { planExports } from "./plan-exports";

const task = (p: PlannedTask & { reason?: string }): PlannedTaskView => ({
  taskNodeId: p.task,
  name: nodeName(p.task),
  pipeline: p.pipeline,
  keyRanges: p.keyRanges.map(([a, b]) => [a, b]),
  unitCount: p.units.size,
  idempotencyKey: p.idempotencyKey ?? null,
  reason: p.reason ?? null,
});

/** The plan as the wizard shows it: pairs by wave, blockers with the intervention that lifts each, and the exports to copy. */
export async function toPlanView(db: Db, ctx: RepairContext, plan: RepairPlan, failedRunId: string | null = null): Promise<PlanView> {
  const blockers = await Promise.all(plan.blockers.map((b) => blockerView(db, ctx, b)));
  return {
    strategy: plan.strategy,
    recommended: plan.recommended,
    options: plan.options.map((o) => ({ ...o, why: [...o.why], requires: [...o.requires] })),
    waves: plan.waves.map((w) => w.map(task)),
    held: plan.held.map(task),
    excluded: plan.excluded.map(task),
    marks: plan.marks.map((m) => ({ nodeId: m.node, units: toKeyRanges(m.units, ctx.graph.nodes[ctx.graph.index.get(m.node)!]!.space) })),
    blockers,
    warnings: plan.warnings.map((w) => ({ code: w.code, message: w.message, node: w.node ?? null })),
    cost: { ...plan.cost },
    parameterOverrides: { ...plan.parameterOverrides },
    runnable: plan.runnable,
    exports: await planExports(db, ctx, plan, failedRunId),
  };
}

async function blockerView(db: Db, ctx: RepairContext, b: RepairPlan["blockers"][number]): Promise<BlockerView> {
  const base = {
    code: b.code,
    message: b.message,
    node: b.node ?? null,
    keyRanges: (b.keyRanges ?? []).map(([x, y]) => [x, y] as [string, string]),
    declare: b.declare ? { fact: b.declare.fact, choices: [...b.declare.choices] } : null,
    resolution: null,
  };
  if (b.code === "waits_on_upstream" && b.node && b.addPairs)
    return {
      ...base,
      resolution: { kind: "add_pairs", taskNodeId: b.node, datasetNodeId: null, units: b.addPairs.flatMap((p) => p.units), rowsInUnits: [], cleanable: null },
    };
  if (b.code !== "append_unresolved" || !b.node) return base;
  const output = ctx.outputOf.get(b.node);
  const node = ctx.graph.nodes[ctx.graph.index.get(b.node as NodeId)!]!;
  if (!output)
    return {
      ...base,
      resolution: { kind: "declare_replace", taskNodeId: b.node, datasetNodeId: null, units: [], rowsInUnits: [], cleanable: null },
    };
  const units = UnitSet.fromOrdinals(
    (b.keyRanges ?? []).flatMap(([lo, hi]) => {
      const [a, z] = [node.space.validate(lo), node.space.validate(hi)];
      return a.valid && z.valid ? [...UnitSet.range(a.ordinal, z.ordinal)] : [];
    }),
  );
  const keys = [...keysOf(node.space, units)].slice(0, 200);
  const taskId = ctx.tasks.get(b.node)?.id ?? "";
  // Rows as the dataset's warehouse counts them now; else the team's latest count; else unknown.
  const [counted, teamCounts, declared, starts] = await Promise.all([
    measuredRowsOfUnits(db, output, keys, ctx.now),
    warehouseCountsOf(
      db,
      keys.map((unitKey) => ({ datasetId: output.id, unitKey })),
    ),
    cleanDeclarations(db, output.id, keys),
    latestAttemptStarts(db, [taskId], keys),
  ]);
  const rowsInUnits = keys.map((unitKey) => {
    const now = counted.get(unitKey) ?? null;
    const team = teamCounts.get(compositeKey(output.id, unitKey)) ?? null;
    const d = declared.get(unitKey);
    const start = starts.get(compositeKey(taskId, unitKey));
    return {
      unitKey,
      rows: now ?? team?.rows ?? null,
      countedBy: now !== null ? ("warehouse" as const) : team ? ("team" as const) : null,
      countedAt: now !== null ? ctx.now.toISOString() : team ? new Date(team.measuredAt).toISOString() : null,
      declared: d
        ? {
            at: new Date(d.at).toISOString(),
            reason: d.reason,
            auditSeq: d.auditEntryId,
            awaiting: awaitedEvidence(d.evidencedAt, team, start === undefined || start === -Infinity ? null : start),
          }
        : null,
    };
  });
  const warehouse = await warehouseFor(db, output);
  const statement = warehouse && keys[0] ? warehouse.statement(unitRows(output, keys[0], ctx.now)) : null;
  const cleanable = !warehouse
    ? {
        possible: false,
        why: `${output.namespace} has no warehouse connection: an admin connects it so Reparo can delete and count the unit's rows`,
        statement: null,
      }
    : statement && "unsupported" in statement
      ? { possible: false, why: statement.unsupported, statement: null }
      : { possible: true, why: null, statement: statement && "sql" in statement ? statement.sql : null };
  return { ...base, resolution: { kind: "clean_unit", taskNodeId: b.node, datasetNodeId: output.nodeId, units: keys, rowsInUnits, cleanable } };
}
