import type { EdgeRow } from "../../ingestion/lineage-history";
import type { Tx } from "../database";
import { stableId } from "../../ingestion/stable-id";
import { prismaOf } from "../prisma-handle";

/** Every version of the edges of the given tasks, as change points in epoch ms. */
export async function edgeRowsOfTasks(tx: Tx, taskIds: string[]): Promise<Map<string, EdgeRow[]>> {
  const out = new Map<string, EdgeRow[]>(taskIds.map((id) => [id, []]));
  if (taskIds.length === 0) return out;
  const rows = await prismaOf(tx).lineageEdge.findMany({ where: { taskId: { in: taskIds } } });
  for (const r of rows) {
    out.get(r.taskId)!.push({
      id: r.id,
      taskId: r.taskId,
      datasetId: r.datasetId,
      direction: r.direction === "write" ? "write" : "read",
      mapping: r.mapping,
      mappingParams: r.mappingParams,
      validFrom: r.validFrom.getTime(),
      validTo: r.validTo?.getTime() ?? null,
      observedRunId: r.observedRunId,
    });
  }
  return out;
}

/** Stores new and changed edge versions; returns how many were written. */
export async function saveEdgeRows(tx: Tx, rows: EdgeRow[]): Promise<number> {
  const fresh = rows.filter((r) => r.id === null);
  const changed = rows.filter((r) => r.id !== null && r.changed);
  if (fresh.length > 0) {
    await prismaOf(tx).lineageEdge.createMany({
      data: fresh.map((r) => ({
        id: stableId("edge", r.taskId, r.datasetId, r.direction, r.validFrom),
        taskId: r.taskId,
        datasetId: r.datasetId,
        direction: r.direction,
        mapping: r.mapping,
        mappingParams: r.mappingParams,
        validFrom: new Date(r.validFrom),
        validTo: r.validTo === null ? null : new Date(r.validTo),
        observedRunId: r.observedRunId,
      })),
    });
  }
  for (const r of changed) {
    await prismaOf(tx).lineageEdge.update({
      where: { id: r.id! },
      data: { validFrom: new Date(r.validFrom), validTo: r.validTo === null ? null : new Date(r.validTo), observedRunId: r.observedRunId },
    });
  }
  return fresh.length + changed.length;
}

/** The node ids of every task that reads or writes the dataset, in any version of the lineage. */
export async function taskNodeIdsTouching(tx: Tx, datasetId: string): Promise<string[]> {
  const rows = await prismaOf(tx).lineageEdge.findMany({ where: { datasetId }, select: { task: { select: { nodeId: true } } }, distinct: ["taskId"] });
  return [...new Set(rows.map((r) => r.task.nodeId))];
}
