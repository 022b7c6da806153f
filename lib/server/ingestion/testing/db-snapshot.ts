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

/**
 * What ingestion wrote, with the generated ids (datasets', tasks', pipelines') replaced by the
 * names they stand for and the write times dropped: two databases that folded the same events
 * compare equal (whatever order the events and declarations came in).
 */
export async function ledgerState(db: Db): Promise<unknown> {
  const [tasks, datasets, pipelines, runs, attempts, edges, publishes, invalidKeys] = await Promise.all([
    db.task.findMany(),
    db.dataset.findMany(),
    db.pipeline.findMany(),
    db.run.findMany(),
    db.attempt.findMany(),
    db.lineageEdge.findMany(),
    db.publish.findMany(),
    db.invalidKey.findMany(),
  ]);
  const names = new Map<string, string>([
    ...tasks.map((t) => [t.id, t.nodeId] as [string, string]),
    ...datasets.map((d) => [d.id, d.nodeId] as [string, string]),
    ...pipelines.map((p) => [p.id, `${p.namespace}/${p.name}`] as [string, string]),
  ]);
  // An attempt's id is derived from its task's row id, which each database gives its own: named by what it is.
  for (const a of attempts) names.set(a.id, `${names.get(a.taskId) ?? a.taskId}/${a.runId}/${a.unitKey}/${a.tryNumber}`);
  const DROPPED = new Set(["createdAt", "updatedAt", "recordedAt"]);
  const plain = (rows: object[], keepId: boolean) =>
    rows
      .map((r) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r)
              .filter(([k]) => !DROPPED.has(k) && (keepId || k !== "id"))
              .map(([k, v]) => [k, typeof v === "string" ? (names.get(v) ?? v) : v]),
          ),
        ),
      )
      .sort();
  return {
    tasks: plain(tasks, false),
    datasets: plain(datasets, false),
    pipelines: plain(pipelines, false),
    runs: plain(runs, true),
    attempts: plain(attempts, false),
    edges: plain(edges, false),
    publishes: plain(publishes, false),
    invalidKeys: plain(invalidKeys, false),
  };
}
