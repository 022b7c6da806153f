import type { AlertGroupView } from "@/lib/contracts/alerts";
import { groupAlertsByRootCause, type RootedAlert } from "@/lib/domain/alert-groups";
import { closure } from "@/lib/domain/closure";
import { compositeKey } from "@/lib/domain/composite-key";
import { nodeName, type NodeId } from "@/lib/domain/ids";
import type { LineageGraph } from "@/lib/domain/lineage-graph";
import { walkToRootCauses, type RootCause } from "@/lib/domain/root-cause";
import { UnitSet } from "@/lib/domain/unit-set";
import type { DatasetRecord, TaskRecord } from "../repositories/lineage/catalog-reads";
import type { DeliveryRecord } from "../repositories/ledger/external-deliveries";
import type { UnitStateSnapshot } from "../units/state-service";
import { rootsInWords, statesOnGraph, wordsFor } from "../incidents/root-cause";
import type { EvaluatedAlert } from "./evaluate-alerts-now";

/** An alert's first units walked to their roots (a month of blocked days leads where its first days do). */
const WALKED_UNITS = 200;
/** Units looked at per alert's walk. */
const WALK_BUDGET = 5_000;
/**
 * Units looked at over all the walks of one answer: grouping stays bounded however many alerts
 * fire (3,500 alerts on a world of 250 random pipelines walked 17 million units, 31 s). Alerts
 * past it are not walked: each is a group of its own, named by its dataset.
 */
const GROUPING_BUDGET = 400_000;

export interface GroupingInputs {
  graph: LineageGraph;
  snapshot: UnitStateSnapshot;
  tasks: ReadonlyMap<string, TaskRecord>;
  datasets: ReadonlyMap<string, DatasetRecord>;
  deliveries: readonly DeliveryRecord[];
  /** Open incidents' failed pairs: a group whose root one holds is being handled. */
  openIncidents: readonly { id: string; title: string; failedPairs: { nodeId: string; units: string[] }[] }[];
}

/**
 * The alerts firing now grouped by root cause, each group with what its roots reach downstream
 * and how severe that is: critical when an alert in it is, when the closure holds a unit already
 * delivered outside the platform, or when it reaches a dashboard, an export or a dataset
 * consumed outside.
 */
/**
 * Per unit-state snapshot, the last grouping: a read of the alerts page while nothing changed
 * (the same snapshot, the same compiled lineage, the same alert objects — each dataset's alerts
 * are kept per version of its states — the same open incidents and deliveries) answers the groups
 * it already walked instead of walking every alert to its roots again.
 */
const KEPT = new WeakMap<UnitStateSnapshot, { graph: LineageGraph; alerts: readonly EvaluatedAlert[]; others: string; groups: AlertGroupView[] }>();

export function groupAlertsKept(alerts: readonly EvaluatedAlert[], inputs: GroupingInputs): AlertGroupView[] {
  const others = JSON.stringify([inputs.openIncidents, inputs.deliveries]);
  const kept = KEPT.get(inputs.snapshot);
  if (kept && kept.graph === inputs.graph && kept.others === others && kept.alerts.length === alerts.length && kept.alerts.every((a, i) => a === alerts[i]))
    return kept.groups;
  const groups = groupAlerts(alerts, inputs);
  KEPT.set(inputs.snapshot, { graph: inputs.graph, alerts, others, groups });
  return groups;
}

export function groupAlerts(alerts: readonly EvaluatedAlert[], inputs: GroupingInputs): AlertGroupView[] {
  const { graph } = inputs;
  const states = statesOnGraph(graph, inputs.snapshot);
  // Alerts on the same writer's same units (a failed task, its missing output, its late one) share one walk.
  const walks = new Map<string, readonly RootCause[]>();
  let looked = 0;
  const stateOf = (d: number, o: number) => {
    looked++;
    return states.stateOf(d, o);
  };
  const rooted: RootedAlert[] = alerts.map((a) => {
    const key = JSON.stringify([a.taskNodeId, a.datasetNodeId, a.units.slice(0, WALKED_UNITS)]);
    let roots = walks.get(key);
    if (!roots) walks.set(key, (roots = looked < GROUPING_BUDGET ? rootsOf(graph, a, stateOf, Math.min(WALK_BUDGET, GROUPING_BUDGET - looked)) : []));
    return { id: a.id, severity: a.severity, roots };
  });
  const byId = new Map(alerts.map((a) => [a.id, a]));
  const sentByTask = new Map<string, DeliveryRecord[]>();
  for (const d of inputs.deliveries) sentByTask.set(d.taskId, [...(sentByTask.get(d.taskId) ?? []), d]);
  const heldBy = new Map<string, { id: string; title: string }>();
  for (const inc of inputs.openIncidents)
    for (const p of inc.failedPairs) for (const u of p.units) heldBy.set(compositeKey(p.nodeId, u), { id: inc.id, title: inc.title });

  return groupAlertsByRootCause(rooted).map((g): AlertGroupView => {
    const members = g.alertIds.map((id) => byId.get(id)!);
    const roots = g.roots.map((r) => ({
      taskNodeId: r.taskNodeId,
      datasetNodeId: r.datasetNodeId,
      name: nodeName(r.taskNodeId ?? r.datasetNodeId),
      units: r.units.map((u) => {
        const d = graph.index.get(r.datasetNodeId)!;
        const v = graph.nodes[d]!.space.validate(u.key);
        return { key: u.key, state: u.state, words: wordsFor(u.state, v.valid ? states.resultAt(d, v.ordinal) : undefined) };
      }),
    }));
    const reach = reachOf(graph, g.roots, inputs, sentByTask);
    const severityWhy = [
      ...(members.some((m) => m.severity === "critical") ? [`${members.filter((m) => m.severity === "critical").length} of its alerts are critical`] : []),
      ...(reach.delivered.length > 0
        ? [`${reach.delivered.length} unit${reach.delivered.length === 1 ? "" : "s"} already delivered outside the platform`]
        : []),
      ...(reach.outside.length > 0 ? [`reaches ${reach.outside.join(", ")}, read outside the platform`] : []),
    ];
    const rootPairs = roots.flatMap((r) => (r.taskNodeId ? r.units.map((u) => compositeKey(r.taskNodeId!, u.key)) : []));
    const handled = rootPairs.map((k) => heldBy.get(k)).find((h) => h !== undefined) ?? null;
    const writable = roots.filter((r) => r.taskNodeId !== null);
    return {
      id: g.id,
      title: roots.length === 0 ? `${members[0]!.datasetName}: ${members[0]!.title}` : rootsInWords(roots),
      severity: severityWhy.length > 0 ? "critical" : g.severity,
      severityWhy,
      roots,
      affected: reach.affected,
      affectedUnits: reach.affected.reduce((n, a) => n + a.units, 0),
      deliveredOutside: reach.delivered,
      members: members.map((m) => ({ id: m.id, rule: m.rule, severity: m.severity, datasetName: m.datasetName, unitCount: m.units.length })),
      // One incident from the first root task (the form proposes the rest once opened on the symptom side).
      incidentHref:
        writable.length > 0
          ? `/incidents/new?node=${encodeURIComponent(writable[0]!.taskNodeId!)}&units=${encodeURIComponent(writable[0]!.units.map((u) => u.key).join(","))}`
          : null,
      handledBy: handled,
    };
  });
}

/** The alert's units walked upstream; an alert with no unit (a failed check) or no writer has no root. */
function rootsOf(graph: LineageGraph, a: EvaluatedAlert, stateOf: Parameters<typeof walkToRootCauses>[2], budget: number): readonly RootCause[] {
  if (!a.taskNodeId || a.units.length === 0) return [];
  const ti = graph.index.get(a.taskNodeId as NodeId);
  const di = graph.index.get(a.datasetNodeId as NodeId);
  if (ti === undefined || di === undefined) return [];
  const space = graph.nodes[di]!.space;
  const ordinals = a.units.slice(0, WALKED_UNITS).flatMap((k) => {
    const v = space.validate(k);
    return v.valid ? [v.ordinal] : [];
  });
  // The writer's units that wrote these dataset units (identity for a plain write).
  const write = graph.in[di]!.find((e) => e.kind === "writes" && e.from === ti);
  if (!write || ordinals.length === 0) return [];
  const walk = walkToRootCauses(graph, { taskNodeId: a.taskNodeId as NodeId, units: write.up(UnitSet.fromOrdinals(ordinals)) }, stateOf, budget);
  return walk.roots;
}

/** What the roots reach: per dataset the units of their downstream closure, those read outside, and those already delivered. */
function reachOf(graph: LineageGraph, roots: readonly RootCause[], inputs: GroupingInputs, sentByTask: Map<string, DeliveryRecord[]>) {
  const seeds = roots.flatMap((r) => {
    const d = graph.index.get(r.datasetNodeId);
    if (d === undefined) return [];
    const space = graph.nodes[d]!.space;
    return [
      {
        node: r.datasetNodeId,
        units: UnitSet.fromOrdinals(r.units.flatMap((u) => (space.validate(u.key).valid ? [(space.validate(u.key) as { ordinal: number }).ordinal] : []))),
      },
    ];
  });
  if (seeds.length === 0) return { affected: [], outside: [], delivered: [] };
  const down = closure(graph, seeds, "downstream");
  const affected: AlertGroupView["affected"] = [];
  const outside: string[] = [];
  const delivered: string[] = [];
  for (const e of down.entries.values()) {
    const node = graph.nodes[graph.index.get(e.node)!]!;
    if (node.nodeKind === "dataset") {
      const record = inputs.datasets.get(node.id);
      affected.push({ datasetNodeId: node.id, name: nodeName(node.id), pipeline: record?.pipeline ?? null, units: e.units.size });
      if (node.kind === "dashboard" || node.kind === "export" || node.externalConsumer) outside.push(nodeName(node.id));
      continue;
    }
    const task = inputs.tasks.get(node.id);
    for (const x of task ? (sentByTask.get(task.id) ?? []) : []) {
      const v = node.space.validate(x.unitKey);
      if (v.valid && e.units.contains(v.ordinal)) delivered.push(`${nodeName(node.id)} ${x.unitKey} sent to ${x.destination} at ${x.sentAt.toISOString()}`);
    }
  }
  return { affected, outside: [...new Set(outside)], delivered };
}
