import { z } from "zod";
import { BIDI_CONTROL, BIDI_MESSAGE, NAME_MAX, RUN_ID_MAX } from "@/lib/contracts/plain-text";

/**
 * What the Dagster source reads of Dagster's GraphQL answers (dagster-queries.ts), checked at the
 * boundary before anything is converted: an answer that does not match — a field missing, a
 * status Dagster does not have, a time that is not a number, a list or a text beyond any real
 * instance's size, a name with bidirectional controls — is refused whole, naming the field, and
 * nothing of that poll is written. Shapes as Dagster 1.13.27 answers them (recorded in
 * test/fixtures/peers/dagster/source/, checked against its schema in schema-1.13.27.graphql).
 */

/** Lists: far beyond a real answer to one request (a page of runs, a run's steps, a step's materializations). */
const MAX_ITEMS = 10_000;
/** An error message or a stack line: Python's can be long, not megabytes. */
const TEXT_MAX = 100_000;

const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_ITEMS);
const name = (max = NAME_MAX) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => !BIDI_CONTROL.test(s), BIDI_MESSAGE);
const text = z.string().max(TEXT_MAX);
/** Dagster's times: seconds since the epoch (floats), within the years a run can have happened in. */
const seconds = z.number().finite().min(0).max(253_402_300_799 /* 9999-12-31 */);

export const AssetKeySchema = z.object({ path: list(name()).min(1).max(100) });

const OwnerSchema = z.union([
  z.object({ __typename: z.literal("TeamAssetOwner"), team: name() }),
  z.object({ __typename: z.literal("UserAssetOwner"), email: name() }),
]);

export const SourceAssetNodeSchema = z.object({
  assetKey: AssetKeySchema,
  groupName: name(),
  opNames: list(name()),
  isPartitioned: z.boolean(),
  dependencyKeys: list(AssetKeySchema),
  owners: list(OwnerSchema),
});
export type SourceAssetNode = z.infer<typeof SourceAssetNodeSchema>;

export const SourceAssetsAnswerSchema = z.object({ assetNodes: list(SourceAssetNodeSchema) });

export const PartitionKeysAnswerSchema = z.object({
  assetNodes: list(z.object({ assetKey: AssetKeySchema, partitionKeys: z.array(name()).max(1_000_000) })),
});

const RUN_STATUSES = ["QUEUED", "NOT_STARTED", "MANAGED", "STARTING", "STARTED", "SUCCESS", "FAILURE", "CANCELING", "CANCELED"] as const;
const STEP_STATUSES = ["SKIPPED", "SUCCESS", "FAILURE", "IN_PROGRESS"] as const;

const MetadataEntrySchema = z.looseObject({
  __typename: name(),
  label: z.string().max(NAME_MAX),
  /** IntMetadataEntry: the integer as text (intValue is null beyond 32 bits). */
  intRepr: z
    .string()
    .regex(/^-?\d{1,30}$/)
    .optional(),
});

export const SourceMaterializationSchema = z.object({
  assetKey: AssetKeySchema.nullable(),
  partition: name().nullable(),
  /** Milliseconds since the epoch, as text. */
  timestamp: z.string().regex(/^\d{1,16}$/),
  metadataEntries: list(MetadataEntrySchema),
});
export type SourceMaterialization = z.infer<typeof SourceMaterializationSchema>;

export const SourceStepSchema = z.object({
  stepKey: name(),
  status: z.enum(STEP_STATUSES).nullable(),
  startTime: seconds.nullable(),
  endTime: seconds.nullable(),
  materializations: list(SourceMaterializationSchema),
});
export type SourceStep = z.infer<typeof SourceStepSchema>;

export const SourceRunSchema = z.object({
  runId: name(RUN_ID_MAX),
  status: z.enum(RUN_STATUSES),
  jobName: name(),
  creationTime: seconds,
  startTime: seconds.nullable(),
  endTime: seconds.nullable(),
  updateTime: seconds.nullable(),
  tags: list(z.object({ key: name(), value: z.string().max(TEXT_MAX) })),
  assetSelection: list(AssetKeySchema).nullable(),
  stepStats: list(SourceStepSchema),
});
export type SourceRun = z.infer<typeof SourceRunSchema>;

const ErrorMember = z.object({ __typename: z.enum(["InvalidPipelineRunsFilterError", "PythonError", "RunNotFoundError"]), message: text });

export const SourceRunsAnswerSchema = z.object({
  runsOrError: z.discriminatedUnion("__typename", [z.object({ __typename: z.literal("Runs"), results: list(SourceRunSchema) }), ErrorMember]),
});

interface PythonErrorOut {
  message: string;
  className: string | null;
  cause?: PythonErrorOut | null;
}
const PythonErrorSchema: z.ZodType<PythonErrorOut> = z.object({
  message: text,
  className: z.string().max(NAME_MAX).nullable(),
  cause: z
    .lazy(() => PythonErrorSchema)
    .nullable()
    .optional(),
});

export const StepFailureSchema = z.object({
  __typename: z.literal("ExecutionStepFailureEvent"),
  stepKey: name().nullable(),
  timestamp: z.string().regex(/^\d{1,16}$/),
  message: text,
  error: PythonErrorSchema.nullable(),
});
export type StepFailure = z.infer<typeof StepFailureSchema>;

/** Every other event type comes back as its bare `__typename` (the query selects nothing else of it). */
const OtherEventSchema = z.object({ __typename: name() }).refine((e) => e.__typename !== "ExecutionStepFailureEvent", "a step failure without its fields");

export const RunFailuresAnswerSchema = z.object({
  logsForRun: z.discriminatedUnion("__typename", [
    z.object({
      __typename: z.literal("EventConnection"),
      cursor: z.string().max(NAME_MAX),
      hasMore: z.boolean(),
      events: list(z.union([StepFailureSchema, OtherEventSchema])),
    }),
    ErrorMember,
  ]),
});
