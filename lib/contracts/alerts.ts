import { z } from "zod";
import { StatesStatusSchema } from "./units";

export const AlertRuleSchema = z.enum([
  "task_failed",
  "missing_past_deadline",
  "published_more_than_once",
  "empty",
  "row_count_out_of_band",
  "period_incomplete",
  "stale_after_republish",
  "check_failed",
  "consumed_outside",
]);

export const AlertSchema = z.object({
  id: z.string(),
  rule: AlertRuleSchema,
  source: z.enum(["task", "data"]),
  severity: z.enum(["critical", "warning"]),
  datasetNodeId: z.string(),
  datasetName: z.string(),
  pipeline: z.string().nullable(),
  taskNodeId: z.string().nullable(),
  /** The first units the alert is about (at most 50 of `unitCount`, in key order). */
  units: z.array(z.string()),
  unitCount: z.number().int(),
  title: z.string(),
  /** Evidence in words, for the first units (at most 20); `detailsOmitted` more are not listed. */
  details: z.array(z.string()),
  detailsOmitted: z.number().int(),
  /** Opens an incident pre-filled with the task and units; null when no task writes the dataset. */
  incidentHref: z.string().nullable(),
  delivered: z.boolean(),
});
export type AlertView = z.infer<typeof AlertSchema>;

export const AlertDeliverySchema = z.object({
  id: z.string(),
  alertId: z.string(),
  rule: z.string(),
  url: z.string(),
  tryNumber: z.number().int(),
  status: z.enum(["delivered", "failed"]),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  at: z.string(),
});

export const AlertsQuerySchema = z.object({
  /** How many alert rows to return (the counts always cover all of them). */
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});
export type AlertsQuery = z.infer<typeof AlertsQuerySchema>;

/**
 * Alerts that one repair clears, together: the root units they all lead to (lib/domain
 * alert-groups.ts), what those reach downstream, and how severe that is.
 */
export const AlertGroupSchema = z.object({
  id: z.string(),
  /** "stg_orders 2026-08-17, 2026-08-23: failed" — the root causes in words. */
  title: z.string(),
  severity: z.enum(["critical", "warning"]),
  /** Why the severity is what it is, in words (an export already delivered, a dashboard reached, a critical alert). */
  severityWhy: z.array(z.string()),
  roots: z.array(
    z.object({
      taskNodeId: z.string().nullable(),
      datasetNodeId: z.string(),
      name: z.string(),
      units: z.array(z.object({ key: z.string(), state: z.string(), words: z.string() })),
    }),
  ),
  /** What the roots reach downstream (their closure), per dataset, units counted. */
  affected: z.array(z.object({ datasetNodeId: z.string(), name: z.string(), pipeline: z.string().nullable(), units: z.number().int() })),
  affectedUnits: z.number().int(),
  /** Units of the closure already delivered outside the platform: "finance_weekly_export 2026-W33 sent to … at …". */
  deliveredOutside: z.array(z.string()),
  members: z.array(
    z.object({ id: z.string(), rule: AlertRuleSchema, severity: z.enum(["critical", "warning"]), datasetName: z.string(), unitCount: z.number().int() }),
  ),
  /** Opens an incident on the root units (null: a root no task writes). */
  incidentHref: z.string().nullable(),
  /** The open incident already holding a root unit, if any: the group is being handled. */
  handledBy: z.object({ id: z.string(), title: z.string() }).nullable(),
});
export type AlertGroupView = z.infer<typeof AlertGroupSchema>;

export const AlertsSchema = z.object({
  generatedAt: z.string(),
  states: StatesStatusSchema,
  /** Every alert firing now, counted; `alerts` lists the first `limit` of them. */
  counts: z.object({ task: z.number().int(), data: z.number().int(), undelivered: z.number().int() }),
  omitted: z.number().int(),
  defaultGraceHours: z.number(),
  webhook: z.object({ configured: z.boolean(), target: z.string().nullable() }),
  alerts: z.array(AlertSchema),
  /** Every alert firing now, grouped by root cause (each alert in exactly one group). */
  groups: z.array(AlertGroupSchema),
  deliveries: z.array(AlertDeliverySchema),
});
export type Alerts = z.infer<typeof AlertsSchema>;

export const DeliverResultSchema = z.object({
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  tries: z.number().int(),
});
export type DeliverResult = z.infer<typeof DeliverResultSchema>;
