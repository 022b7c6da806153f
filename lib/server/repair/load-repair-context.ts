import { buildLineageGraph, type LineageGraph } from "@/lib/domain/lineage-graph";
import type { NodeId } from "@/lib/domain/ids";
import { summariseLedger, type Ledger, type LedgerRow } from "@/lib/domain/repair-scope";
import type { Db } from "../repositories/database";
import { listDatasets, listEdgesAt, listTasks, type DatasetRecord, type TaskRecord } from "../repositories/lineage/catalog-reads";
import { allDeliveries } from "../repositories/ledger/external-deliveries";
import { publishCountsByUnit } from "../repositories/ledger/unit-ledger";
import { buildLineageSpec } from "../lineage/lineage-spec";

export interface RepairContext {
  graph: LineageGraph;
  ledger: Ledger;
  tasks: ReadonlyMap<string, TaskRecord>;
  datasets: ReadonlyMap<string, DatasetRecord>;
  /** Task node id → the dataset it writes. */
  outputOf: ReadonlyMap<string, DatasetRecord>;
  now: Date;
}

/**
 * The lineage as the planner needs it: the graph that holds now, with each task's declared
 * repair-safety properties (unknown stays undefined: the planner counts it unsafe), and the
 * ledger folded into per-node facts (published, published more than once, consumed outside).
 */
export async function loadRepairContext(db: Db, now: Date): Promise<RepairContext> {
  const [tasks, datasets, edges] = await Promise.all([listTasks(db), listDatasets(db), listEdgesAt(db, now)]);
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const datasetById = new Map(datasets.map((d) => [d.id, d]));
  // A check (a dbt test) builds nothing: re-running it repairs no unit, and the build of the model it
  // tests runs it anyway (`dbt build`). Its reads do not put it downstream of what a repair rebuilds,
  // where its unknown write mode would hold the plan (the real dbt of the peers lab, e2e/peers/dbt.spec.ts).
  const checks = new Set(tasks.filter((t) => t.kind === "check").map((t) => t.id));
  const spec = buildLineageSpec(
    tasks,
    datasets,
    edges.filter((e) => !(e.direction === "read" && checks.has(e.taskId))),
  );
  const graph = buildLineageGraph(spec, { asOf: now.getTime() });
  const outputOf = new Map<string, DatasetRecord>();
  for (const e of edges)
    if (e.direction === "write" && taskById.has(e.taskId) && datasetById.has(e.datasetId))
      outputOf.set(taskById.get(e.taskId)!.nodeId, datasetById.get(e.datasetId)!);
  const ledger = summariseLedger(graph, await ledgerRows(db, datasets, outputOf, taskById)).ledger;
  return {
    graph,
    ledger,
    now,
    outputOf,
    tasks: new Map(tasks.map((t) => [t.nodeId, t])),
    datasets: new Map(datasets.map((d) => [d.nodeId, d])),
  };
}

async function ledgerRows(db: Db, datasets: DatasetRecord[], outputOf: Map<string, DatasetRecord>, taskById: Map<string, TaskRecord>): Promise<LedgerRow[]> {
  const [counts, deliveries] = await Promise.all([publishCountsByUnit(db), allDeliveries(db)]);
  const nodeOf = new Map(datasets.map((d) => [d.id, d.nodeId as NodeId]));
  const rows: LedgerRow[] = counts.flatMap((c) => {
    const node = nodeOf.get(c.datasetId);
    return node ? [{ node, key: c.unitKey, publishCount: c.count }] : [];
  });
  for (const d of deliveries) {
    const task = taskById.get(d.taskId);
    const out = task && outputOf.get(task.nodeId);
    if (out) rows.push({ node: out.nodeId as NodeId, key: d.unitKey, publishCount: 0, consumed: true });
  }
  return rows;
}
