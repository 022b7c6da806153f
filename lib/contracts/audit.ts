import { z } from "zod";
import { PartitionDefSchema } from "./partitions";
import { INCIDENT_STATUSES } from "@/lib/domain/incident-lifecycle";
import { SEVERITY_LEVELS } from "@/lib/domain/incident-severity";
import { PUBLISH_MODES, SIDE_EFFECTS, WRITE_MODES } from "@/lib/domain/lineage-graph";

/** A (node, units) target of an intervention: a task or dataset and the unit keys it concerns. */
export const AuditTargetSchema = z.object({ nodeId: z.string(), units: z.array(z.string()) });
export type AuditTarget = z.infer<typeof AuditTargetSchema>;

const IncidentStatusSchema = z.enum(INCIDENT_STATUSES);
const status = z.object({ status: IncidentStatusSchema });
/** A computed severity as an entry records it (absent in entries from before severities). */
const computedSeverity = z.object({ level: z.enum(SEVERITY_LEVELS), reasons: z.array(z.string()) });
const nothing = z.null();
const rows = z.object({ rows: z.number().int() });
const markState = z.object({ state: z.string() });
/** Task properties OpenLineage does not carry (PUT /api/v1/tasks/{id}); null = unknown (unsafe). */
export const TaskPropertiesSchema = z.object({
  writeMode: z.enum(WRITE_MODES).nullable(),
  sideEffect: z.enum(SIDE_EFFECTS).nullable(),
  dependsOnOwnPast: z.boolean().nullable(),
  publishMode: z.enum(PUBLISH_MODES).nullable(),
  owner: z.string(),
});
const partitions = z.object({ partitionDef: PartitionDefSchema });
const access = z.object({ role: z.string(), namespaces: z.array(z.string()), displayName: z.string() });
/** One request Reparo sent an orchestrator and its answer: never a header or a secret. */
const OrchestratorCallSchema = z.object({
  orchestrator: z.string(),
  method: z.string(),
  url: z.string(),
  status: z.number().int().nullable(),
  ids: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])).optional(),
  error: z.string().optional(),
  dryRun: z.boolean().optional(),
});
const token = z.object({ name: z.string(), scope: z.string(), namespaces: z.array(z.string()), revoked: z.boolean() });

/**
 * One zod schema per kind of intervention, each with what was true before and after. The kinds
 * use one casing (`noun.verb_past`). Adding a kind means adding its schema here: appendAudit
 * refuses an entry whose before/after does not match its kind.
 */
export const AUDIT_KINDS = {
  "incident.opened": {
    before: nothing,
    after: z.object({
      status: z.literal("open"),
      title: z.string(),
      failedPairs: z.array(AuditTargetSchema),
      severity: computedSeverity.optional(),
      /** Opened from a symptom: what was asked, and its states in words (the pairs are its root causes). */
      symptom: z.object({ nodeId: z.string(), units: z.array(z.string()), states: z.array(z.string()) }).optional(),
    }),
  },
  "incident.scoped": {
    before: status,
    // severity: recomputed for the new closure (absent when a person's choice is in force, and in older entries).
    after: z.object({
      status: z.literal("scoped"),
      pairCount: z.number().int(),
      failedPairs: z.array(AuditTargetSchema),
      severity: computedSeverity.optional(),
    }),
  },
  "preconditions.reviewed": { before: status, after: z.object({ unsafe: z.array(z.string()), unknown: z.array(z.string()) }) },
  "plan.confirmed": {
    before: status,
    after: z.object({
      status: z.literal("planned"),
      planId: z.string(),
      strategy: z.string(),
      unitsRecomputed: z.number().int(),
      excluded: z.array(z.string()),
      parameterOverrides: z.record(z.string(), z.string()),
      /** Side-effecting tasks deliberately replayed, each with the idempotency key its receiver deduplicates on. */
      replay: z.array(z.object({ taskNodeId: z.string(), idempotencyKey: z.string() })).optional(),
    }),
  },
  "repair.launched": {
    before: status,
    after: z.object({
      status: z.literal("repairing"),
      runId: z.string(),
      rootRunId: z.string().nullable(),
      repairNumber: z.number().int(),
      pairs: z.number().int(),
    }),
  },
  "repair.finished": {
    // incidentStatus: the incident's move at the run's end, when it made one (absent in older entries).
    before: z.object({ runStatus: z.string(), incidentStatus: IncidentStatusSchema.optional() }),
    after: z.object({
      runStatus: z.string(),
      succeeded: z.number().int(),
      failed: z.number().int(),
      blocked: z.number().int(),
      incidentStatus: IncidentStatusSchema.optional(),
    }),
  },
  "repair.taken_over": {
    before: z.object({ owner: z.string() }),
    after: z.object({ owner: z.string(), done: z.number().int(), remaining: z.number().int(), abandonedAttempts: z.number().int() }),
  },
  // Written before runs were taken over from their progress (repair.taken_over); old entries stay readable.
  "repair.interrupted": {
    before: z.object({ runStatus: z.string() }),
    after: z.object({ runStatus: z.literal("interrupted"), done: z.number().int(), remaining: z.number().int(), abandonedAttempts: z.number().int() }),
  },
  "repair.dispatched": {
    before: nothing,
    after: z.union([
      z.object({ runId: z.string(), wave: z.number().int(), pipeline: z.string(), orchestrator: z.string(), calls: z.array(OrchestratorCallSchema) }),
      // Entries of the old single-URL dispatch (before orchestrator connections) stay readable.
      z.object({ orchestrator: z.string(), endpoint: z.string(), status: z.number().int(), requests: z.number().int() }),
    ]),
  },
  "repair.dispatch_failed": {
    before: nothing,
    after: z.object({ runId: z.string(), wave: z.number().int(), pipeline: z.string(), orchestrator: z.string(), calls: z.array(OrchestratorCallSchema) }),
  },
  "repair.progress": {
    before: nothing,
    after: z.object({
      runId: z.string(),
      wave: z.number().int(),
      changed: z.array(z.object({ taskNodeId: z.string(), unitKey: z.string(), status: z.string(), externalId: z.string().nullable() })),
      calls: z.array(OrchestratorCallSchema),
    }),
  },
  "repair.cancel_sent": { before: nothing, after: z.object({ runId: z.string(), wave: z.number().int(), calls: z.array(OrchestratorCallSchema) }) },
  "repair.previewed": {
    before: nothing,
    after: z.object({
      digest: z.string(),
      requests: z.number().int(),
      unsupported: z.number().int(),
      extra: z.number().int(),
      extraSideEffects: z.number().int(),
      missing: z.number().int(),
      calls: z.array(OrchestratorCallSchema),
    }),
  },
  "warehouse.connection_set": {
    before: z.object({ namespace: z.string(), connection: z.record(z.string(), z.unknown()).nullable() }),
    after: z.object({ namespace: z.string(), connection: z.record(z.string(), z.unknown()) }),
  },
  "pipeline.orchestrator_set": {
    before: z.object({ pipeline: z.string(), connection: z.record(z.string(), z.unknown()).nullable() }),
    after: z.object({ pipeline: z.string(), connection: z.record(z.string(), z.unknown()) }),
  },
  "unit.deduplicated": {
    before: rows,
    after: rows.extend({ warehouse: z.string().optional(), statement: z.string().optional(), params: z.array(z.string()).optional() }),
  },
  "unit.clean_failed": { before: rows, after: rows },
  /** Cleaned outside Reparo, by the operator's word: believed only once a warehouse count shows the unit empty. */
  "unit.clean_declared": {
    before: nothing,
    after: z.object({ task: z.string(), units: z.array(z.string()), statement: z.string(), believedWhen: z.string() }),
  },
  /** A warehouse count of 0 rows evidenced a declared cleaning: from its measuredAt on, the unit's earlier rows are gone. */
  "unit.clean_evidenced": {
    before: z.object({ evidencedAt: z.string().nullable() }),
    after: z.object({ evidencedAt: z.string(), declaredIn: z.number().int(), rows: z.literal(0), source: z.string() }),
  },
  "task.declared_replace": { before: z.object({ writeMode: z.string().nullable() }), after: z.object({ writeMode: z.literal("replace") }) },
  "unit.marked_known_bad": { before: markState, after: markState },
  "unit.skipped": { before: markState, after: markState },
  "unit.marked_success": { before: markState, after: z.object({ state: z.string(), evidence: z.string() }) },
  "validation.passed": { before: status, after: z.object({ status: z.literal("validating"), units: z.number().int() }) },
  "validation.overridden": { before: z.object({ failedUnits: z.array(z.string()) }), after: z.object({ status: z.literal("resolved") }) },
  "incident.resolved": { before: status, after: z.object({ status: z.literal("resolved") }) },
  "incident.abandoned": { before: status, after: z.object({ status: z.literal("abandoned") }) },
  "task.properties_changed": { before: TaskPropertiesSchema, after: TaskPropertiesSchema },
  "dataset.partitions_changed": {
    before: z.object({ partitionDef: PartitionDefSchema.nullable() }),
    // What the new definition settled (absent in entries from before it was recorded).
    after: partitions.extend({
      resolved: z.object({ keys: z.number().int(), runs: z.number().int(), publishes: z.number().int(), held: z.number().int().optional() }).optional(),
    }),
  },
  // The incident as people run it (issue 36): its severity set by a person over the computed one, its commander assigned.
  "incident.severity_set": {
    before: z.object({ level: z.enum(SEVERITY_LEVELS).nullable(), source: z.enum(["computed", "set"]).nullable() }),
    after: z.object({ level: z.enum(SEVERITY_LEVELS), source: z.literal("set"), computed: z.enum(SEVERITY_LEVELS).nullable() }),
  },
  "incident.commander_set": { before: z.object({ commander: z.string() }), after: z.object({ commander: z.string() }) },
  // Incidents opened for you, per pipeline (lib/server/incidents/open-incidents-for-you.ts).
  "pipeline.auto_incidents_set": {
    before: z.object({ pipeline: z.string(), enabled: z.boolean() }),
    after: z.object({ pipeline: z.string(), enabled: z.boolean() }),
  },
  // The communication step (docs/notifications.md): a notice queued, each try to send it, its acknowledgement, and a resolve past an unacknowledged delivery.
  "notice.queued": {
    before: nothing,
    after: z.object({ noticeIds: z.array(z.string()), recipients: z.array(z.string()), event: z.string(), text: z.string().optional() }),
  },
  "notice.sent": {
    before: z.object({ status: z.string() }),
    after: z.object({ noticeId: z.string(), recipient: z.string(), channel: z.string(), attempt: z.number().int() }),
  },
  "notice.failed": {
    before: z.object({ status: z.string() }),
    after: z.object({
      noticeId: z.string(),
      recipient: z.string(),
      channel: z.string(),
      attempt: z.number().int(),
      error: z.string(),
      status: z.enum(["failed", "undelivered"]),
      nextAttemptAt: z.string().nullable(),
    }),
  },
  "notice.acknowledged": { before: nothing, after: z.object({ noticeId: z.string(), recipient: z.string(), by: z.string() }) },
  "deliveries.overridden": { before: z.object({ unacknowledged: z.array(z.string()) }), after: z.object({ status: z.literal("resolved") }) },
  "note.added": { before: nothing, after: z.object({ note: z.string() }) },
  // The team's declaration file applied: each fact it changed, before (with where it came from) → after.
  "declarations.applied": {
    before: z.object({ changes: z.array(z.object({ nodeId: z.string(), fact: z.string(), value: z.unknown(), source: z.string().nullable() })) }),
    after: z.object({
      changes: z.array(z.object({ nodeId: z.string(), fact: z.string(), value: z.unknown() })),
      refolded: z.object({ runs: z.number().int(), publishes: z.number().int() }),
    }),
  },
  "user.added": { before: nothing, after: access },
  "user.changed": { before: access, after: access },
  "user.removed": { before: access, after: nothing },
  "token.created": { before: nothing, after: token },
  "token.revoked": { before: token, after: token },
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;
export const AuditKindSchema = z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]]);

/** What a use case hands appendAudit, kind by kind (a discriminated union). */
export type AuditDraft = {
  [K in AuditKind]: {
    kind: K;
    actor: string;
    actorRole: string;
    reason: string;
    incidentId?: string | null;
    targets?: AuditTarget[];
    before: z.infer<(typeof AUDIT_KINDS)[K]["before"]>;
    after: z.infer<(typeof AUDIT_KINDS)[K]["after"]>;
  };
}[AuditKind];

const draftSchemas = (Object.keys(AUDIT_KINDS) as AuditKind[]).map((kind) =>
  z.object({
    kind: z.literal(kind),
    actor: z.string().min(1),
    actorRole: z.string().min(1),
    reason: z.string().trim().min(1, "a reason is required"),
    incidentId: z.string().nullish(),
    targets: z.array(AuditTargetSchema).optional(),
    before: AUDIT_KINDS[kind].before,
    after: AUDIT_KINDS[kind].after,
  }),
);
export const AuditDraftSchema = z.discriminatedUnion("kind", draftSchemas as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);

export const AuditEntrySchema = z.object({
  seq: z.number().int(),
  kind: z.string(),
  actor: z.string(),
  actorRole: z.string(),
  at: z.string(),
  reason: z.string(),
  incidentId: z.string().nullable(),
  targets: z.array(AuditTargetSchema),
  before: z.unknown(),
  after: z.unknown(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEntryView = z.infer<typeof AuditEntrySchema>;

export const AuditListQuerySchema = z.object({
  kind: AuditKindSchema.optional(),
  actor: z.string().max(200).optional(),
  incidentId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce.number().int().min(1).optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

/** A listed entry also says where its incident stands now: the link reads "resolved", not the status at the time. */
export const AuditListEntrySchema = AuditEntrySchema.extend({
  incident: z.object({ id: z.string(), title: z.string(), status: z.string() }).nullable(),
});
export type AuditListEntry = z.infer<typeof AuditListEntrySchema>;
export const AuditListSchema = z.object({ entries: z.array(AuditListEntrySchema), nextBefore: z.number().int().nullable() });
export type AuditList = z.infer<typeof AuditListSchema>;

const BreakSchema = z.object({ seq: z.number().int(), reason: z.string() });

/** The chain's last entry, signed with the server's audit key: export it, and later check against it. */
export const AuditHeadSchema = z.object({
  seq: z.number().int(),
  hash: z.string(),
  entries: z.number().int(),
  exportedAt: z.string(),
  /** HMAC-SHA256 over `seq:hash:entries` with REPARO_AUDIT_KEY; null when no key is configured. */
  signature: z.string().nullable(),
  keyId: z.string().nullable(),
});
export type AuditHead = z.infer<typeof AuditHeadSchema>;

export const AuditVerifySchema = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  headHash: z.string().nullable(),
  /** The first entry whose hash or link does not match, and why. */
  brokenAt: BreakSchema.nullable(),
  /** Every such entry (at most 1,000 listed; `brokenCount` counts them all). */
  broken: z.array(BreakSchema),
  brokenCount: z.number().int(),
  /** Checked against an exported head (`?head=` or `npm run audit:verify -- --head`): null when none was given. */
  against: z.object({ seq: z.number().int(), ok: z.boolean(), reason: z.string().nullable() }).nullable(),
});
export type AuditVerify = z.infer<typeof AuditVerifySchema>;
