import { z } from "zod";
import { reasonField } from "./reason";
import { KeyRangeSchema } from "./overview";
import { PlanExportSchema } from "./orchestrators";
import { REPAIR_RUN_STATUSES, RUN_ACTIONS } from "@/lib/domain/repair-run-lifecycle";
import { STRATEGIES } from "@/lib/domain/repair-strategies";
import { PRECONDITION_KEYS } from "@/lib/domain/preconditions";

export const StrategySchema = z.enum(STRATEGIES);

// ---------------------------------------------------------------- scope

export const ScopeNodeSchema = z.object({
  nodeId: z.string(),
  name: z.string(),
  kind: z.enum(["task", "dataset"]),
  pipeline: z.string(),
  seed: z.boolean(),
  wave: z.number().int(),
  via: z.array(z.string()),
  units: z.array(KeyRangeSchema),
  unitCount: z.number().int(),
  /** What the node holds now, in words (per state, from the ledger and attempts). */
  holdsNow: z.array(z.object({ state: z.string(), units: z.array(KeyRangeSchema), count: z.number().int() })),
  /** Each unit in scope with its state now, in key order (the scope matrix); capped like holdsNow. */
  cells: z.array(z.object({ key: z.string(), state: z.string() })),
  sentOutside: z.array(z.string()),
});
export type ScopeNode = z.infer<typeof ScopeNodeSchema>;

export const ScopeViewSchema = z.object({
  failedPairs: z.array(z.object({ nodeId: z.string(), units: z.array(z.string()) })),
  nodes: z.array(ScopeNodeSchema),
  /** Lineage edges between nodes in scope (from the closure's `via`): the scope graph. */
  edges: z.array(z.object({ from: z.string(), to: z.string() })),
  pairCount: z.number().int(),
  taskWaves: z.array(z.array(z.string())),
  /** Units the closure reads that are themselves unpublished and outside this incident: another failure it waits on. */
  waitsOn: z.array(z.object({ taskNodeId: z.string(), units: z.array(z.string()), neededBy: z.string(), reason: z.string() })),
});
export type ScopeView = z.infer<typeof ScopeViewSchema>;

/** A scope graph node's box, as laid out by the server's ELK threads (lib/server/lineage/layout/layout-scope.ts). */
export const SCOPE_NODE_SIZE = { width: 180, height: 72 } as const;
export const ScopeLayoutSchema = z.object({
  positions: z.record(z.string(), z.object({ x: z.number(), y: z.number() })),
  width: z.number(),
  height: z.number(),
});
export type ScopeLayout = z.infer<typeof ScopeLayoutSchema>;
/** GET /api/v1/incidents/{id}/scope: the scope, and where each node sits on its graph. */
export const ScopeWithLayoutSchema = ScopeViewSchema.extend({ layout: ScopeLayoutSchema });
export type ScopeWithLayout = z.infer<typeof ScopeWithLayoutSchema>;

// ---------------------------------------------------------------- preconditions

export const CheckVerdictSchema = z.enum(["safe", "unsafe", "unknown"]);
export const PreconditionSchema = z.object({
  key: z.enum(PRECONDITION_KEYS),
  question: z.string(),
  verdict: CheckVerdictSchema,
  detail: z.string(),
  howToKnow: z.string().nullable(),
});
export const TaskPreconditionsSchema = z.object({
  taskNodeId: z.string(),
  name: z.string(),
  pipeline: z.string(),
  units: z.array(KeyRangeSchema),
  checks: z.array(PreconditionSchema),
});
export const PreconditionsViewSchema = z.object({ tasks: z.array(TaskPreconditionsSchema) });
export type PreconditionsView = z.infer<typeof PreconditionsViewSchema>;
export type TaskPreconditions = z.infer<typeof TaskPreconditionsSchema>;

// ---------------------------------------------------------------- plan

export const PlanOptionsSchema = z.object({
  strategy: StrategySchema.optional(),
  replay: z
    .array(
      z.object({
        taskNodeId: z.string().min(1).max(300),
        idempotencyKey: z.string().trim().min(1, "an idempotency key is required to replay a side-effecting task").max(200),
      }),
    )
    .max(50)
    .default([]),
  parameterOverrides: z.record(z.string().min(1).max(100), z.string().max(1000)).default({}),
  reason: z.string().trim().max(2000).optional(),
});
export type PlanOptions = z.infer<typeof PlanOptionsSchema>;

export const ConfirmPlanSchema = PlanOptionsSchema.extend({
  strategy: StrategySchema,
  reason: reasonField,
});

export const PlannedTaskSchema = z.object({
  taskNodeId: z.string(),
  name: z.string(),
  pipeline: z.string(),
  keyRanges: z.array(KeyRangeSchema),
  unitCount: z.number().int(),
  idempotencyKey: z.string().nullable(),
  reason: z.string().nullable(),
});
export type PlannedTaskView = z.infer<typeof PlannedTaskSchema>;

export const BlockerSchema = z.object({
  code: z.string(),
  message: z.string(),
  node: z.string().nullable(),
  keyRanges: z.array(KeyRangeSchema),
  /** A fact nobody declared (unknown_write_mode, unknown_side_effect, unknown_independence): which, and its values. */
  declare: z.object({ fact: z.enum(["writeMode", "sideEffect", "dependsOnOwnPast"]), choices: z.array(z.union([z.string(), z.boolean()])) }).nullable(),
  /** The intervention that lifts it, when there is one. */
  resolution: z
    .object({
      /** clean_unit, declare_replace; add_pairs: add the upstream units to the incident (re-scope). */
      kind: z.enum(["clean_unit", "declare_replace", "add_pairs"]),
      taskNodeId: z.string(),
      units: z.array(z.string()),
      /** The dataset the task appends to (where a team's warehouse count of the units goes). */
      datasetNodeId: z.string().nullable(),
      /**
       * Rows in each unit: as its connected warehouse counts them now (`countedBy: "warehouse"`), else
       * the team's latest count (POST /api/v1/warehouse-counts, `"team"`, with when), else unknown (null).
       * `declared`: the unit was declared cleaned outside Reparo, and what that still waits for (null: believed).
       */
      rowsInUnits: z.array(
        z.object({
          unitKey: z.string(),
          rows: z.number().int().nullable(),
          countedBy: z.enum(["warehouse", "team"]).nullable(),
          countedAt: z.string().nullable(),
          declared: z.object({ at: z.string(), reason: z.string(), auditSeq: z.number().int(), awaiting: z.string().nullable() }).nullable(),
        }),
      ),
      /** Whether Reparo can clean the units itself (a connected warehouse), why not, and the delete it runs. */
      cleanable: z.object({ possible: z.boolean(), why: z.string().nullable(), statement: z.string().nullable() }).nullable(),
    })
    .nullable(),
});
export type BlockerView = z.infer<typeof BlockerSchema>;

export const StrategyOptionSchema = z.object({
  strategy: StrategySchema,
  enabled: z.boolean(),
  recommended: z.boolean(),
  why: z.array(z.object({ code: z.string(), message: z.string() })),
  requires: z.array(z.enum(["reason", "evidence"])),
  when: z.string(),
  cost: z.string(),
});

export const PlanViewSchema = z.object({
  strategy: StrategySchema,
  recommended: StrategySchema,
  options: z.array(StrategyOptionSchema),
  waves: z.array(z.array(PlannedTaskSchema)),
  held: z.array(PlannedTaskSchema),
  excluded: z.array(PlannedTaskSchema),
  marks: z.array(z.object({ nodeId: z.string(), units: z.array(KeyRangeSchema) })),
  blockers: z.array(BlockerSchema),
  warnings: z.array(z.object({ code: z.string(), message: z.string(), node: z.string().nullable() })),
  cost: z.object({ unitsRecomputed: z.number().int(), fullRerunUnits: z.number().int(), tasks: z.number().int() }),
  parameterOverrides: z.record(z.string(), z.string()),
  runnable: z.boolean(),
  exports: z.object({ airflow: PlanExportSchema, dagster: PlanExportSchema, databricks: PlanExportSchema, dbt: PlanExportSchema }),
});
export type PlanView = z.infer<typeof PlanViewSchema>;

// ---------------------------------------------------------------- execute

export const LaunchBodySchema = z.object({
  resume: z.boolean().default(false),
  concurrency: z.number().int().min(1).max(16).default(4),
  /** The digest of the reviewed dry run (POST …/dry-run): needed when the repair runs in an orchestrator. */
  preview: z
    .string()
    .regex(/^[0-9a-f]{32}$/, "the digest a dry run returned")
    .optional(),
});
export const LaunchResultSchema = z.object({ runId: z.string(), repairNumber: z.number().int(), pairs: z.number().int() });

export const PairProgressSchema = z.object({
  taskNodeId: z.string(),
  name: z.string(),
  unitKey: z.string(),
  wave: z.number().int(),
  status: z.enum(["pending", "running", "succeeded", "failed", "upstream_failed"]),
  rows: z.number().int().nullable(),
  error: z.string().nullable(),
});
export const ProgressViewSchema = z.object({
  run: z
    .object({
      id: z.string(),
      status: z.enum(REPAIR_RUN_STATUSES),
      /** What an operator may do with the run now (lib/domain/repair-run-lifecycle.ts): the Execute step renders from it. */
      allowedActions: z.array(z.enum(RUN_ACTIONS)),
      repairNumber: z.number().int(),
      rootRunId: z.string().nullable(),
      startedAt: z.string().nullable(),
      endedAt: z.string().nullable(),
      /**
       * Why the run stopped on an error (the peer and the cause in plain words): while it asks
       * again (`retryInSeconds`; attempt `attempt` of `of`), or once it failed on it (null).
       */
      fault: z
        .object({ message: z.string(), at: z.string(), attempt: z.number().int(), of: z.number().int(), retryInSeconds: z.number().nullable() })
        .nullable()
        .default(null),
    })
    .nullable(),
  total: z.number().int(),
  done: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  pairs: z.array(PairProgressSchema),
  /** Where the wave in flight runs, and for dbt the command waiting for the operator to run it. */
  dispatched: z
    .array(
      z.object({
        pipeline: z.string(),
        orchestrator: z.string(),
        wave: z.number().int(),
        command: z.string().nullable(),
        /** dbt: `dbt retry …` when one invocation does every wave's work (the plan is exactly what the failed run left). */
        alternative: z.string().nullable().default(null),
      }),
    )
    .default([]),
});
export type ProgressView = z.infer<typeof ProgressViewSchema>;

// ---------------------------------------------------------------- validate

export const UnitValidationSchema = z.object({
  datasetNodeId: z.string(),
  name: z.string(),
  unitKey: z.string(),
  passed: z.boolean(),
  state: z.string(),
  checks: z.object({
    inLedger: z.boolean(),
    publishedOnce: z.boolean(),
    nonEmpty: z.boolean().nullable(),
    reconciles: z.boolean().nullable(),
    notStale: z.boolean(),
  }),
  inputVersion: z.string().nullable(),
  rowCount: z.number().int().nullable(),
  sourceCount: z.number().int().nullable(),
  publishCount: z.number().int(),
  /** The unit's rows as its warehouse counts them now; null when the warehouse is not connected. */
  rowsInWarehouse: z.number().int().nullable(),
  failures: z.array(z.string()),
  notes: z.array(z.string()),
  mark: z.string().nullable(),
});
export type UnitValidationView = z.infer<typeof UnitValidationSchema>;
export const ValidationViewSchema = z.object({
  passed: z.boolean(),
  units: z.array(UnitValidationSchema),
  failedUnits: z.number().int(),
  accountedByMarks: z.number().int(),
});
export type ValidationView = z.infer<typeof ValidationViewSchema>;

export const OkSchema = z.object({ ok: z.literal(true), auditSeq: z.number().int() });

// ---------------------------------------------------------------- results of the steps' actions

export const CancelRepairResultSchema = z.object({
  ok: z.literal(true),
  runId: z.string(),
  repairNumber: z.number().int(),
  /** `cancelling`: the console running it has been told and stops it at its next step. */
  status: z.enum(["cancelling", "cancelled"]),
  stopRequests: z.array(z.object({ orchestrator: z.string(), method: z.string(), url: z.string(), status: z.number().int().nullable() })),
  unconfirmed: z.array(z.string()),
});
export const CleanUnitResultSchema = OkSchema.extend({
  rowsRemoved: z.number().int(),
  rowsAfter: z.number().int(),
  warehouse: z.string(),
  statement: z.string(),
});
export const DeclareCleanedResultSchema = OkSchema.extend({ units: z.array(z.string()), awaiting: z.string() });
