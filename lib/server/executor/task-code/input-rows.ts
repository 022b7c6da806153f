import type { TaskContext } from "../types";

/** The payloads one input delivered; an input the lineage does not give the task is a wiring bug. */
export function inputRows<T>(ctx: TaskContext, datasetNodeId: string): T[] {
  const input = ctx.inputs[datasetNodeId];
  if (!input) throw new Error(`${ctx.taskNodeId} has no input ${datasetNodeId} in its lineage`);
  return input.rows.map((r) => r.payload as T);
}
