import { z } from "zod";
import { dayField } from "./day";
import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";
import { fromRuns, toRuns } from "./cell-runs";

/**
 * The unit matrix on the wire. A million cells cannot be a million JSON objects, so each row is
 * one string with one character per column of its section: the state's code below, or
 * NO_UNIT where the dataset expects no unit at that column (its range starts later, say).
 */
/** The domain's states in its precedence order, worst first: one list, so a code never means two states. */
export const UNIT_STATES = UNIT_STATE_PRECEDENCE;
export type MatrixState = (typeof UNIT_STATES)[number];
export const UnitStateSchema = z.enum(UNIT_STATES);

/** Code of UNIT_STATES[i] is STATE_CODES[i]; same order as the domain's precedence, worst first. */
export const STATE_CODES = "ksfbmedvutiwrp";
export const NO_UNIT = "-";

export const STATE_LABELS: Record<MatrixState, string> = {
  known_bad: "known-bad",
  skipped: "skipped",
  failed: "failed",
  blocked: "blocked (upstream failed)",
  missing: "missing",
  empty: "empty",
  duplicate: "duplicate",
  divergent: "divergent",
  suspect: "suspect (built on bad upstream)",
  stale: "stale",
  input_mismatch: "input-mismatch",
  rows_unknown: "published, rows unknown",
  repaired: "repaired",
  published: "published",
};

export const stateOfCode = (code: string): MatrixState | null => {
  const i = STATE_CODES.indexOf(code);
  return i < 0 ? null : UNIT_STATES[i]!;
};
export const codeOfState = (state: MatrixState): string => STATE_CODES[UNIT_STATES.indexOf(state)]!;

export const UnitMatrixQuerySchema = z
  .object({
    pipeline: z.string().min(1).optional(),
    dataset: z.string().min(1).optional(),
    /** Comma-separated states: only rows holding at least one unit in one of them. */
    states: z
      .string()
      .optional()
      .transform((s, ctx) => {
        const list = (s ?? "").split(",").filter(Boolean);
        const bad = list.filter((x) => !(UNIT_STATES as readonly string[]).includes(x));
        if (bad.length > 0) ctx.addIssue({ code: "custom", message: `unknown state ${bad.map((b) => `"${b}"`).join(", ")}; one of ${UNIT_STATES.join(", ")}` });
        return list as MatrixState[];
      }),
    from: dayField.optional(),
    to: dayField.optional(),
    /** `runs`: each row's cells as runs (`runs` instead of `cells`, lib/contracts/cell-runs.ts); the page asks for these. */
    cells: z.enum(["string", "runs"]).default("string"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["from"] });
export type UnitMatrixQuery = z.infer<typeof UnitMatrixQuerySchema>;

export const MatrixRowSchema = z.object({
  nodeId: z.string(),
  name: z.string(),
  pipeline: z.string().nullable(),
  /** The task that writes it, for "plan a repair" and lineage links; null for a source. */
  writerNodeId: z.string().nullable(),
  cells: z.string(),
  /** Set when the dataset's expected units are unknown (no definition declared): its cells are only the units its records name. */
  note: z.string().nullable(),
});
export type MatrixRow = z.infer<typeof MatrixRowSchema>;

export const MatrixSectionSchema = z.object({
  id: z.string(),
  /** "Daily (UTC)", "Monthly (UTC)", "Unpartitioned"… */
  label: z.string(),
  grain: z.enum(["hour", "day", "week", "month", "list", "none"]),
  columns: z.array(z.string()),
  rows: z.array(MatrixRowSchema),
});
export type MatrixSection = z.infer<typeof MatrixSectionSchema>;

export const MatrixInvalidKeySchema = z.object({
  nodeId: z.string(),
  unitKey: z.string(),
  reason: z.string(),
  /** ingestion | demo | api for keys a request carried; ledger for a published key the definition rejects. */
  source: z.string(),
  observedAt: z.string(),
});
export type MatrixInvalidKey = z.infer<typeof MatrixInvalidKeySchema>;

/**
 * Where the unit states stand: `computing` while a first computation runs (the answer holds the
 * datasets done so far), `refreshing` while a catalog change is applied (the answer holds the
 * states from before it). Both null/false: the states are current.
 */
export const StatesStatusSchema = z.object({
  computing: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
  refreshing: z.boolean(),
  /** Deferred folding: events accepted whose runs and publishes are not written yet, and how long the oldest has waited. */
  unfolded: z.object({ events: z.number().int(), oldestSeconds: z.number() }).nullable(),
});
export type StatesStatus = z.infer<typeof StatesStatusSchema>;

export const UnitMatrixSchema = z.object({
  generatedAt: z.string(),
  states: StatesStatusSchema,
  /** Units per state in the pipeline and date range asked for (before the state filter). */
  counts: z.record(UnitStateSchema, z.number().int()),
  pipelines: z.array(z.string()),
  sections: z.array(MatrixSectionSchema),
  invalidKeys: z.array(MatrixInvalidKeySchema),
});
export type UnitMatrix = z.infer<typeof UnitMatrixSchema>;

/** A row with `cells=runs`: its cells as runs ("p37fp12"), read back with fromRuns. */
export const MatrixRowInRunsSchema = MatrixRowSchema.omit({ cells: true }).extend({ runs: z.string() });
/** The matrix with `cells=runs` on the wire. */
export const UnitMatrixInRunsSchema = UnitMatrixSchema.extend({
  sections: z.array(MatrixSectionSchema.omit({ rows: true }).extend({ rows: z.array(MatrixRowInRunsSchema) })),
});
export type UnitMatrixInRuns = z.infer<typeof UnitMatrixInRunsSchema>;
/** Either form the matrix API answers. */
export const UnitMatrixAnswerSchema = z.union([UnitMatrixSchema, UnitMatrixInRunsSchema]);

export function matrixInRuns(m: UnitMatrix, runsOf: (row: MatrixRow) => string = (row) => toRuns(row.cells)): UnitMatrixInRuns {
  const inRuns = (row: MatrixRow): z.infer<typeof MatrixRowInRunsSchema> => ({
    nodeId: row.nodeId,
    name: row.name,
    pipeline: row.pipeline,
    writerNodeId: row.writerNodeId,
    runs: runsOf(row),
    note: row.note,
  });
  return { ...m, sections: m.sections.map((s) => ({ ...s, rows: s.rows.map(inRuns) })) };
}

/** The matrix with `cells=runs` as the page uses it: each row's cells read back (a row whose runs do not give one cell per column is refused). */
export const UnitMatrixFromRunsSchema = UnitMatrixInRunsSchema.transform((m, ctx): UnitMatrix => {
  const sections = m.sections.map((s, i) => ({
    ...s,
    rows: s.rows.map(({ runs, ...row }, j) => {
      const cells = fromRuns(runs, s.columns.length);
      if (cells === null) ctx.addIssue({ code: "custom", message: `runs do not hold ${s.columns.length} cells`, path: ["sections", i, "rows", j, "runs"] });
      return { ...row, cells: cells ?? "" };
    }),
  }));
  return { ...m, sections };
});

export const UnitDetailQuerySchema = z.object({ dataset: z.string().min(1), unit: z.string().min(1) });

const iso = z.string().nullable();
export const UnitDetailSchema = z.object({
  datasetNodeId: z.string(),
  datasetName: z.string(),
  pipeline: z.string().nullable(),
  unitKey: z.string(),
  state: UnitStateSchema,
  reasons: z.array(z.string()),
  writer: z
    .object({
      nodeId: z.string(),
      name: z.string(),
      writeMode: z.string().nullable(),
      /** Where the write mode came from, in words ("declared", "dbt manifest", …); null: nobody said. */
      writeModeFrom: z.string().nullable(),
      /** Who owns the task (declared, the dbt manifest, an OpenLineage ownership facet, Airflow's DAG owner); null: nobody said. */
      owner: z.string().nullable(),
      ownerFrom: z.string().nullable(),
    })
    .nullable(),
  publishes: z.array(
    z.object({
      runId: z.string(),
      runKind: z.string(),
      publishedAt: z.string(),
      inputVersion: z.string().nullable(),
      codeVersion: z.string().nullable(),
      rowCount: z.number().int().nullable(),
    }),
  ),
  attempts: z.array(
    z.object({
      runId: z.string(),
      tryNumber: z.number().int(),
      status: z.string(),
      rowsWritten: z.number().int().nullable(),
      error: z.string().nullable(),
      startedAt: iso,
      endedAt: iso,
    }),
  ),
  sourceCount: z.number().int().nullable(),
  deviation: z.number().nullable(),
  tolerance: z.number(),
  /** Rows failed tries left in the unit; null: unknown (its producer reports no row counts). */
  partialRows: z.number().int().nullable(),
  latestRunId: z.string().nullable(),
  interventions: z.array(z.object({ seq: z.number().int(), kind: z.string(), actor: z.string(), at: z.string(), reason: z.string() })),
});
export type UnitDetail = z.infer<typeof UnitDetailSchema>;
