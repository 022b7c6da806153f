import { METER_DATASETS, METER_TASKS, ORDERS_DATASETS, ORDERS_TASKS } from "../executor/task-code/node-ids";

/** Everything the demo owns, by node id and pipeline namespace: what a reload replaces. */
export const DEMO_TASK_NODE_IDS: readonly string[] = [...Object.values(ORDERS_TASKS), ...Object.values(METER_TASKS)];
export const DEMO_DATASET_NODE_IDS: readonly string[] = [...Object.values(ORDERS_DATASETS), ...Object.values(METER_DATASETS)];
export const DEMO_NAMESPACES: readonly string[] = ["orders", "finance", "ml", "meters"];
