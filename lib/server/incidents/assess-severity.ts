import type { AuditTarget } from "@/lib/contracts/audit";
import { nodeName } from "@/lib/domain/ids";
import { incidentSeverity, type ReachedUnits, type SeverityFacts } from "@/lib/domain/incident-severity";
import { planRepair } from "@/lib/domain/repair-planner";
import type { PartitionSpace } from "@/lib/domain/partitions";
import type { UnitSet } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import type { SeverityBasis } from "../repositories/incidents/incidents";
import { allDeliveries } from "../repositories/ledger/external-deliveries";
import { loadRepairContext, type RepairContext } from "../repair/load-repair-context";
import { incidentTargets } from "../repair/incident-targets";
import { recipientsOfNodes } from "../people/recipients";

const HOUR = 3_600_000;
/** Units named per reached dataset: enough for a reason's words ("first … last (n units)"), bounded on a ten-year closure. */
const MAX_KEYS = 2000;

/**
 * The severity the incident's closure calls for now (lib/domain/incident-severity.ts), with the
 * facts it read: the closure through the planner (so scope, plan and severity never disagree),
 * the external deliveries already made from its units, the datasets read outside it reaches.
 *
 * The consumers are those declared as reading a reached node (lib/server/people/recipients.ts).
 * Not known yet, and so passed as unknown (null), never as "none": which datasets are critical
 * (nothing declares criticality).
 */
export async function assessSeverity(
  db: Db,
  incident: { failedPairs: AuditTarget[]; detectedAt: Date },
  now: Date,
  loaded?: RepairContext,
): Promise<SeverityBasis["computed"]> {
  const [ctx, deliveries] = await Promise.all([loaded ?? loadRepairContext(db, now), allDeliveries(db)]);
  const { scope } = planRepair({ graph: ctx.graph, targets: incidentTargets(incident), ledger: ctx.ledger });
  const delivered = new Map<string, Set<string>>();
  const external = new Map<string, Set<string>>();
  let datasets = 0;
  for (const e of scope.entries.values()) {
    const node = ctx.graph.nodes[ctx.graph.index.get(e.node)!]!;
    if (e.nodeKind === "dataset") datasets++;
    const task = e.nodeKind === "task" ? ctx.tasks.get(e.node) : undefined;
    // What a task sent outside is named by what it writes (the export), as the scope names it.
    const name = nodeName(e.nodeKind === "task" ? (ctx.outputOf.get(e.node)?.nodeId ?? e.node) : e.node);
    if (task) for (const d of deliveries) if (d.taskId === task.id && contains(node.space, e.units, d.unitKey)) add(delivered, name, d.unitKey);
    const readOutside =
      e.nodeKind === "dataset" ? node.nodeKind === "dataset" && node.externalConsumer === true : node.nodeKind === "task" && node.sideEffect === "external";
    if (readOutside) for (const k of keysOf(node.space, e.units)) add(external, name, k);
  }
  for (const [name, sent] of delivered) {
    const left = [...(external.get(name) ?? [])].filter((k) => !sent.has(k));
    if (left.length > 0) external.set(name, new Set(left));
    else external.delete(name);
  }
  const nodes = [...scope.entries.keys()].map(String);
  const consumers = (await recipientsOfNodes(db, nodes)).filter((r) => r.role === "consumer").map((r) => r.name);
  const facts: SeverityFacts = {
    delivered: reached(delivered),
    external: reached(external),
    critical: null,
    consumers,
    datasets,
    units: scope.taskPairCount,
    ageHours: Math.max(0, (now.getTime() - incident.detectedAt.getTime()) / HOUR),
  };
  const { level, reasons } = incidentSeverity(facts);
  return { level, reasons: [...reasons], at: now.toISOString(), nodes };
}

function add(m: Map<string, Set<string>>, name: string, key: string) {
  m.set(name, (m.get(name) ?? new Set()).add(key));
}

function reached(m: Map<string, Set<string>>): ReachedUnits[] {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([what, units]) => ({ what, units: [...units].sort() }));
}

function contains(space: PartitionSpace, units: UnitSet, key: string): boolean {
  const v = space.validate(key);
  return v.valid && units.contains(v.ordinal);
}

function keysOf(space: PartitionSpace, units: UnitSet): string[] {
  const keys: string[] = [];
  for (const o of units) {
    if (keys.length >= MAX_KEYS) break;
    keys.push(space.keyAt(o));
  }
  return keys;
}
