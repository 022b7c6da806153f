import { z } from "zod";
import { BIDI_CONTROL, BIDI_MESSAGE } from "./plain-text";
import { INCIDENT_ACTIONS, INCIDENT_STATUSES } from "@/lib/domain/incident-lifecycle";
import { SEVERITY_LEVELS } from "@/lib/domain/incident-severity";
import { AuditEntrySchema, AuditTargetSchema } from "./audit";
import { reasonField } from "./reason";

export { ReasonBodySchema, reasonField } from "./reason";

export const IncidentStatusSchema = z.enum(INCIDENT_STATUSES);
export type IncidentStatus = z.infer<typeof IncidentStatusSchema>;
/** What may happen to an incident next (lib/domain/incident-lifecycle.ts); the wizard renders its buttons from these. */
export const IncidentActionSchema = z.enum(INCIDENT_ACTIONS);
export type IncidentAction = z.infer<typeof IncidentActionSchema>;

/** A task node id: job:<namespace>:<name>, each part at most 1000 characters (plain-text.ts). */
export const nodeIdField = z
  .string()
  .trim()
  .min(1, "a task node id is required")
  .max(2010)
  .regex(/^job:[^:]+:.+$/, "must be a task node id like job:<namespace>:<name>");
const unitKeyField = z.string().trim().min(1, "a unit key cannot be empty").max(200);

export const OpenIncidentSchema = z.object({
  taskNodeId: nodeIdField,
  units: z.array(unitKeyField).min(1, "at least one unit is required").max(500),
  title: z
    .string()
    .trim()
    .max(200)
    .refine((s) => !BIDI_CONTROL.test(s), BIDI_MESSAGE)
    .optional(),
  /**
   * `follow` (the default): a symptom is opened on its root causes upstream (root-cause.ts), the
   * symptom kept in the title and the timeline; `as_given`: on these units whatever they read.
   */
  rootCause: z.enum(["follow", "as_given"]).default("follow"),
  reason: reasonField,
});
export type OpenIncidentRequest = z.input<typeof OpenIncidentSchema>;

export const IncidentListQuerySchema = z.object({
  status: z.enum(["open", "closed", "all"]).default("open"),
  mine: z.enum(["0", "1"]).default("0"),
  pipeline: z.string().max(200).optional(),
});
export type IncidentListQuery = z.infer<typeof IncidentListQuerySchema>;

export const RunRefSchema = z.object({
  id: z.string(),
  status: z.string(),
  kind: z.string(),
  repairNumber: z.number().int(),
  rootRunId: z.string().nullable(),
  parentRunId: z.string().nullable(),
  triggeredBy: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type RunRef = z.infer<typeof RunRefSchema>;

export const SeverityLevelSchema = z.enum(SEVERITY_LEVELS);
export type SeverityLevel = z.infer<typeof SeverityLevelSchema>;

/**
 * The severity in force and why (lib/domain/incident-severity.ts): computed from the closure, or
 * set by a person — whose choice is kept over later computations until they set it again.
 * `computed` is what the closure says now either way, so the two can be compared.
 */
export const IncidentSeveritySchema = z.object({
  level: SeverityLevelSchema,
  source: z.enum(["computed", "set"]),
  /** computed: the facts in words ("an export already sent: weekly_revenue_export 2026-W33 → SEV1"); set: the person's reason. */
  reasons: z.array(z.string()),
  setBy: z.string().nullable(),
  setAt: z.string(),
  computed: z.object({ level: SeverityLevelSchema, reasons: z.array(z.string()), at: z.string() }),
});
export type IncidentSeverity = z.infer<typeof IncidentSeveritySchema>;

/** Who commands the incident: the opener unless someone was assigned. */
export const IncidentCommanderSchema = z.object({
  userId: z.string(),
  /** The user's display name; null when no such user is registered (an opener by machine token, a removed user). */
  name: z.string().nullable(),
  assigned: z.boolean(),
});
export type IncidentCommander = z.infer<typeof IncidentCommanderSchema>;

/** An owner of what the incident reaches (lib/domain/recipients.ts: a node's own owner, else its writers', else its pipeline's), read each time, never stored on the incident. */
export const IncidentOwnerSchema = z.object({
  name: z.string(),
  /** The owner's people, as the declared team names them ([] when not declared). */
  people: z.array(z.string()),
  /** The reached nodes this owner owns (node ids). */
  nodeIds: z.array(z.string()),
});
export type IncidentOwner = z.infer<typeof IncidentOwnerSchema>;

export const IncidentSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: IncidentStatusSchema,
  pipeline: z.string().nullable(),
  openedBy: z.string(),
  openedAt: z.string(),
  detectedAt: z.string(),
  resolvedAt: z.string().nullable(),
  closedReason: z.string().nullable(),
  originRunId: z.string().nullable(),
  failedPairs: z.array(AuditTargetSchema),
  repairs: z.number().int(),
  /** Null only for incidents opened before severities were computed, until they are scoped or set. */
  severity: IncidentSeveritySchema.nullable(),
  commander: IncidentCommanderSchema,
  owners: z.array(IncidentOwnerSchema),
});
export type IncidentSummary = z.infer<typeof IncidentSummarySchema>;

export const IncidentListSchema = z.object({ incidents: z.array(IncidentSummarySchema) });

export const IncidentDetailSchema = IncidentSummarySchema.extend({
  timeline: z.array(AuditEntrySchema),
  runs: z.array(RunRefSchema),
  confirmedPlanId: z.string().nullable(),
  /** The actions the lifecycle allows in the incident's status now (roles are checked by each route). */
  allowedActions: z.array(IncidentActionSchema),
});
export type IncidentDetail = z.infer<typeof IncidentDetailSchema>;

export const IdParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const SeverityBodySchema = z.object({ severity: SeverityLevelSchema, reason: reasonField });
export const CommanderBodySchema = z.object({
  userId: z.string({ message: "a user id is required" }).trim().min(1, "a user id is required").max(200),
  reason: z.string().trim().max(2000).optional(),
});
export const NoteBodySchema = z.object({ note: z.string().trim().min(1, "the note is empty").max(4000) });

export const ScopeBodySchema = z.object({
  reason: reasonField,
  /** Related failures the operator adds to this incident (e.g. another failed unit the closure waits on). */
  addPairs: z
    .array(z.object({ taskNodeId: nodeIdField, units: z.array(unitKeyField).min(1).max(500) }))
    .max(50)
    .default([]),
});

export const CleanUnitBodySchema = z.object({ taskNodeId: nodeIdField, unitKey: unitKeyField, reason: reasonField });
/** Appended units cleaned outside Reparo (its warehouse not connected): believed once a warehouse count shows them empty. */
export const DeclareCleanedBodySchema = z.object({
  taskNodeId: nodeIdField,
  units: z.array(unitKeyField).min(1, "at least one unit is required").max(500),
  reason: reasonField,
  /** What was run in the warehouse, for the record; Reparo never runs it. */
  statement: z.string().trim().max(4000).default(""),
});
export const DeclareReplaceBodySchema = z.object({ taskNodeId: nodeIdField, reason: reasonField });
export const MarkBodySchema = z.object({
  kind: z.enum(["known_bad", "skipped", "marked_success"]),
  taskNodeId: nodeIdField,
  units: z.array(unitKeyField).min(1, "at least one unit is required").max(500),
  reason: reasonField,
  /** For marked_success: what shows the output is correct (checked on the server). */
  evidence: z.string().trim().max(2000).optional(),
});
export type MarkRequest = z.infer<typeof MarkBodySchema>;
