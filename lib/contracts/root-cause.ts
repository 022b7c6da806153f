import { z } from "zod";
import { AuditTargetSchema } from "./audit";
import { IncidentSummarySchema, nodeIdField } from "./incidents";

/** One unit on the walk, with its state as the matrix shows it and that state in words. */
export const CauseUnitSchema = z.object({ key: z.string(), state: z.string(), words: z.string() });

/**
 * Where a symptom comes from (lib/domain/root-cause.ts): the earliest wrong units upstream of
 * it, the pairs an incident on it should repair, and the open incidents that already hold them.
 */
export const RootCauseViewSchema = z.object({
  symptom: z.object({
    taskNodeId: z.string(),
    units: z.array(z.string()),
    /** Its output units that are wrong (a sound symptom has none). */
    wrong: z.array(CauseUnitSchema.extend({ datasetNodeId: z.string() })),
  }),
  roots: z.array(z.object({ taskNodeId: z.string().nullable(), datasetNodeId: z.string(), units: z.array(CauseUnitSchema) })),
  symptomIsRoot: z.boolean(),
  /** Roots lie upstream and a task writes each: an incident on the symptom is opened on them instead. */
  followable: z.boolean(),
  /** The pairs the incident is opened on: the roots when followable, else the symptom as given. */
  proposedPairs: z.array(AuditTargetSchema),
  /** The title the incident gets unless one is given: the symptom in words, and its cause. */
  title: z.string(),
  /** The walk stopped at its budget: the roots are the ones it reached. */
  truncated: z.boolean(),
  /** Open incidents already holding some of the proposed pairs: one incident per root cause. */
  heldBy: z.array(z.object({ id: z.string(), title: z.string(), pairs: z.array(AuditTargetSchema) })),
});
export type RootCauseView = z.infer<typeof RootCauseViewSchema>;

export const RootCauseQuerySchema = z.object({
  taskNodeId: nodeIdField,
  /** Keys or ranges "from..to", comma-separated (as /incidents/new?units= carries them). */
  units: z
    .string()
    .trim()
    .min(1, "at least one unit is required")
    .max(20_000)
    .transform((s) =>
      s
        .split(",")
        .map((k) => k.trim())
        .filter(Boolean),
    ),
});

/** POST /api/v1/incidents: the incident (new, or the open one already holding every pair asked) and why it holds what it holds. */
export const OpenedIncidentSchema = IncidentSummarySchema.extend({ opened: z.boolean(), rootCause: RootCauseViewSchema });
