import { nodeName } from "@/lib/domain/ids";
import type { LineageGraph, TaskNode } from "@/lib/domain/lineage-graph";
import { planRepair } from "@/lib/domain/repair-planner";
import { factsOf } from "@/lib/domain/repair-scope";
import { toKeyRanges } from "@/lib/domain/unit-set";
import type { PreconditionsView, TaskPreconditions } from "@/lib/contracts/repair";
import { getDb, type Db } from "../db/client";
import { requireIncident } from "../incidents/require-incident";
import { incidentTargets } from "./incident-targets";
import { loadRepairContext, type RepairContext } from "./load-repair-context";

type Check = TaskPreconditions["checks"][number];
const short = nodeName;
const declare = (what: string) => `Declare ${what}: PUT /api/v1/tasks/<task node id> with it and a reason (or send it in the OpenLineage job facet). Until then the planner counts it as unsafe.`;

/** The Preconditions step: per task in scope, the six questions of seeds 000/001; unknown is unsafe. */
export async function getPreconditions(id: string, now = new Date(), db: Db = getDb()): Promise<PreconditionsView> {
  const incident = await requireIncident(db, id);
  const ctx = await loadRepairContext(db, now);
  const { scope } = planRepair({ graph: ctx.graph, targets: incidentTargets(incident), ledger: ctx.ledger });
  const tasks = [...scope.entries.values()].filter((e) => e.nodeKind === "task").map((e) => {
    const task = ctx.graph.nodes[ctx.graph.index.get(e.node)!] as TaskNode;
    return { taskNodeId: task.id, name: short(task.id), pipeline: task.pipeline, units: toKeyRanges(e.units, task.space), checks: checksOf(ctx, task) };
  });
  return { tasks };
}

function checksOf(ctx: RepairContext, task: TaskNode): Check[] {
  const g = ctx.graph;
  return [idempotent(task), independent(g, task), sources(ctx, task), sideEffects(task), atomicSet(task), asOfNow(g, task)];
}

function idempotent(t: TaskNode): Check {
  const q = "Idempotent over the unit? (does a second run replace it, or add to it?)";
  if (t.writeMode === "replace") return { key: "idempotent", question: q, verdict: "safe", detail: "replaces its unit: safe to repeat", howToKnow: null };
  if (t.writeMode === "merge") return { key: "idempotent", question: q, verdict: "safe", detail: "upserts on the row key: a second run overwrites the same rows", howToKnow: null };
  if (t.writeMode === "append") return { key: "idempotent", question: q, verdict: "unsafe", detail: "appends: re-running adds a second copy. Clean the unit before the repair, or declare the task fixed to replace.", howToKnow: null };
  return { key: "idempotent", question: q, verdict: "unknown", detail: "no write mode declared: counted as append", howToKnow: declare("writeMode (replace, merge or append)") };
}

function independent(g: LineageGraph, t: TaskNode): Check {
  const q = "Units independent? (does a unit read the task's own earlier units?)";
  if (g.selfLoops.has(t.index)) return { key: "independent", question: q, verdict: "unsafe", detail: "sequential: reads its own previous unit, so a hole invalidates every later unit — recompute forward", howToKnow: null };
  if (t.dependsOnOwnPast === false) return { key: "independent", question: q, verdict: "safe", detail: "each unit is computed from inputs scoped to it", howToKnow: null };
  return { key: "independent", question: q, verdict: "unknown", detail: "independence not declared: counted as sequential", howToKnow: declare("dependsOnOwnPast") };
}

function sources(ctx: RepairContext, t: TaskNode): Check {
  const q = "Source immutable, and the input version still retained?";
  const bad: string[] = [];
  const unknown: string[] = [];
  for (const e of ctx.graph.in[t.index]!) {
    const d = ctx.graph.nodes[e.from]!;
    const record = ctx.datasets.get(d.id);
    if (!factsOf(ctx.graph, ctx.ledger, e.from, "inputNotRetained").isEmpty) bad.push(`${short(d.id)} (input version no longer retained)`);
    if (record?.sourceImmutable === false) bad.push(`${short(d.id)} (mutable: the repair reads today's version)`);
    else if (record?.sourceImmutable == null && ctx.graph.in[e.from]!.length === 0) unknown.push(short(d.id));
  }
  if (bad.length > 0) return { key: "source_reproducible", question: q, verdict: "unsafe", detail: `reads ${bad.join(", ")}: the repaired unit may differ from what the first attempt would have built`, howToKnow: null };
  if (unknown.length > 0) return { key: "source_reproducible", question: q, verdict: "unknown", detail: `mutability of ${unknown.join(", ")} is not declared: counted as mutable`, howToKnow: "Declare sourceImmutable (and retentionDays) on the source dataset." };
  return { key: "source_reproducible", question: q, verdict: "safe", detail: "reads immutable or ledger-versioned inputs", howToKnow: null };
}

function sideEffects(t: TaskNode): Check {
  const q = "External side effects? (emails, exports, payments: the world cannot un-receive them)";
  if (t.sideEffect === "none") return { key: "side_effects", question: q, verdict: "safe", detail: "no effect outside the platform", howToKnow: null };
  if (t.sideEffect === "external") return { key: "side_effects", question: q, verdict: "unsafe", detail: "sends something outside the platform: excluded from the repair by default; replay it only deliberately, with an idempotency key", howToKnow: null };
  return { key: "side_effects", question: q, verdict: "unknown", detail: "side effects not declared: counted as external and excluded", howToKnow: declare("sideEffect (none or external)") };
}

function atomicSet(t: TaskNode): Check {
  const q = "Atomic-set publish? (is the whole set swapped at once?)";
  if (t.publish === "per-unit") return { key: "atomic_set", question: q, verdict: "safe", detail: "publishes each unit on its own: partial repair is observable", howToKnow: null };
  if (t.publish === "atomic-set") return { key: "atomic_set", question: q, verdict: "unsafe", detail: "publishes the set atomically: the whole set is the unit and must be republished", howToKnow: null };
  return { key: "atomic_set", question: q, verdict: "unknown", detail: "publish mode not declared", howToKnow: declare("publishMode (per_unit or atomic_set)") };
}

function asOfNow(g: LineageGraph, t: TaskNode): Check {
  const q = "As-of-now joins? (does it read a current snapshot rather than the unit's own date?)";
  const latest = g.in[t.index]!.filter((e) => e.mapping.type === "latest").map((e) => short(g.nodes[e.from]!.id));
  if (latest.length > 0) return { key: "as_of_now", question: q, verdict: "unsafe", detail: `joins ${latest.join(", ")} as of now: repaired units are built on a newer world than their neighbours`, howToKnow: null };
  return { key: "as_of_now", question: q, verdict: "safe", detail: "every input is read as of the unit", howToKnow: null };
}
