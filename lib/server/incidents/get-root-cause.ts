import type { RootCauseView } from "@/lib/contracts/root-cause";
import { getDb, type Db } from "../repositories/database";
import { loadLineageGraph } from "../lineage/load-lineage-graph";
import { analyseRootCause, symptomOf } from "./root-cause";

/** The root causes of a task's units now (GET /api/v1/root-cause): what opening an incident on them would hold. */
export async function getRootCause(taskNodeId: string, units: readonly string[], now = new Date(), db: Db = getDb()): Promise<RootCauseView> {
  const { graph } = await loadLineageGraph(db, now);
  return analyseRootCause(db, graph, now, symptomOf(graph, taskNodeId, units, "query"));
}
