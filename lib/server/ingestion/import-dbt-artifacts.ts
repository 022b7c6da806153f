import type { Submitter } from "../auth/roles";
import type { DbtImportBody, DbtImportResult } from "@/lib/contracts/ingestion-dbt";
import { formatNodeId } from "@/lib/domain/ids";
import type { Db, Tx } from "../repositories/database";
import {
  assignTaskPipelines,
  countKnownNodes,
  ensureDatasets,
  ensurePipelines,
  ensureTasks,
  recordTaskFacts,
  markChecks,
  markSources,
  pipelineKey,
  type DatasetHandle,
  type TaskHandle,
} from "../repositories/lineage/catalog-writes";
import { applyObservedLineage } from "./apply-folded-runs";
import { buildDbtGraph, type DbtGraph } from "./dbt-graph";
import { commandJobName, datasetNamespaceOf } from "./dbt-naming";
import { planDbtRun } from "./dbt-run";
import { inOneTransaction } from "./in-one-transaction";
import { contentHash, runRowId } from "./stable-id";
import { writeDbtRun, type DbtRunWritten } from "./write-dbt-run";

const DBT_OL_DEFAULT_NAMESPACE = "default";

/**
 * Imports dbt's manifest.json (+ run_results.json): models, seeds and snapshots become tasks and
 * the relations they build datasets, tests become checks of what they read (no store-failures
 * dataset to complete), sources become datasets read, and dependencies become versioned lineage
 * edges. No definition is declared: a relation's expected units stay unknown (never "missing")
 * until someone sets a partition definition, so a view that reports no rows, or a table a
 * `dbt test` run did not build, is not a hole — all named as dbt-ol names them, so the import and dbt-ol
 * events land on the same nodes. Run results become one run of the command's pipeline. One
 * transaction; importing the same artifacts again changes nothing.
 */
export async function importDbtArtifacts(db: Db, body: DbtImportBody, now = new Date(), submitter?: Submitter): Promise<DbtImportResult> {
  const namespace = body.namespace ?? DBT_OL_DEFAULT_NAMESPACE;
  const ns = datasetNamespaceOf(body.manifest.metadata.adapter_type ?? "unknown", body.datasetNamespace);
  const graph = buildDbtGraph(body.manifest, namespace, ns.namespace);
  const plan = body.run_results ? planDbtRun(body.run_results, graph.parentsOf) : null;
  const invocationId = body.run_results ? (body.run_results.metadata.invocation_id ?? contentHash(JSON.stringify(body.run_results)).slice(0, 32)) : null;
  const pipelineJob = formatNodeId("job", namespace, commandJobName(graph.project));
  const runId = invocationId ? runRowId(pipelineJob, invocationId) : null;
  const at = Date.parse(body.manifest.metadata.generated_at ?? body.run_results?.metadata.generated_at ?? now.toISOString());
  return inOneTransaction(db, async (tx) => {
    const catalog = await writeCatalog(tx, graph, namespace, runId ?? `dbt-manifest:${body.manifest.metadata.invocation_id ?? at}`, at);
    const run = plan && runId && invocationId ? await writeDbtRun(tx, graph, plan, { runId, externalId: invocationId, ...catalog }, submitter) : null;
    return {
      project: graph.project,
      adapter: graph.adapter,
      manifestVersion: graph.manifestVersion,
      namespace,
      datasetNamespace: ns.namespace,
      pipeline: pipelineJob,
      warnings: ns.warning ? [ns.warning] : [],
      nodes: graph.nodeCounts,
      ignored: graph.ignored,
      tasks: graph.tasks.length,
      datasets: catalog.datasets.size,
      dependencies: graph.dependencies,
      dangling: graph.dangling,
      run:
        run && plan
          ? { id: runId!, invocationId: invocationId!, command: plan.command, status: plan.status, attempts: run.byStatus, unknownNodes: run.unknownNodes }
          : null,
      written: { ...catalog.written, ...runCounts(run) },
    };
  });
}

interface Catalog {
  tasks: Map<string, TaskHandle>;
  datasets: Map<string, DatasetHandle>;
  pipelineId: string;
  written: { tasks: number; datasets: number; edges: number };
}

async function writeCatalog(tx: Tx, graph: DbtGraph, namespace: string, observedRunId: string, at: number): Promise<Catalog> {
  const taskRefs = graph.tasks.map((t) => t.task);
  const datasetRefs = [...graph.sources, ...graph.tasks.flatMap((t) => [...(t.output ? [t.output] : []), ...t.inputs])];
  const before = await countKnownNodes(
    tx,
    taskRefs.map((r) => r.nodeId),
    datasetRefs.map((r) => r.nodeId),
  );
  const tasks = await ensureTasks(tx, taskRefs);
  const datasets = await ensureDatasets(tx, datasetRefs);
  await markSources(
    tx,
    graph.sources.map((s) => s.nodeId),
  );
  await markChecks(
    tx,
    graph.tasks.filter((t) => t.output === null).map((t) => tasks.get(t.task.nodeId)!.id),
  );
  // The manifest says how each model rebuilds its relation (materialization, incremental strategy):
  // the dbt source's word, under a person's declaration and over what OpenLineage facets say.
  await recordTaskFacts(
    tx,
    graph.tasks.flatMap((t) =>
      t.writeMode || t.owner
        ? [{ taskId: tasks.get(t.task.nodeId)!.id, facts: { writeMode: t.writeMode ?? undefined, owner: t.owner ?? undefined }, source: "dbt" as const }]
        : [],
    ),
  );
  const pipelineName = commandJobName(graph.project);
  const pipelineId = (await ensurePipelines(tx, [{ namespace, name: pipelineName }])).get(pipelineKey(namespace, pipelineName))!;
  await assignTaskPipelines(tx, new Map([...tasks.values()].map((t) => [t.id, pipelineId])));
  const edges = await applyObservedLineage(
    tx,
    graph.tasks.map((t) => ({
      runId: observedRunId,
      taskId: tasks.get(t.task.nodeId)!.id,
      at,
      authoritative: true,
      edges: [
        ...t.inputs.map((i) => ({ datasetId: datasets.get(i.nodeId)!.id, direction: "read" as const })),
        ...(t.output ? [{ datasetId: datasets.get(t.output.nodeId)!.id, direction: "write" as const }] : []),
      ],
    })),
  );
  return { tasks, datasets, pipelineId, written: { tasks: tasks.size - before[0], datasets: datasets.size - before[1], edges } };
}

const runCounts = (run: DbtRunWritten | null) => ({
  runs: run?.runs ?? 0,
  attempts: run?.attempts ?? 0,
  publishes: run?.publishes ?? 0,
  invalidKeys: run?.invalidKeys ?? 0,
});
