import { z } from "zod";
import { reasonField } from "./reason";

/**
 * Where a pipeline's repairs run: its orchestrator connection, set by an admin with
 * `PUT /api/v1/pipelines/{id}/orchestrator`. Secrets are NAMED — an environment variable of the
 * console's process or a file on its machine — and read only when a request is sent: never
 * stored, returned or written to the audit log.
 */
export const ORCHESTRATOR_KINDS = ["airflow", "dagster", "databricks", "dbt", "local", "none"] as const;
export type OrchestratorKind = (typeof ORCHESTRATOR_KINDS)[number];

export const SecretRefSchema = z.union([
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable's name: letters, digits and _") }).strict(),
  z.object({ file: z.string().regex(/^\//, "an absolute path") }).strict(),
]);
export type SecretRef = z.infer<typeof SecretRefSchema>;

/** http(s), and nothing secret in it: credentials are named separately (a URL is stored, shown and audited). */
const BaseUrlSchema = z
  .url({ protocol: /^https?$/ })
  .refine((u) => {
    const x = URL.parse(u);
    return !x || (!x.username && !x.password);
  }, "no user or password in the URL: name the secret in credentials")
  .refine((u) => {
    const x = URL.parse(u);
    return !x || (!x.search && !x.hash);
  }, "no query or fragment: the base URL only")
  .transform((u) => u.replace(/\/+$/, ""));
const NameSchema = z.string().trim().min(1).max(250);

/** A Reparo task (its node id or its name) → the orchestrator's name for it. */
const TaskNamesSchema = z.record(z.string().min(1), NameSchema);

export const AirflowConnectionSchema = z
  .object({
    kind: z.literal("airflow"),
    /** The API server, e.g. https://airflow.example.com (the REST API is under /api/v2). */
    baseUrl: BaseUrlSchema,
    /**
     * With `username`: the password, exchanged at the auth manager's `POST /auth/token` for a JWT
     * (again when it expires). Without: the JWT itself.
     */
    credentials: SecretRefSchema,
    username: NameSchema.optional(),
    /** The DAG of the pipeline's tasks when their OpenLineage job names are not `dag_id.task_id`. */
    dagId: NameSchema.optional(),
    /** Per task: `dag_id.task_id` or a bare task id (in `dagId`), when the default mapping is wrong. */
    tasks: TaskNamesSchema.default({}),
  })
  .strict();

export const DagsterConnectionSchema = z
  .object({
    kind: z.literal("dagster"),
    /** The webserver, e.g. http://dagster.internal:3000 (GraphQL at /graphql). */
    baseUrl: BaseUrlSchema,
    /** Dagster+ user token (sent as Dagster-Cloud-Api-Token); none for an open OSS webserver. */
    credentials: SecretRefSchema.optional(),
    /** Per task: its asset key as a path ("analytics/fct_orders"); default: the task's name split on "/". */
    assets: TaskNamesSchema.default({}),
  })
  .strict();

export const DatabricksConnectionSchema = z
  .object({
    kind: z.literal("databricks"),
    /** The workspace, e.g. https://adb-1234567890123456.7.azuredatabricks.net */
    baseUrl: BaseUrlSchema,
    /** A workspace (personal access or service principal) token. */
    credentials: SecretRefSchema,
    /** The job run to repair, when ingested run facets do not name it. */
    jobRunId: z.number().int().positive().optional(),
    /** Per task: its task_key in the job; default: the task's name. */
    tasks: TaskNamesSchema.default({}),
    /** The job parameter carrying the units to recompute, as JSON {task_key: ["lo..hi", …]}. */
    unitsParameter: NameSchema.default("reparo_units"),
  })
  .strict();

export const DbtConnectionSchema = z
  .object({
    kind: z.literal("dbt"),
    /** The dbt project directory on the machine the operator runs dbt from (shown in the command). */
    projectDir: NameSchema.optional(),
    target: NameSchema.optional(),
    /** The dbt var that carries the units of models not partitioned by time (`--vars '{reparo_units: …}'`). */
    unitsVar: NameSchema.default("reparo_units"),
    /** Per task: its dbt selector; default: the model's name. */
    tasks: TaskNamesSchema.default({}),
    /** The program the team runs dbt with (default `dbt`): `dbt-ol` reports the repair's runs as OpenLineage events. */
    executable: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_./-]{1,200}$/, "one program name or path, without spaces")
      .optional(),
    /** Words added after dbt's command, e.g. `["--consume-structured-logs"]` (dbt-ol's mode that reports microbatch batches). */
    flags: z
      .array(z.string().regex(/^-[A-Za-z0-9_./:=@+-]{1,200}$/, "a flag: starts with -, no spaces or quotes"))
      .max(20)
      .optional(),
  })
  .strict();

export const LocalConnectionSchema = z.object({ kind: z.literal("local") }).strict();
export const NoConnectionSchema = z.object({ kind: z.literal("none") }).strict();

export const OrchestratorConnectionSchema = z.discriminatedUnion("kind", [
  AirflowConnectionSchema,
  DagsterConnectionSchema,
  DatabricksConnectionSchema,
  DbtConnectionSchema,
  LocalConnectionSchema,
  NoConnectionSchema,
]);
export type OrchestratorConnection = z.infer<typeof OrchestratorConnectionSchema>;
export type AirflowConnection = z.infer<typeof AirflowConnectionSchema>;
export type DagsterConnection = z.infer<typeof DagsterConnectionSchema>;
export type DatabricksConnection = z.infer<typeof DatabricksConnectionSchema>;
export type DbtConnection = z.infer<typeof DbtConnectionSchema>;

export const PutOrchestratorBodySchema = z
  .object({
    connection: OrchestratorConnectionSchema,
    reason: reasonField,
  })
  .strict();

export const OrchestratorConnectionViewSchema = z.object({
  pipelineId: z.string(),
  /** The pipeline as its producer names it: the DAG, dbt-ol's job for the command, the code location. */
  pipeline: z.string(),
  /** The producer's namespace the pipeline's jobs are in (Airflow's OpenLineage namespace, dbt-ol's). */
  namespace: z.string(),
  connection: OrchestratorConnectionSchema,
  /** Whether the named secret is readable by this console now (its value is never shown); null for anyone but an admin. */
  secret: z.object({ name: z.string(), readable: z.boolean().nullable() }).nullable(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type OrchestratorConnectionView = z.infer<typeof OrchestratorConnectionViewSchema>;

// ---------------------------------------------------------------- preview (the dry run)

export const OrchestratorItemSchema = z.object({
  /** The orchestrator's own words: "orders.stg_orders @ 2026-08-17T00:00:00Z". */
  label: z.string(),
  taskNodeId: z.string().nullable(),
  unitKey: z.string().nullable(),
  /** A task Reparo knows has external side effects (an export, an e-mail). */
  sideEffect: z.boolean(),
});

export const PlannedRequestSchema = z.object({
  orchestrator: z.enum(ORCHESTRATOR_KINDS),
  pipeline: z.string(),
  wave: z.number().int(),
  method: z.string(),
  /** The path under the connection's base URL, or the command for an operator to run (dbt). */
  path: z.string(),
  body: z.unknown(),
  /**
   * dbt: one command that does this request's work and every later wave's in one go, when there is
   * one — `dbt retry`, when the plan is exactly the failed and skipped nodes of the failed invocation.
   */
  alternative: z.string().optional(),
});
export type PlannedRequest = z.infer<typeof PlannedRequestSchema>;

export const UnsupportedTaskSchema = z.object({
  taskNodeId: z.string(),
  name: z.string(),
  pipeline: z.string(),
  units: z.array(z.string()),
  reason: z.string(),
});

export const DispatchPreviewSchema = z.object({
  /** What the orchestrators will be sent, wave by wave (the real requests: dry_run false). */
  requests: z.array(PlannedRequestSchema),
  /** Planned tasks no request covers, each with why. Dispatching needs this empty. */
  unsupported: z.array(UnsupportedTaskSchema),
  /** What the orchestrators' own dry runs said they would run, beyond the plan… */
  extra: z.array(OrchestratorItemSchema),
  /** …and the planned pairs they would not run. */
  missing: z.array(z.object({ taskNodeId: z.string(), name: z.string(), unitKey: z.string() })),
  /** Each dry-run request with the orchestrator's answer. */
  calls: z.array(
    z.object({ orchestrator: z.string(), method: z.string(), url: z.string(), status: z.number().int().nullable(), error: z.string().nullable() }),
  ),
  /** Pass back to launch: the dispatch is refused if the dry run's answer has changed since. */
  digest: z.string(),
  dispatchable: z.boolean(),
});
export type DispatchPreview = z.infer<typeof DispatchPreviewSchema>;

export const PipelineParamsSchema = z.object({ id: z.string().trim().min(1).max(300) });
export const DryRunBodySchema = z.object({ resume: z.boolean().default(false) }).strict();

/** The plan as one orchestrator's requests, to copy (PlanView.exports). */
export const PlanExportSchema = z.object({ requests: z.array(PlannedRequestSchema), unsupported: z.array(UnsupportedTaskSchema) });
export type PlanExport = z.infer<typeof PlanExportSchema>;
