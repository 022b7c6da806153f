import { z } from "zod";
import { KeyRangeSchema, OpenFailureSchema } from "./overview";

export const DirectionSchema = z.enum(["downstream", "upstream"]);
export type Direction = z.infer<typeof DirectionSchema>;

/** An instant: ISO 8601 date or date-time; absent means now. */
const AsOfSchema = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: "is not an ISO 8601 instant (e.g. 2026-08-20T00:00:00Z)" })
  .optional();

export const LineageGraphQuerySchema = z.object({ asOf: AsOfSchema });

/**
 * GET /api/v1/closure. `units` (docs/lineage.md): comma-separated keys and `from..to` ranges,
 * e.g. `2026-08-17,2026-08-20..2026-08-22`; absent = every expected unit of the node.
 */
export const ClosureQuerySchema = z.object({
  nodeId: z.string().min(1, "is required (a node id such as job:orders:stg_orders)"),
  units: z.string().max(10_000).optional(),
  direction: DirectionSchema.default("downstream"),
  asOf: AsOfSchema,
});
export type ClosureQuery = z.infer<typeof ClosureQuerySchema>;

/** `consumer`: a declared consumer (`consumer:<id>`: a dashboard, an export's recipient, a model team), downstream of what it reads. */
export const NodeKindSchema = z.enum(["task", "dataset", "consumer"]);
/** How a node is drawn: a task, a table, a dataset read outside the pipelines' tables, or a declared consumer. */
export const NodeRoleSchema = z.enum(["task", "dataset", "dashboard", "export", "model", "consumer"]);
export type NodeRole = z.infer<typeof NodeRoleSchema>;

export const LineageNodeSchema = z.object({
  id: z.string(),
  kind: NodeKindSchema,
  role: NodeRoleSchema,
  name: z.string(),
  namespace: z.string(),
  pipeline: z.string(),
  /** "daily from 2026-05-18 to 2026-08-25", "unpartitioned". */
  partitions: z.string(),
  /** Task facts that decide repair safety, in words ("append", "external side effect", "reads its own past"). */
  traits: z.array(z.string()),
});
export type LineageNode = z.infer<typeof LineageNodeSchema>;

export const LineageEdgeSchema = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  kind: z.enum(["reads", "writes"]),
  /** The read's partition mapping in words ("identity", "day → week"); empty for writes. */
  mapping: z.string(),
  /**
   * How closures walk it: `exact` through its mapping; `degraded` as every unit (the mapping
   * cannot relate the two definitions); `self` a task reading what it writes (drawn, walked as
   * its sequential or in-place self-dependency); `cut` left out to break a cycle.
   */
  status: z.enum(["exact", "degraded", "self", "cut"]),
  /** Why, in words, when the status is not exact. */
  note: z.string(),
});
export type LineageEdge = z.infer<typeof LineageEdgeSchema>;

export const LineageGraphSchema = z.object({
  asOf: z.string(),
  /** Content hash of nodes and edges: the layout cache key. */
  hash: z.string(),
  nodes: z.array(LineageNodeSchema),
  edges: z.array(LineageEdgeSchema),
});
export type LineageGraphView = z.infer<typeof LineageGraphSchema>;

/** Every node is drawn this size: the layout reserves it and the canvas needs no measuring. */
export const LINEAGE_NODE_SIZE = { width: 200, height: 84 } as const;

/** GET /api/v1/lineage-graph/layout: `collapsed` names pipelines (comma-separated) drawn as one box. */
export const LineageLayoutQuerySchema = z.object({
  asOf: AsOfSchema,
  collapsed: z.string().max(10_000).optional(),
});

const PointSchema = z.object({ x: z.number(), y: z.number() });
export const PipelineBoxSchema = z.object({
  pipeline: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  collapsed: z.boolean(),
  nodeCount: z.number().int(),
});
export type PipelineBox = z.infer<typeof PipelineBoxSchema>;

export const LineageLayoutResultSchema = z.object({
  groups: z.array(PipelineBoxSchema),
  /** Top-left of each node inside its pipeline's box (absent for nodes of collapsed pipelines). */
  positions: z.record(z.string(), PointSchema),
});
export type LineageLayoutResult = z.infer<typeof LineageLayoutResultSchema>;

/** The layout of the graph whose content hash is `hash` (the client checks it is the graph it holds). */
export const LineageLayoutSchema = LineageLayoutResultSchema.extend({ hash: z.string(), collapsed: z.array(z.string()) });
export type LineageLayout = z.infer<typeof LineageLayoutSchema>;

export const ClosureNodeSchema = z.object({
  nodeId: z.string(),
  kind: NodeKindSchema,
  name: z.string(),
  /** Key ranges [from, to]; null for an unpartitioned node. */
  units: z.array(KeyRangeSchema).nullable(),
  unitCount: z.number().int(),
  /** "2026-08-17 → 2026-08-25 (9 units)", "all of 2026-08", "2026-W34". */
  unitsText: z.string(),
  via: z.array(z.string()),
  /** Those of `via` reached over a degraded edge, walked as every unit, and why. */
  degradedVia: z.array(z.object({ nodeId: z.string(), reason: z.string() })),
  seed: z.boolean(),
  depth: z.number().int(),
});
export type ClosureNode = z.infer<typeof ClosureNodeSchema>;

export const ClosureSchema = z.object({
  asOf: z.string(),
  direction: DirectionSchema,
  nodes: z.array(ClosureNodeSchema),
  waves: z.array(z.array(z.string())),
});
export type Closure = z.infer<typeof ClosureSchema>;

/** What the units of a closure node hold now (PRODUCT.md, the downstream closure). */
/**
 * What a closure node's units hold now. The first six partition its units; `suspect` is said
 * besides them: units whose figures were built on a bad upstream unit (the unit-state service's
 * suspect state), so a unit can be both "built before the failure" and "suspect".
 */
export const HoldingKindSchema = z.enum([
  "never_ran",
  "failed_nothing_written",
  "partial_write",
  "built",
  "built_before_failure",
  "built_after_failure",
  "sent_outside",
  "suspect",
]);
export type HoldingKind = z.infer<typeof HoldingKindSchema>;

export const HoldingSchema = z.object({
  kind: HoldingKindSchema,
  units: z.array(KeyRangeSchema),
  unitsText: z.string(),
  /** The explanation in words, e.g. "sent to finance-ledger on 2026-08-24: re-running recalls nothing". */
  detail: z.string(),
});
export type Holding = z.infer<typeof HoldingSchema>;

export const HoldingsSchema = z.object({
  asOf: z.string(),
  /** When the seed's latest attempt failed, if it did. */
  failedAt: z.string().nullable(),
  /**
   * Set while the unit states' first computation runs (a console just started on a big world):
   * `done` of `total` datasets computed. Nodes whose dataset it has not reached say
   * `suspectUnknown`: whether their units are suspect is not known yet (never "not suspect").
   */
  statesComputing: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  nodes: z.array(z.object({ nodeId: z.string(), holdings: z.array(HoldingSchema), suspectUnknown: z.literal(true).optional() })),
});
export type Holdings = z.infer<typeof HoldingsSchema>;

/** GET /api/v1/lineage-graph/failures: the failed (task, unit) pairs the page offers to select. */
export const LineageFailuresSchema = z.object({ failures: z.array(OpenFailureSchema) });
export type LineageFailures = z.infer<typeof LineageFailuresSchema>;

/**
 * GET /api/v1/lineage-graph/closure-layout: the closure's parameters, and the width/height ratio
 * of the canvas it is shown on (its layers wrap into rows to suit it; default 1.5).
 */
export const ClosureLayoutQuerySchema = ClosureQuerySchema.extend({
  aspect: z.coerce.number().positive().max(100).optional(),
});
export type ClosureLayoutQuery = z.infer<typeof ClosureLayoutQuerySchema>;

/**
 * Closures up to this many nodes are laid out on their own. A wider one is no more legible alone
 * than in the whole lineage, and would cost its own ELK layout of thousands of nodes.
 */
export const CLOSURE_ALONE_UP_TO = 400;

/** The closure laid out on its own: each node's top-left (nodes are `LINEAGE_NODE_SIZE`), and the whole size. */
export const ClosureLayoutSchema = z.object({
  positions: z.record(z.string(), PointSchema),
  width: z.number(),
  height: z.number(),
});
export type ClosureLayout = z.infer<typeof ClosureLayoutSchema>;
