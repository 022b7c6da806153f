import { z } from "zod";
import { UNIT_STATES } from "./units";

export const CompletenessQuerySchema = z.object({
  /** A dataset node id (dataset:warehouse:revenue_daily) or its unique name (revenue_daily). */
  dataset: z.string().min(1, "name a dataset (node id or name)").max(300),
  /** First and last unit key of the period, inclusive; both default to the dataset's range. */
  from: z.string().min(1).max(100).optional(),
  to: z.string().min(1).max(100).optional(),
});
export type CompletenessQuery = z.infer<typeof CompletenessQuerySchema>;

export const IncidentLinkSchema = z.object({ id: z.string(), title: z.string(), status: z.string(), href: z.string() });

export const CompletenessReasonSchema = z.object({
  datasetNodeId: z.string(),
  datasetName: z.string(),
  role: z.enum(["target", "upstream"]),
  unitKey: z.string(),
  state: z.enum(UNIT_STATES),
  reason: z.string(),
  /** Known-bad and skipped units: a gap consumers must see, never a silently counted number. */
  gap: z.boolean(),
  unitHref: z.string(),
  incidents: z.array(IncidentLinkSchema),
  /** Rows the unit holds now (kept partial rows and appended copies included), and its source count. */
  rows: z.number().int().nullable(),
  sourceCount: z.number().int().nullable(),
  /** The task that writes the dataset (where an incident for the unit is opened). */
  writerNodeId: z.string().nullable(),
  /** For a unit built on bad upstream data: the first such upstream unit and its problem in words. */
  builtFrom: z.object({ datasetName: z.string(), unitKey: z.string(), problem: z.string() }).nullable(),
});
export type CompletenessReason = z.infer<typeof CompletenessReasonSchema>;

/** One unit key of the period with everything that keeps it out of a complete set. */
export const UnitVerdictSchema = z.object({
  unitKey: z.string(),
  /** e.g. "never built: stg_orders failed" or "built on duplicated upstream rows: stg_orders". */
  headline: z.string(),
  /** The same in an analyst's words (lib/domain/plain-verdict.ts): what it does to the number, and who is on it. */
  plain: z.object({
    sentence: z.string(),
    effect: z.discriminatedUnion("kind", [
      z.object({ kind: z.enum(["overstated", "understated"]), percent: z.number() }),
      z.object({ kind: z.enum(["absent", "unknown"]) }),
    ]),
    onIt: z.array(IncidentLinkSchema.extend({ doing: z.string() })),
    /** /incidents/new prefilled with the unit where the problem starts; null when an incident is already on it. */
    openIncidentHref: z.string().nullable(),
  }),
  reasons: z.array(CompletenessReasonSchema),
});

export const EvidenceSchema = z.object({
  datasetNodeId: z.string(),
  datasetName: z.string(),
  role: z.enum(["target", "upstream"]),
  /** The units of this dataset the period reads, as inclusive key ranges. */
  unitRanges: z.array(z.tuple([z.string(), z.string()])),
  /** Units of the period read, and of them the healthy ones (the rest are the certificate's reasons). */
  units: z.number().int(),
  healthyUnits: z.number().int(),
  rows: z.number().int(),
  reconciledUnits: z.number().int(),
  inputVersions: z.array(z.string()),
  oldestPublishAt: z.string().nullable(),
  newestPublishAt: z.string().nullable(),
  notes: z.array(z.string()),
});

export const FreshnessSchema = z.object({
  units: z.array(z.object({ unitKey: z.string(), ageMs: z.number().nullable(), outlier: z.enum(["fresher", "older"]).nullable() })),
  medianAgeMs: z.number().nullable(),
  minAgeMs: z.number().nullable(),
  maxAgeMs: z.number().nullable(),
  outliers: z.array(z.object({ unitKey: z.string(), ageMs: z.number(), neighbourMedianAgeMs: z.number(), direction: z.enum(["fresher", "older"]) })),
  unpublished: z.array(z.string()),
});

export const FrontierCertificateSchema = z.object({
  partition: z.string(),
  coordinate: z.number().nullable(),
  inclusive: z.boolean().nullable(),
  domain: z.string(),
  generation: z.number().int(),
  epoch: z.number().int(),
  updatedAt: z.string(),
});

export const FrontierSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("scalar"),
    source: z.string(),
    coordinate: z.number(),
    inclusive: z.boolean(),
    domain: z.string(),
    epoch: z.number().int(),
    statement: z.string(),
    certificates: z.array(FrontierCertificateSchema),
  }),
  z.object({
    kind: z.literal("vector"),
    source: z.string(),
    reason: z.string(),
    epoch: z.number().int(),
    statement: z.string(),
    certificates: z.array(FrontierCertificateSchema),
  }),
]);
export type Frontier = z.infer<typeof FrontierSchema>;

export const CompletenessSchema = z.object({
  dataset: z.object({ nodeId: z.string(), name: z.string(), pipeline: z.string().nullable(), grain: z.string().nullable() }),
  period: z.object({ from: z.string(), to: z.string() }),
  checkedAt: z.string(),
  verdict: z.enum(["complete", "incomplete"]),
  expectedUnits: z.number().int(),
  reasons: z.array(CompletenessReasonSchema),
  byUnit: z.array(UnitVerdictSchema),
  evidence: z.array(EvidenceSchema),
  freshness: FreshnessSchema,
  frontiers: z.array(FrontierSchema),
});
export type Completeness = z.infer<typeof CompletenessSchema>;

export const DatasetOptionSchema = z.object({
  nodeId: z.string(),
  name: z.string(),
  pipeline: z.string().nullable(),
  grain: z.string().nullable(),
  firstKey: z.string().nullable(),
  lastKey: z.string().nullable(),
});
export const DatasetOptionsSchema = z.object({ datasets: z.array(DatasetOptionSchema) });
export type DatasetOption = z.infer<typeof DatasetOptionSchema>;

export const FrontierCertificatePutSchema = z.object({
  source: z.string().min(1).max(300),
  partition: z.string().min(1).max(300),
  /** The generation the writer read before its work (0 before the first checkpoint). */
  expectedGeneration: z.number().int().min(0),
  coordinate: z.number().finite(),
  inclusive: z.boolean(),
  domain: z.string().min(1).max(100),
  epoch: z.number().int().min(0),
  token: z.string().max(2000).optional(),
});
export type FrontierCertificatePut = z.infer<typeof FrontierCertificatePutSchema>;

export const FrontierCertificatePutResultSchema = z.object({
  outcome: z.enum(["advanced", "unchanged", "stale-generation", "would-lower", "epoch-mismatch", "domain-mismatch"]),
  reason: z.string(),
  certificate: FrontierCertificateSchema.nullable(),
});
