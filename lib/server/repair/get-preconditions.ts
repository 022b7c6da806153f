import { nodeName } from "@/lib/domain/ids";
import type { TaskNode } from "@/lib/domain/lineage-graph";
import { preconditionsOf, type PreconditionAnswer } from "@/lib/domain/preconditions";
import { planRepair } from "@/lib/domain/repair-planner";
import { toKeyRanges } from "@/lib/domain/unit-set";
import type { PreconditionsView, TaskPreconditions } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { FACT_SOURCE_LABELS, type FactSourcesOf, type TaskFact } from "@/lib/domain/fact-sources";
import { requireIncident } from "../incidents/require-incident";
import { incidentTargets } from "./incident-targets";
import { loadRepairContext } from "./load-repair-context";

type Check = TaskPreconditions["checks"][number];
const short = nodeName;
const names = (ids: readonly string[]) => ids.map((id) => short(id)).join(", ");
const declare = (what: string) =>
  `Declare ${what}: in the team's declaration file (tasks: [{ namespace, name, ${what.split(" ")[0]}: … }], npm run declare — docs/ingestion.md), with the buttons of the Response step, or PUT /api/v1/tasks/<task node id> with it and a reason. Until then the planner holds the task.`;

/**
 * The Preconditions step: per task in scope, the six questions of seeds 000/001 over the units
 * the incident re-runs — answered by lib/domain/preconditions.ts, the answers the planner acts
 * on — in words, with how to make an unknown one known. Unknown is unsafe.
 */
export async function getPreconditions(id: string, now = new Date(), db: Db = getDb()): Promise<PreconditionsView> {
  const incident = await requireIncident(db, id);
  const ctx = await loadRepairContext(db, now);
  const { scope } = planRepair({ graph: ctx.graph, targets: incidentTargets(incident), ledger: ctx.ledger });
  const tasks = [...scope.entries.values()]
    .filter((e) => e.nodeKind === "task")
    .map((e) => {
      const task = ctx.graph.nodes[ctx.graph.index.get(e.node)!] as TaskNode;
      return {
        taskNodeId: task.id,
        name: short(task.id),
        pipeline: task.pipeline,
        units: toKeyRanges(e.units, task.space),
        checks: preconditionsOf(ctx.graph, ctx.ledger, task, e.units).map((a) => withSource(inWords(a), ctx.tasks.get(task.id)?.factSources ?? {})),
      };
    });
  return { tasks };
}

/** Which task fact each answer rests on, to say where the fact came from. */
const FACT_OF: Partial<Record<PreconditionAnswer["key"], TaskFact>> = {
  idempotent: "writeMode",
  independent: "dependsOnOwnPast",
  side_effects: "sideEffect",
  atomic_set: "publishMode",
};

function withSource(c: Check, sources: FactSourcesOf): Check {
  const fact = FACT_OF[c.key];
  const source = fact ? sources[fact] : undefined;
  return source ? { ...c, detail: `${c.detail} (${FACT_SOURCE_LABELS[source]})` } : c;
}

// Each question is asked so that "yes" is the safe answer (seed 002's six questions).
const QUESTION: Record<PreconditionAnswer["key"], string> = {
  idempotent: "Does a second run replace the unit rather than add to it? (idempotent)",
  independent: "Is each unit independent of the task's own earlier units?",
  source_reproducible: "Is the source immutable, with the input version still retained?",
  side_effects: "Is it free of external side effects? (emails, exports, payments: the world cannot un-receive them)",
  atomic_set: "Can one unit be republished on its own? (not an atomic set swapped at once)",
  as_of_now: "Does it read its inputs as of the unit's own date? (no as-of-now joins)",
};

/** One answer as the step shows it: the question, the verdict, why, and how to make an unknown known. */
function inWords(a: PreconditionAnswer): Check {
  const check = (detail: string, howToKnow: string | null = null): Check => ({ key: a.key, question: QUESTION[a.key], verdict: a.verdict, detail, howToKnow });
  switch (a.key) {
    case "idempotent":
      if (a.writeMode === "replace") return check("replaces its unit: safe to repeat");
      if (a.writeMode === "merge") return check("upserts on the row key: a second run overwrites the same rows");
      if (a.writeMode === "append")
        return check("appends: re-running adds a second copy. Clean the unit before the repair, or declare the task fixed to replace.");
      return check("no write mode known: unknown is unsafe, the task is held", declare("writeMode (replace, merge or append)"));
    case "independent":
      if (a.verdict === "unsafe") return check("sequential: reads its own previous unit, so a hole invalidates every later unit — recompute forward");
      if (a.verdict === "safe") return check("each unit is computed from inputs scoped to it");
      return check("independence not known: walked as sequential, and the task is held", declare("dependsOnOwnPast (true or false)"));
    case "source_reproducible": {
      const bad = [
        ...a.notRetained.map((n) => `${short(n.dataset)} (input version no longer retained)`),
        ...a.mutable.map((d) => `${short(d)} (mutable: the repair reads today's version)`),
      ];
      if (bad.length > 0) return check(`reads ${bad.join(", ")}: the repaired unit may differ from what the first attempt would have built`);
      if (a.unknownMutability.length > 0)
        return check(
          `mutability of ${names(a.unknownMutability)} is not declared: counted as mutable`,
          "Declare sourceImmutable (and retentionDays) on the source dataset.",
        );
      return check("reads immutable or ledger-versioned inputs");
    }
    case "side_effects":
      if (a.verdict === "safe") return check("no effect outside the platform");
      if (a.verdict === "unsafe")
        return check("sends something outside the platform: excluded from the repair by default; replay it only deliberately, with an idempotency key");
      return check("side effects not known: unknown is unsafe, the task is held", declare("sideEffect (none or external)"));
    case "atomic_set":
      if (a.publish === "atomic_set") return check("publishes the set atomically: the whole set is the unit and must be republished");
      if (a.publish === "per_unit") return check("publishes each unit on its own: partial repair is observable");
      if (a.singleUnit) return check("one unit: the set is the unit, however it is published");
      return check("publish mode not declared: counted as an atomic set, so the whole set is republished", declare("publishMode (per_unit or atomic_set)"));
    case "as_of_now":
      if (a.joins.length > 0) return check(`joins ${names(a.joins)} as of now: repaired units are built on a newer world than their neighbours`);
      return check("every input is read as of the unit");
  }
}
