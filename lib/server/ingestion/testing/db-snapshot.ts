import type { Db } from "../../db/client";

/** Row counts of every table ingestion can write, to assert exact effects (or none). */
export async function tableCounts(db: Db) {
  return {
    tasks: await db.task.count(),
    datasets: await db.dataset.count(),
    pipelines: await db.pipeline.count(),
    runs: await db.run.count(),
    attempts: await db.attempt.count(),
    edges: await db.lineageEdge.count(),
    publishes: await db.publish.count(),
    invalidKeys: await db.invalidKey.count(),
    events: await db.ingestedEvent.count(),
    sourceCounts: await db.sourceCount.count(),
    warehouseCounts: await db.warehouseCount.count(),
    unitMarks: await db.unitMark.count(),
    auditEntries: await db.auditEntry.count(),
    partitionKeys: await db.partitionKey.count(),
  };
}

/** Everything but the rejection log, which records refusals on purpose. */
export async function ingestionState(db: Db): Promise<string> {
  const [tasks, datasets, runs, attempts, edges, publishes, invalidKeys, events, sourceCounts] = await Promise.all([
    db.task.findMany({ orderBy: { nodeId: "asc" } }),
    db.dataset.findMany({ orderBy: { nodeId: "asc" } }),
    db.run.findMany({ orderBy: { id: "asc" } }),
    db.attempt.findMany({ orderBy: { id: "asc" } }),
    db.lineageEdge.findMany({ orderBy: [{ taskId: "asc" }, { datasetId: "asc" }, { validFrom: "asc" }] }),
    db.publish.findMany({ orderBy: { id: "asc" } }),
    db.invalidKey.findMany({ orderBy: [{ nodeId: "asc" }, { unitKey: "asc" }] }),
    db.ingestedEvent.findMany({ orderBy: { eventHash: "asc" }, select: { eventHash: true } }),
    db.sourceCount.findMany({ orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify({ tasks, datasets, runs, attempts, edges, publishes, invalidKeys, events, sourceCounts });
}
