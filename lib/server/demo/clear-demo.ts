import type { Db } from "../repositories/database";
import { deleteDemoWorld } from "../repositories/demo/demo-world";
import { DEMO_DATASET_NODE_IDS, DEMO_NAMESPACES, DEMO_TASK_NODE_IDS } from "./demo-node-ids";

/**
 * Deletes an earlier demo world (its tasks, datasets and pipelines, and everything recorded about
 * them). The audit log is append-only and is never touched; users are kept (they are upserted by
 * the loader).
 */
export async function clearDemo(db: Db): Promise<void> {
  await deleteDemoWorld(db, { taskNodeIds: DEMO_TASK_NODE_IDS, datasetNodeIds: DEMO_DATASET_NODE_IDS, namespaces: DEMO_NAMESPACES });
}
