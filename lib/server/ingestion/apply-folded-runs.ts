import type { Tx } from "../repositories/database";
import { recordDatasetOwners } from "../repositories/people/dataset-owners";
import {
  assignTaskPipelines,
  ensureDatasets,
  ensurePipelines,
  ensureTasks,
  markChecks,
  pipelineKey,
  recordTaskFacts,
} from "../repositories/lineage/catalog-writes";
import { edgeRowsOfTasks, saveEdgeRows } from "../repositories/lineage/lineage-edges";
import { appendPublishes, assignRunPipeline, reportInvalidKeys, rerootRuns, runsByIds, upsertAttempts, upsertRuns } from "../repositories/ledger/ingested-runs";
import { buildRunRows, type RunRows } from "./build-run-rows";
import type { FoldedRun } from "./fold-run-events";
import { applyRunLineage, type RunLineage } from "./lineage-history";
import { linkRuns, type PipelineRef } from "./link-runs";
import { UnitKeyResolver } from "./resolve-unit-keys";
import { runRowIdOf } from "./stable-id";
import type { Submitter } from "../auth/roles";
import { heldFromSubmitter, heldKey, refuseHeldPublishes } from "../incidents/held-units";

export interface AppliedCounts {
  runs: number;
  attempts: number;
  publishes: number;
  invalidKeys: number;
  edges: number;
  /** Publishes left out because an open incident holds their unit (refolds of a sender's events). */
  held?: number;
}

/**
 * Writes what the folded runs imply, with batch reads and createMany: one round trip per table,
 * not per event. The publishes are recorded as sent by `submittedBy` (the submitter, unless the
 * fold job says whose queued events these were). A publish of a unit an open incident holds is
 * refused (403) for a submitter who may not make it — or, folding again what that submitter sent
 * earlier (`held: "skip"`), left out and counted.
 */
export async function applyFoldedRuns(
  tx: Tx,
  runs: FoldedRun[],
  submitter?: Submitter,
  submittedBy: string | null = submitter?.id ?? null,
  options: { held: "refuse" | "skip" } = { held: "refuse" },
): Promise<AppliedCounts> {
  const ordered = [...runs].sort((a, b) => a.tries[0]!.startedAt - b.tries[0]!.startedAt);
  const tasks = await ensureTasks(
    tx,
    ordered.map((r) => ({ nodeId: r.jobNodeId, namespace: r.namespace, name: r.name })),
  );
  const datasets = await ensureDatasets(
    tx,
    ordered.flatMap((r) => [...r.inputs, ...r.outputs]),
  );
  const ids = ordered.map(runRowIdOf);
  const parentIds = ordered.flatMap((r) => (r.parent ? [runRowIdOf(r.parent)] : []));
  const stored = await runsByIds(tx, [...new Set([...ids, ...parentIds])]);
  const links = linkRuns(ordered, stored);
  const pipelines = await ensurePipelines(
    tx,
    [...links.values()].flatMap((l) => (l.pipeline && "ref" in l.pipeline ? [l.pipeline.ref] : [])),
  );
  const pipelineIdOf = (p: PipelineRef) => (p === null ? null : "id" in p ? p.id : pipelines.get(pipelineKey(p.ref.namespace, p.ref.name))!);
  const resolver = new UnitKeyResolver();
  const rows: RunRows[] = ordered.map((run, i) => {
    const link = links.get(ids[i]!)!;
    const task = tasks.get(run.jobNodeId)!;
    const pipelineId = pipelineIdOf(link.pipeline) ?? task.pipelineId;
    return buildRunRows(run, { task, datasets, resolver, parentRunId: link.parentRunId, rootRunId: link.rootRunId, pipelineId });
  });
  const nodeIdOfDataset = new Map([...datasets].map(([nodeId, d]) => [d.id, nodeId]));
  let held = 0;
  if (options.held === "refuse")
    await refuseHeldPublishes(
      tx,
      rows.flatMap((r) => r.publishes),
      submitter,
      (id) => nodeIdOfDataset.get(id) ?? id,
    );
  else {
    const keys = await heldFromSubmitter(
      tx,
      rows.flatMap((r) => r.publishes),
      submitter,
    );
    // The run's try on a held unit is left out with its publish: an attempt that succeeded
    // without a publish would show the failed unit as merely missing.
    for (const r of rows) {
      const heldUnits = new Set(r.publishes.filter((p) => keys.has(heldKey(p.datasetId, p.unitKey))).map((p) => p.unitKey));
      if (heldUnits.size === 0) continue;
      held += r.publishes.filter((p) => heldUnits.has(p.unitKey)).length;
      r.publishes = r.publishes.filter((p) => !heldUnits.has(p.unitKey));
      r.attempts = r.attempts.filter((a) => !heldUnits.has(a.unitKey));
    }
  }
  await markChecks(
    tx,
    ordered.filter((r) => r.isCheck).map((r) => tasks.get(r.jobNodeId)!.id),
  );
  // What the producers' facets say of each task, each under its source's precedence.
  await recordTaskFacts(
    tx,
    ordered.flatMap((r) => {
      const taskId = tasks.get(r.jobNodeId)!.id;
      const { airflow, openlineage } = r.facts;
      return [
        { taskId, facts: { dependsOnOwnPast: airflow.dependsOnOwnPast ?? undefined, owner: airflow.owner ?? undefined }, source: "airflow" as const },
        { taskId, facts: { owner: openlineage.owner ?? undefined, writeMode: openlineage.writeMode ?? undefined }, source: "openlineage" as const },
      ];
    }),
  );
  // The `ownership` dataset facet: each dataset's owner, under a declared one.
  await recordDatasetOwners(
    tx,
    ordered.flatMap((r) =>
      Object.entries(r.facts.datasetOwners).flatMap(([nodeId, owner]) => {
        const d = datasets.get(nodeId);
        return d ? [{ datasetId: d.id, owner, source: "openlineage" as const }] : [];
      }),
    ),
  );
  const runCount = await upsertRuns(
    tx,
    rows.map((r) => r.run),
    stored,
  );
  await linkRootsToPipelines(tx, rows);
  await rerootRuns(
    tx,
    rows.flatMap(({ run }) => (run.rootRunId ? [{ id: run.id, rootRunId: run.rootRunId, pipelineId: run.pipelineId }] : [])),
  );
  await assignTaskPipelines(
    tx,
    new Map(rows.flatMap((r, i) => (r.run.pipelineId ? [[tasks.get(ordered[i]!.jobNodeId)!.id, r.run.pipelineId] as [string, string]] : []))),
  );
  return {
    runs: runCount,
    attempts: await upsertAttempts(
      tx,
      rows.flatMap((r) => r.attempts),
    ),
    publishes: await appendPublishes(
      tx,
      rows.flatMap((r) => r.publishes).map((p) => ({ ...p, submittedBy })),
    ),
    invalidKeys: await reportInvalidKeys(
      tx,
      rows.flatMap((r) => r.invalidKeys),
    ),
    edges: await applyLineage(tx, rows),
    ...(held > 0 ? { held } : {}),
  };
}

/** A root run stored before any child arrived learns its pipeline now. */
async function linkRootsToPipelines(tx: Tx, rows: RunRows[]): Promise<void> {
  const byPipeline = new Map<string, Set<string>>();
  for (const { run } of rows) {
    if (!run.rootRunId || !run.pipelineId) continue;
    byPipeline.set(run.pipelineId, (byPipeline.get(run.pipelineId) ?? new Set()).add(run.rootRunId));
  }
  for (const [pipelineId, rootIds] of byPipeline) {
    await assignRunPipeline(tx, pipelineId, [...rootIds]);
  }
}

async function applyLineage(tx: Tx, rows: RunRows[]): Promise<number> {
  return applyObservedLineage(
    tx,
    rows.map((r) => r.lineage),
  );
}

/** Folds runs' observed edges into the versioned lineage of their tasks (also used by the ledger API and the dbt import). */
export async function applyObservedLineage(tx: Tx, lineages: RunLineage[]): Promise<number> {
  const observed = lineages.filter((l) => l.edges.length > 0);
  const byTask = await edgeRowsOfTasks(tx, [...new Set(observed.map((l) => l.taskId))]);
  for (const lineage of observed) applyRunLineage(byTask.get(lineage.taskId)!, lineage);
  return saveEdgeRows(tx, [...byTask.values()].flat());
}
