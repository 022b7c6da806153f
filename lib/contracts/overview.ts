import { z } from "zod";
import { StatesStatusSchema } from "./units";

/** A run of consecutive unit keys, e.g. ["2026-08-17", "2026-08-25"] (from = to for one unit). */
export const KeyRangeSchema = z.tuple([z.string(), z.string()]);
export type KeyRange = z.infer<typeof KeyRangeSchema>;

export const OpenFailureSchema = z.object({
  taskNodeId: z.string(),
  taskName: z.string(),
  pipeline: z.string().nullable(),
  unitKey: z.string(),
  tries: z.number().int(),
  /** Rows the failed tries left behind in the unit (a partial write), or 0. */
  /** Rows its failed tries left in the unit; null: unknown (its producer reports no row counts). */
  partialRows: z.number().int().nullable(),
  error: z.string().nullable(),
  runId: z.string(),
  failedAt: z.string().nullable(),
});
export type OpenFailure = z.infer<typeof OpenFailureSchema>;

export const LedgerFindingSchema = z.object({
  datasetNodeId: z.string(),
  datasetName: z.string(),
  pipeline: z.string().nullable(),
  /** `suspect`: published, but built from an upstream unit that is duplicate, divergent, partial, empty, known-bad or stale. */
  finding: z.enum(["missing", "duplicate", "empty", "divergent", "suspect"]),
  /** The first runs of consecutive units (at most 20); `rangesOmitted` says how many more there are. */
  units: z.array(KeyRangeSchema),
  rangesOmitted: z.number().int(),
  unitCount: z.number().int(),
  /** Evidence in words for the first units (at most 5 of `unitCount`), e.g. "2026-08-10: 90 rows, source has 60". */
  details: z.array(z.string()),
});
export type LedgerFinding = z.infer<typeof LedgerFindingSchema>;

export const InvalidKeyRowSchema = z.object({ nodeId: z.string(), unitKey: z.string(), reason: z.string(), observedAt: z.string() });

export const OverviewSchema = z.object({
  generatedAt: z.string(),
  states: StatesStatusSchema,
  counts: z.object({
    openFailures: z.number().int(),
    missingUnits: z.number().int(),
    blockedUnits: z.number().int(),
    duplicateUnits: z.number().int(),
    emptyUnits: z.number().int(),
    divergentUnits: z.number().int(),
    suspectUnits: z.number().int(),
    invalidKeys: z.number().int(),
  }),
  failures: z.array(OpenFailureSchema),
  findings: z.array(LedgerFindingSchema),
  invalidKeys: z.array(InvalidKeyRowSchema),
});
export type Overview = z.infer<typeof OverviewSchema>;
