import { z } from "zod";
import { producerName, RUN_ID_MAX } from "./plain-text";

/**
 * The fields of OpenLineage events (spec 1.x and 2.x: RunEvent, DatasetEvent, JobEvent) that Reparo
 * reads, with what Reparo needs of them (non-empty names, a time zone on instants). Whether an
 * event is well-formed at all is the official JSON Schema's call (lib/server/ingestion/
 * openlineage-schema.ts), checked first; every other facet passes through untouched, because
 * producers add their own (airflow, spark_version, dbt_run...).
 */
const Name = producerName();
const RunId = producerName(RUN_ID_MAX);
const Instant = z.iso.datetime({ offset: true, message: "must be an ISO-8601 date-time with a time zone" });

export const EVENT_TYPES = ["START", "RUNNING", "COMPLETE", "FAIL", "ABORT", "OTHER"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const JobRef = z.looseObject({ namespace: Name, name: Name });
const RunRef = z.looseObject({ runId: RunId });

const DimensionValue = z.union([z.string(), z.number(), z.boolean()]);
const PartitionEntry = z.looseObject({
  identifier: z.string().min(1).optional(),
  dimensions: z.record(z.string(), DimensionValue).optional(),
});
/** The subset facet: released spec (`inputCondition`/`outputCondition`) or the proposal (`condition`, or inline). */
const SubsetCondition = z.looseObject({ type: z.string().min(1), partitions: z.array(PartitionEntry).optional() });
const SubsetFacet = z.looseObject({
  type: z.string().min(1).optional(),
  partitions: z.array(PartitionEntry).optional(),
  inputCondition: SubsetCondition.optional(),
  outputCondition: SubsetCondition.optional(),
  condition: SubsetCondition.optional(),
});
export type SubsetFacet = z.infer<typeof SubsetFacet>;

const DatasetFacets = z.looseObject({ version: z.looseObject({ datasetVersion: z.string() }).optional() });

const InputDataset = z.looseObject({
  namespace: Name,
  name: Name,
  facets: DatasetFacets.nullish(),
  inputFacets: z.looseObject({ subset: SubsetFacet.optional() }).nullish(),
});

const OutputDataset = z.looseObject({
  namespace: Name,
  name: Name,
  facets: DatasetFacets.nullish(),
  outputFacets: z
    .looseObject({
      outputStatistics: z.looseObject({ rowCount: z.number().int().nonnegative().optional(), size: z.number().nonnegative().optional() }).optional(),
      subset: SubsetFacet.optional(),
    })
    .nullish(),
});

const RunFacets = z.looseObject({
  parent: z.looseObject({ run: RunRef, job: JobRef, root: z.looseObject({ run: RunRef, job: JobRef }).optional() }).optional(),
  nominalTime: z.looseObject({ nominalStartTime: Instant, nominalEndTime: Instant.nullish() }).optional(),
  errorMessage: z.looseObject({ message: z.string(), programmingLanguage: z.string().nullish(), stackTrace: z.string().nullish() }).optional(),
});

const JobFacets = z.looseObject({
  sourceCodeLocation: z.looseObject({ version: z.string().nullish() }).optional(),
  jobType: z.looseObject({ jobType: z.string().nullish(), integration: z.string().nullish() }).optional(),
});

export const RunEventSchema = z.looseObject({
  eventType: z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(", ")}` }).optional(),
  eventTime: Instant,
  producer: z.string().optional(),
  schemaURL: z.string().optional(),
  run: z.looseObject({ runId: RunId, facets: RunFacets.nullish() }),
  job: z.looseObject({ namespace: Name, name: Name, facets: JobFacets.nullish() }),
  inputs: z.array(InputDataset).nullish(),
  outputs: z.array(OutputDataset).nullish(),
});
export type RunEvent = z.infer<typeof RunEventSchema>;

/** A DatasetEvent: metadata about a dataset outside any run (a schema change, an owner). */
export const DatasetEventSchema = z.looseObject({
  eventTime: Instant,
  producer: z.string().optional(),
  schemaURL: z.string().optional(),
  dataset: z.looseObject({ namespace: Name, name: Name, facets: DatasetFacets.nullish() }),
});
export type DatasetEvent = z.infer<typeof DatasetEventSchema>;

/** A JobEvent: a job's declared inputs and outputs outside any run (design-time lineage). */
export const JobEventSchema = z.looseObject({
  eventTime: Instant,
  producer: z.string().optional(),
  schemaURL: z.string().optional(),
  job: z.looseObject({ namespace: Name, name: Name, facets: JobFacets.nullish() }),
  inputs: z.array(InputDataset).nullish(),
  outputs: z.array(OutputDataset).nullish(),
});
export type JobEvent = z.infer<typeof JobEventSchema>;
export type InputDatasetEvent = z.infer<typeof InputDataset>;
export type OutputDatasetEvent = z.infer<typeof OutputDataset>;

export { FieldIssueSchema, type FieldIssue } from "./field-issues";
import { FieldIssueSchema } from "./field-issues";

/** The answer to POST /api/v1/lineage: which events (by index in the request) were taken or refused. */
export const LineageIngestResultSchema = z.object({
  received: z.number().int(),
  accepted: z.array(z.object({ index: z.number().int(), duplicate: z.boolean() })),
  rejected: z.array(z.object({ index: z.number().int(), issues: z.array(FieldIssueSchema) })),
  written: z.object({
    events: z.number().int(),
    runs: z.number().int(),
    attempts: z.number().int(),
    publishes: z.number().int(),
    invalidKeys: z.number().int(),
  }),
  /**
   * inline: `written` counts everything the events imply. deferred (REPARO_INGEST_FOLD=deferred):
   * the events are stored and queued; their runs, attempts and publishes are written by the fold
   * job moments later (`written` counts the events only; /api/metrics shows the fold's lag).
   */
  folding: z.enum(["inline", "deferred"]),
});
export type LineageIngestResult = z.infer<typeof LineageIngestResultSchema>;

/**
 * The answer to POST /api/v1/lineage/batch, the OpenLineage batch API's shape (`status`,
 * `summary`, `failed_events`), plus what Reparo accepted and wrote.
 */
export const LineageBatchResultSchema = z.object({
  status: z.enum(["success", "partial_success"]),
  summary: z.object({
    received: z.number().int(),
    successful: z.number().int(),
    failed: z.number().int(),
    retriable: z.number().int(),
    non_retriable: z.number().int(),
  }),
  failed_events: z.array(z.object({ index: z.number().int(), reason: z.string(), retriable: z.boolean() })),
  accepted: LineageIngestResultSchema.shape.accepted,
  written: LineageIngestResultSchema.shape.written,
  folding: LineageIngestResultSchema.shape.folding,
});
export type LineageBatchResult = z.infer<typeof LineageBatchResultSchema>;
