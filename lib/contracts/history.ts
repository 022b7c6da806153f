import { z } from "zod";
import { dayField } from "./day";

export const HistoryQuerySchema = z
  .object({
    pipeline: z.string().min(1).max(200).optional(),
    /** A task node id (job:orders:stg_orders) or its name. */
    task: z.string().min(1).max(300).optional(),
    owner: z.string().min(1).max(200).optional(),
    /** Repairs started on or after this day (UTC). */
    from: dayField.optional(),
    /** Repairs started on or before this day (UTC). */
    to: dayField.optional(),
    format: z.enum(["json", "csv"]).default("json"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["from"] });
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

const ms = z.number().nullable();
const at = z.string().nullable();

export const RepairRowSchema = z.object({
  runId: z.string(),
  repairNumber: z.number().int(),
  status: z.string(),
  pipeline: z.string().nullable(),
  rootRunId: z.string().nullable(),
  incident: z.object({ id: z.string(), title: z.string(), status: z.string(), href: z.string() }).nullable(),
  tasks: z.array(z.string()),
  owners: z.array(z.string()),
  failureCategories: z.array(z.string()),
  failureAt: at,
  /** When the failure surfaced (Incident.detectedAt: the failing run's start). */
  detectedAt: at,
  /** When someone opened the incident: detection by a person, and where the repair's clock starts. */
  openedAt: at,
  repairStartedAt: at,
  repairEndedAt: at,
  validatedAt: at,
  resolvedAt: at,
  /** openedAt − failureAt */
  timeToDetectMs: ms,
  /** repairEndedAt − openedAt */
  timeToRepairMs: ms,
  /** validatedAt − repairEndedAt */
  timeToValidateMs: ms,
  /** resolvedAt − openedAt */
  timeToResolutionMs: ms,
  /** (task, unit) pairs the repair ran to success, as its progress counts them (the Execute step's "succeeded"). */
  unitsRecomputed: z.number().int(),
  /** Pairs the repair was launched with (its plan, or what a resume had left); null for a run without that record. */
  pairsPlanned: z.number().int().nullable(),
  /** What a full re-run of the same tasks would have recomputed (the plan's cost), if known. */
  fullRerunUnits: z.number().int().nullable(),
});
export type RepairRow = z.infer<typeof RepairRowSchema>;

/**
 * The audit kinds "Interventions by kind" counts — things people did to the data or to what
 * Reparo believes about it — with their labels, in chart order. Sign-ins, people, tokens,
 * connection edits, notes and the repair's own bookkeeping (progress, dispatches) are not
 * interventions and are not counted.
 */
export const INTERVENTION_KINDS = {
  "repair.launched": "repair",
  "unit.deduplicated": "cleaning",
  "unit.clean_declared": "declared cleaned",
  "task.declared_replace": "declared replace",
  "unit.marked_known_bad": "marked known-bad",
  "validation.overridden": "validation overridden",
  "unit.skipped": "skip",
  "unit.marked_success": "mark success",
} as const;
export type InterventionKind = keyof typeof INTERVENTION_KINDS;

export const HistorySchema = z.object({
  generatedAt: z.string(),
  repairs: z.array(RepairRowSchema),
  totals: z.object({
    repairs: z.number().int(),
    incidents: z.number().int(),
    medianResolutionMs: ms,
    p90ResolutionMs: ms,
    unitsRecomputed: z.number().int(),
    fullRerunUnits: z.number().int(),
    markSuccess: z.number().int(),
    skips: z.number().int(),
  }),
  weekly: z.array(z.object({ week: z.string(), repairs: z.number().int(), medianResolutionHours: ms, p90ResolutionHours: ms })),
  offenders: z.array(z.object({ task: z.string(), repairs: z.number().int(), categories: z.record(z.string(), z.number().int()) })),
  /** Per ISO week: units the targeted repairs recomputed vs what full re-runs would have (the plans' cost). */
  compute: z.array(z.object({ week: z.string(), unitsRecomputed: z.number().int(), fullRerunUnits: z.number().int() })),
  interventions: z.array(z.object({ week: z.string(), counts: z.record(z.string(), z.number().int()) })),
  interventionKinds: z.array(z.string()),
  filters: z.object({ pipelines: z.array(z.string()), tasks: z.array(z.string()), owners: z.array(z.string()) }),
});
export type History = z.infer<typeof HistorySchema>;
