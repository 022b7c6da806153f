import { z } from "zod";
import { reasonField } from "./reason";
import { PartitionDefSchema } from "./partitions";
import { TASK_FACTS } from "@/lib/domain/fact-sources";
import { PUBLISH_MODES, SIDE_EFFECTS, WRITE_MODES } from "@/lib/domain/lineage-graph";
import { producerName } from "./plain-text";

/**
 * The team's declaration file (YAML or JSON), kept with its pipeline code and applied with one
 * call: what OpenLineage does not carry — each dataset's partitions, each task's repair-safety
 * facts. A node is named by its OpenLineage namespace and name, as the producer sends them.
 *
 *   version: 1
 *   datasets:
 *     - namespace: postgres://db:5432
 *       name: warehouse.public.orders
 *       partitions: { kind: time, grain: day, start: "2026-08-01", timezone: UTC }
 *   tasks:
 *     - namespace: airflow-prod
 *       name: orders_etl.load
 *       writeMode: replace
 *       sideEffect: none
 *       dependsOnOwnPast: false
 */
const node = { namespace: producerName(), name: producerName() };

export const DeclaredDatasetSchema = z.strictObject({
  ...node,
  partitions: PartitionDefSchema.optional(),
});

export const DeclaredTaskSchema = z
  .strictObject({
    ...node,
    writeMode: z.enum(WRITE_MODES).optional(),
    sideEffect: z.enum(SIDE_EFFECTS).optional(),
    dependsOnOwnPast: z.boolean().optional(),
    publishMode: z.enum(PUBLISH_MODES).optional(),
    owner: z.string().trim().min(1).max(200).optional(),
  })
  .refine((t) => TASK_FACTS.some((k) => t[k] !== undefined), {
    message: `declare at least one of ${TASK_FACTS.join(", ")}`,
  });

export const DeclarationFileSchema = z.strictObject({
  version: z.literal(1, "the declaration file's version: 1"),
  datasets: z.array(DeclaredDatasetSchema).max(5_000).default([]),
  tasks: z.array(DeclaredTaskSchema).max(5_000).default([]),
});
export type DeclarationFile = z.infer<typeof DeclarationFileSchema>;

/** PUT /api/v1/declarations: the file (its YAML text, or the same as JSON), why, and whether only to show the difference. */
export const PutDeclarationsSchema = z.strictObject({
  declarations: z.union([z.string().min(1).max(2_000_000), z.record(z.string(), z.unknown())]),
  reason: reasonField,
  dryRun: z.boolean().default(false),
});
export type PutDeclarations = z.infer<typeof PutDeclarationsSchema>;

const value = z.union([z.string(), z.boolean(), z.null(), PartitionDefSchema]);
export const DeclarationChangeSchema = z.object({
  nodeId: z.string(),
  fact: z.enum(["partitions", ...TASK_FACTS]),
  before: value,
  /** Where `before` came from: declared, dbt, airflow, openlineage, history; null: nobody said. */
  beforeSource: z.string().nullable(),
  after: value,
});
export type DeclarationChange = z.infer<typeof DeclarationChangeSchema>;

export const DeclarationsResultSchema = z.object({
  /** False for a dry run: the changes are what applying would do. */
  applied: z.boolean(),
  changes: z.array(DeclarationChangeSchema),
  /** Declared facts that already held. */
  unchanged: z.number().int(),
  /** New partitions folded the stored runs again (as PUT …/partitions does). */
  refolded: z.object({ runs: z.number().int(), publishes: z.number().int() }),
  auditSeq: z.number().int().nullable(),
});
export type DeclarationsResult = z.infer<typeof DeclarationsResultSchema>;
