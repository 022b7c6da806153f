import { PartitionDefSchema } from "@/lib/contracts/partitions";
import { buildLineageGraph, type LineageGraph } from "@/lib/domain/lineage-graph";
import { resolvePartitions, type PartitionDef } from "@/lib/domain/partitions";
import type { Db } from "../repositories/database";
import {
  listDatasets,
  listEdgesAt,
  listTasks,
  pipelineJobIds,
  taskIdsWithEdges,
  type DatasetRecord,
  type TaskRecord,
} from "../repositories/lineage/catalog-reads";
import { distinctPartitionDefs, lastLineageChangeAt, lineageFingerprint } from "../repositories/lineage/lineage-fingerprint";
import { remember } from "../cache/recent-promises";
import { processSingleton } from "../runtime/process-singleton";
import { buildLineageSpec } from "./lineage-spec";
import { compositeKey } from "@/lib/domain/composite-key";

export interface LoadedLineage {
  graph: LineageGraph;
  tasks: ReadonlyMap<string, TaskRecord>;
  datasets: ReadonlyMap<string, DatasetRecord>;
}

/**
 * The lineage that held at `asOf` (edges valid then), compiled by lib/domain's
 * buildLineageGraph. Units are the ones whose window had closed by `asOf`, so a closure "as of"
 * a past instant never names a unit that did not exist yet. A catalog the domain rejects (a
 * cycle, a mapping between incompatible definitions) is an error in words, not a partial graph.
 */
export async function loadLineageGraph(db: Db, asOf: Date): Promise<LoadedLineage> {
  const [fingerprint, lastChange] = await Promise.all([lineageFingerprint(db), lastLineageChangeAt(db, asOf)]);
  const key = compositeKey(fingerprint, String(lastChange), String(await unitEpoch(db, fingerprint, asOf)));
  return remember(cacheOf(db), key, CACHED_GRAPHS, () => compileLineage(db, asOf));
}

/**
 * Compiled lineages per database, keyed by what the compile depends on: the catalog's
 * fingerprint, the lineage's last change point at `asOf` (the edges valid then), and the number
 * of units each open-ended partition definition has at `asOf`. Two instants with the same key
 * compile to the same graph, so any `asOf` gets the same answer whatever was asked before.
 * Compiling 10,000 nodes costs ~1.4 s; the closure, the holdings and the graph view of one page
 * share one compile, and a catalog change shows up on the next request.
 */
const CACHED_GRAPHS = 4;

/**
 * Per process, not per bundle (runtime/process-singleton.ts): the lineage compiled by the start-up
 * warm-up is the one the first click's closure walks — kept per bundle, the closure route compiled
 * the 50,000-node lineage again, 9 s into the first click (docs/lineage.md).
 */
const compiled = processSingleton("compiledLineages", () => ({
  graphs: new WeakMap<Db, Map<string, Promise<LoadedLineage>>>(),
  /** The open-ended definitions of a database's catalog (by fingerprint): their unit counts grow with the clock. */
  openDefs: new WeakMap<Db, Map<string, Promise<PartitionDef[]>>>(),
}));

async function unitEpoch(db: Db, fingerprint: string, asOf: Date): Promise<string> {
  let perDb = compiled.openDefs.get(db);
  if (!perDb) compiled.openDefs.set(db, (perDb = new Map()));
  const defs = await remember(perDb, fingerprint, 2, async () => (await distinctPartitionDefs(db)).flatMap(openEnded));
  return defs
    .map((def) => {
      try {
        return resolvePartitions(def, { asOf: asOf.getTime() }).size;
      } catch {
        return -1;
      }
    })
    .join(",");
}

function openEnded(json: string): PartitionDef[] {
  const parsed = PartitionDefSchema.safeParse(safeJson(json));
  if (!parsed.success) return [];
  const def = parsed.data;
  const open =
    def.kind === "time" ? def.end === undefined : def.kind === "multi" && def.dimensions.some((d) => d.def.kind === "time" && d.def.end === undefined);
  return open ? [def] : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
function cacheOf(db: Db): Map<string, Promise<LoadedLineage>> {
  let cache = compiled.graphs.get(db);
  if (!cache) compiled.graphs.set(db, (cache = new Map()));
  return cache;
}

async function compileLineage(db: Db, asOf: Date): Promise<LoadedLineage> {
  const [taskRows, datasetRows, edges, everWired, pipelines] = await Promise.all([
    listTasks(db),
    listDatasets(db),
    listEdgesAt(db, asOf),
    taskIdsWithEdges(db),
    pipelineJobIds(db),
  ]);
  // A node is in the lineage of `asOf` when an edge of that time touches it — and a job that ran
  // without ever naming a dataset (it failed before its first write, a notifier) is a node too:
  // its failure has a place to be shown, and a closure to start from.
  const live = new Set(edges.flatMap((e) => [e.taskId, e.datasetId]));
  // (A pipeline's own job — the DAG's runs — is the group its tasks are drawn in, not a task.)
  for (const t of taskRows) if (!everWired.has(t.id) && t.kind === "task" && !pipelines.has(t.nodeId)) live.add(t.id);
  const spec = buildLineageSpec(
    taskRows.filter((t) => live.has(t.id)),
    datasetRows.filter((d) => live.has(d.id)),
    edges,
  );
  const graph = buildLineageGraph(spec, { asOf: asOf.getTime() });
  return {
    graph,
    tasks: new Map(taskRows.map((t) => [t.nodeId, t])),
    datasets: new Map(datasetRows.map((d) => [d.nodeId, d])),
  };
}
