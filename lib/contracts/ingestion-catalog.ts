import { z } from "zod";
import { reasonField } from "./reason";
import { TaskPropertiesSchema } from "./audit";
import { PartitionDefSchema } from "./partitions";
import { TASK_FACTS } from "@/lib/domain/fact-sources";

/** PUT /api/v1/datasets/{id}/partitions: how the dataset's expected units are enumerated. */
export const PartitionsPutSchema = z.strictObject({ partitionDef: PartitionDefSchema, reason: reasonField });
export type PartitionsPut = z.infer<typeof PartitionsPutSchema>;

export const PartitionsPutResultSchema = z.object({
  nodeId: z.string(),
  changed: z.boolean(),
  /** Null when no definition had been declared (the expected units were unknown). */
  before: PartitionDefSchema.nullable(),
  after: PartitionDefSchema,
  /** Units due now: expected to be complete (time definitions: closed for their lateness). */
  expectedUnits: z.number().int(),
  auditSeq: z.number().int().nullable(),
  /**
   * What the new definition settled: rejected keys now accepted, stored runs folded again, publishes
   * on units they were not on before, and publishes left out because an open incident holds their unit.
   */
  resolved: z.object({ keys: z.number().int(), runs: z.number().int(), publishes: z.number().int(), held: z.number().int() }),
});
export type PartitionsPutResult = z.infer<typeof PartitionsPutResultSchema>;

/**
 * PUT /api/v1/tasks/{id}: the repair-safety properties OpenLineage does not carry. Properties
 * present are set (null = back to unknown, which counts as unsafe); absent ones are unchanged.
 */
export const TaskPropertiesPutSchema = z
  .strictObject({ ...TaskPropertiesSchema.partial().shape, owner: z.string().max(200).optional(), reason: reasonField })
  .refine((b) => TASK_FACTS.some((k) => b[k] !== undefined), { message: `set at least one of ${TASK_FACTS.join(", ")}` });
export type TaskPropertiesPut = z.infer<typeof TaskPropertiesPutSchema>;

export const TaskPropertiesResultSchema = z.object({
  nodeId: z.string(),
  changed: z.boolean(),
  before: TaskPropertiesSchema,
  after: TaskPropertiesSchema,
  auditSeq: z.number().int().nullable(),
});
export type TaskPropertiesResult = z.infer<typeof TaskPropertiesResultSchema>;
