import { z } from "zod";
import { producerName } from "./plain-text";
import { FieldIssueSchema } from "./openlineage";

const Name = producerName();
const Instant = z.iso.datetime({ offset: true, message: "must be an ISO-8601 date-time with a time zone" });
const Count = z.number({ message: "must be a number" }).int("must be a whole number").nonnegative("must not be negative");

/**
 * A dataset named by its node id (`dataset:<namespace>:<name>`) or by namespace + name, the way
 * OpenLineage names it, so a producer that also emits OpenLineage events lands on the same node.
 */
export const DatasetRefSchema = z.union(
  [
    z.strictObject({ nodeId: z.string().regex(/^dataset:.+:.+$/, "must be a dataset node id, dataset:<namespace>:<name>") }),
    z.strictObject({ namespace: Name, name: Name }),
  ],
  { message: "must be {nodeId} or {namespace, name}" },
);
export type DatasetRef = z.infer<typeof DatasetRefSchema>;

export const JobRefSchema = z.union(
  [
    z.strictObject({ nodeId: z.string().regex(/^job:.+:.+$/, "must be a job node id, job:<namespace>:<name>") }),
    z.strictObject({ namespace: Name, name: Name }),
  ],
  { message: "must be {nodeId} or {namespace, name}" },
);
export type JobRef = z.infer<typeof JobRefSchema>;

/** One entry of the publish ledger, for producers that do not speak OpenLineage. */
export const PublishEntrySchema = z.strictObject({
  dataset: DatasetRefSchema,
  unitKey: Name,
  run: z.strictObject({
    /** The orchestrator's run id; with the job it names the same run an OpenLineage event would. */
    externalId: Name,
    job: JobRefSchema,
    kind: z.enum(["scheduled", "manual", "backfill", "repair"]).optional(),
  }),
  publishedAt: Instant,
  inputVersion: z.string().max(2_000).default(""),
  codeVersion: z.string().max(500).default(""),
  rowCount: Count,
  /** Optional: when given, it alone identifies the publish (a retry with the same key is a duplicate). */
  idempotencyKey: z.string().trim().min(1, "must be a non-empty string").max(200).optional(),
});
export type PublishEntry = z.infer<typeof PublishEntrySchema>;

export const SourceCountEntrySchema = z.strictObject({
  dataset: DatasetRefSchema,
  unitKey: Name,
  rowCount: Count,
  measuredAt: Instant,
  /** Where the count comes from, e.g. "postgres://oltp/orders count(*)". */
  source: z.string().max(500).default(""),
});
export type SourceCountEntry = z.infer<typeof SourceCountEntrySchema>;

export const RejectedItemSchema = z.object({ index: z.number().int(), issues: z.array(FieldIssueSchema) });

export const PublishesResultSchema = z.object({
  received: z.number().int(),
  accepted: z.array(z.object({ index: z.number().int(), publishId: z.string(), duplicate: z.boolean() })),
  rejected: z.array(RejectedItemSchema),
  written: z.object({ publishes: z.number().int(), runs: z.number().int(), invalidKeys: z.number().int() }),
});
export type PublishesResult = z.infer<typeof PublishesResultSchema>;

export const SOURCE_COUNT_OUTCOMES = ["created", "updated", "unchanged", "older"] as const;

export const SourceCountsResultSchema = z.object({
  received: z.number().int(),
  /** `older`: a newer measurement is already stored, so this one was not applied (the latest wins). */
  accepted: z.array(z.object({ index: z.number().int(), outcome: z.enum(SOURCE_COUNT_OUTCOMES) })),
  rejected: z.array(RejectedItemSchema),
  written: z.object({ sourceCounts: z.number().int(), invalidKeys: z.number().int() }),
});
export type SourceCountsResult = z.infer<typeof SourceCountsResultSchema>;

/** POST /api/v1/warehouse-counts answers like source counts; only what it wrote is named differently. */
export const WarehouseCountsResultSchema = SourceCountsResultSchema.extend({
  written: z.object({ warehouseCounts: z.number().int(), invalidKeys: z.number().int() }),
});
export type WarehouseCountsResult = z.infer<typeof WarehouseCountsResultSchema>;
