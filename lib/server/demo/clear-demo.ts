import type { Db } from "../db/client";
import { DEMO_DATASET_NODE_IDS, DEMO_NAMESPACES, DEMO_TASK_NODE_IDS } from "./demo-node-ids";

/**
 * Deletes an earlier demo world, children before parents: warehouse rows, ledger, attempts,
 * deliveries, claims, marks, incidents and plans about demo runs, runs, edges, tasks, datasets,
 * pipelines, and the demo's invalid keys. The audit log is append-only and is never touched;
 * users are kept (they are upserted by the loader).
 */
export async function clearDemo(db: Db): Promise<void> {
  const [tasks, datasets, pipelines] = await Promise.all([
    db.task.findMany({ where: { nodeId: { in: [...DEMO_TASK_NODE_IDS] } }, select: { id: true } }),
    db.dataset.findMany({ where: { nodeId: { in: [...DEMO_DATASET_NODE_IDS] } }, select: { id: true } }),
    db.pipeline.findMany({ where: { namespace: { in: [...DEMO_NAMESPACES] } }, select: { id: true } }),
  ]);
  const taskIds = tasks.map((t) => t.id);
  const datasetIds = datasets.map((d) => d.id);
  const pipelineIds = pipelines.map((p) => p.id);
  const runs = await db.run.findMany({ where: { OR: [{ pipelineId: { in: pipelineIds } }, { attempts: { some: { taskId: { in: taskIds } } } }] }, select: { id: true } });
  const runIds = runs.map((r) => r.id);
  const incidents = await db.incident.findMany({ where: { OR: [{ pipelineId: { in: pipelineIds } }, { originRunId: { in: runIds } }] }, select: { id: true } });
  const incidentIds = incidents.map((i) => i.id);
  await db.$transaction(async (tx) => {
    await tx.warehouseRow.deleteMany({ where: { datasetId: { in: datasetIds } } });
    await tx.publish.deleteMany({ where: { OR: [{ datasetId: { in: datasetIds } }, { runId: { in: runIds } }] } });
    await tx.attempt.deleteMany({ where: { OR: [{ taskId: { in: taskIds } }, { runId: { in: runIds } }] } });
    await tx.externalDelivery.deleteMany({ where: { taskId: { in: taskIds } } });
    await tx.repairClaim.deleteMany({ where: { OR: [{ taskId: { in: taskIds } }, { runId: { in: runIds } }] } });
    await tx.sourceCount.deleteMany({ where: { datasetId: { in: datasetIds } } });
    await tx.warehouseCount.deleteMany({ where: { datasetId: { in: datasetIds } } });
    await tx.unitMark.deleteMany({ where: { datasetId: { in: datasetIds } } });
    await tx.partitionKey.deleteMany({ where: { datasetId: { in: datasetIds } } });
    await tx.repairPlan.deleteMany({ where: { incidentId: { in: incidentIds } } });
    await tx.incident.deleteMany({ where: { id: { in: incidentIds } } });
    await tx.run.deleteMany({ where: { id: { in: runIds } } });
    await tx.lineageEdge.deleteMany({ where: { OR: [{ taskId: { in: taskIds } }, { datasetId: { in: datasetIds } }] } });
    await tx.task.deleteMany({ where: { id: { in: taskIds } } });
    await tx.dataset.deleteMany({ where: { id: { in: datasetIds } } });
    await tx.orchestratorConnection.deleteMany({ where: { pipelineId: { in: pipelineIds } } });
    await tx.warehouseConnection.deleteMany({ where: { kind: "demo" } });
    await tx.pipeline.deleteMany({ where: { id: { in: pipelineIds } } });
    await tx.invalidKey.deleteMany({ where: { nodeId: { in: [...DEMO_TASK_NODE_IDS, ...DEMO_DATASET_NODE_IDS] } } });
  }, { timeout: 120_000, maxWait: 60_000 });
}
