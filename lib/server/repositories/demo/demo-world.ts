import { inTransaction, type Db } from "../database";
import { prismaOf } from "../prisma-handle";

/** What names the demo world: its tasks' and datasets' node ids and its pipelines' namespaces. */
export interface DemoWorldNames {
  taskNodeIds: readonly string[];
  datasetNodeIds: readonly string[];
  namespaces: readonly string[];
}

/**
 * Deletes an earlier demo world, children before parents: warehouse rows, ledger, attempts,
 * deliveries, claims, counts, marks, incidents and plans about demo runs, runs, edges, tasks,
 * datasets, connections, pipelines, and the demo's invalid keys. The audit log is append-only and
 * is never touched; users are kept.
 */
export async function deleteDemoWorld(db: Db, names: DemoWorldNames): Promise<void> {
  const [tasks, datasets, pipelines] = await Promise.all([
    prismaOf(db).task.findMany({ where: { nodeId: { in: [...names.taskNodeIds] } }, select: { id: true } }),
    prismaOf(db).dataset.findMany({ where: { nodeId: { in: [...names.datasetNodeIds] } }, select: { id: true } }),
    prismaOf(db).pipeline.findMany({ where: { namespace: { in: [...names.namespaces] } }, select: { id: true } }),
  ]);
  const taskIds = tasks.map((t) => t.id);
  const datasetIds = datasets.map((d) => d.id);
  const pipelineIds = pipelines.map((p) => p.id);
  const runs = await prismaOf(db).run.findMany({
    where: { OR: [{ pipelineId: { in: pipelineIds } }, { attempts: { some: { taskId: { in: taskIds } } } }] },
    select: { id: true },
  });
  const runIds = runs.map((r) => r.id);
  const incidents = await prismaOf(db).incident.findMany({
    where: { OR: [{ pipelineId: { in: pipelineIds } }, { originRunId: { in: runIds } }] },
    select: { id: true },
  });
  const incidentIds = incidents.map((i) => i.id);
  await inTransaction(
    db,
    async (tx) => {
      await prismaOf(tx).warehouseRow.deleteMany({ where: { datasetId: { in: datasetIds } } });
      await prismaOf(tx).publish.deleteMany({ where: { OR: [{ datasetId: { in: datasetIds } }, { runId: { in: runIds } }] } });
      await prismaOf(tx).attempt.deleteMany({ where: { OR: [{ taskId: { in: taskIds } }, { runId: { in: runIds } }] } });
      await prismaOf(tx).externalDelivery.deleteMany({ where: { taskId: { in: taskIds } } });
      await prismaOf(tx).repairClaim.deleteMany({ where: { OR: [{ taskId: { in: taskIds } }, { runId: { in: runIds } }] } });
      await prismaOf(tx).sourceCount.deleteMany({ where: { datasetId: { in: datasetIds } } });
      await prismaOf(tx).warehouseCount.deleteMany({ where: { datasetId: { in: datasetIds } } });
      await prismaOf(tx).unitMark.deleteMany({ where: { datasetId: { in: datasetIds } } });
      await prismaOf(tx).partitionKey.deleteMany({ where: { datasetId: { in: datasetIds } } });
      await prismaOf(tx).repairPlan.deleteMany({ where: { incidentId: { in: incidentIds } } });
      await prismaOf(tx).incident.deleteMany({ where: { id: { in: incidentIds } } });
      await prismaOf(tx).run.deleteMany({ where: { id: { in: runIds } } });
      await prismaOf(tx).lineageEdge.deleteMany({ where: { OR: [{ taskId: { in: taskIds } }, { datasetId: { in: datasetIds } }] } });
      await prismaOf(tx).task.deleteMany({ where: { id: { in: taskIds } } });
      await prismaOf(tx).dataset.deleteMany({ where: { id: { in: datasetIds } } });
      await prismaOf(tx).orchestratorConnection.deleteMany({ where: { pipelineId: { in: pipelineIds } } });
      await prismaOf(tx).warehouseConnection.deleteMany({ where: { kind: "demo" } });
      await prismaOf(tx).pipeline.deleteMany({ where: { id: { in: pipelineIds } } });
      await prismaOf(tx).invalidKey.deleteMany({ where: { nodeId: { in: [...names.taskNodeIds, ...names.datasetNodeIds] } } });
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}

/** What a loaded world holds: attempts by status, publishes, warehouse rows, deliveries, the demo's invalid keys. */
export async function demoWorldCounts(
  db: Db,
): Promise<{ attempts: Record<string, number>; publishes: number; warehouseRows: number; deliveries: number; invalidKeys: number }> {
  const [statuses, publishes, warehouseRows, deliveries, invalidKeys] = await Promise.all([
    prismaOf(db).attempt.groupBy({ by: ["status"], _count: { _all: true } }),
    prismaOf(db).publish.count(),
    prismaOf(db).warehouseRow.count(),
    prismaOf(db).externalDelivery.count(),
    prismaOf(db).invalidKey.count({ where: { source: "demo" } }),
  ]);
  return { attempts: Object.fromEntries(statuses.map((s) => [s.status, s._count._all])), publishes, warehouseRows, deliveries, invalidKeys };
}
