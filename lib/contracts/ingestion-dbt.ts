import { z } from "zod";

/**
 * dbt artifacts as Reparo reads them: only the fields the import maps are checked, every other
 * field passes through, so manifests from dbt 0.20 (v2) to 1.8+ (v12) are all accepted.
 */
const Id = z.string().min(1, "must be a non-empty string");
const IdMap = z.record(z.string(), z.array(z.string()));

const DbtNodeSchema = z.looseObject({
  unique_id: Id,
  resource_type: Id,
  name: Id,
  database: z.string().nullish(),
  schema: z.string().nullish(),
  alias: z.string().nullish(),
  depends_on: z.looseObject({ nodes: z.array(z.string()).nullish() }).nullish(),
  config: z
    .looseObject({
      materialized: z.string().nullish(),
      unique_key: z.unknown().optional(),
      incremental_strategy: z.string().nullish(),
      meta: z.unknown().optional(),
    })
    .nullish(),
});
export type DbtNode = z.infer<typeof DbtNodeSchema>;

const DbtSourceSchema = z.looseObject({
  unique_id: Id,
  name: Id,
  database: z.string().nullish(),
  schema: z.string().nullish(),
  identifier: z.string().nullish(),
});
export type DbtSource = z.infer<typeof DbtSourceSchema>;

export const DbtManifestSchema = z.looseObject({
  metadata: z.looseObject({
    dbt_schema_version: z.string().regex(/\/manifest\/v\d+\.json$/, "must name a dbt manifest schema, like https://schemas.getdbt.com/dbt/manifest/v12.json"),
    dbt_version: z.string().nullish(),
    // Becomes the scheme of the datasets' namespace (postgres://host): a URL scheme's letters only.
    adapter_type: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9+.-]{0,62}$/, "must be a dbt adapter's name (letters, digits, + . -), like postgres or bigquery")
      .refine((v) => !(v in Object.prototype), "must be a dbt adapter's name, not a JavaScript object's property")
      .nullish(),
    project_name: z.string().nullish(),
    generated_at: z.iso.datetime({ offset: true, local: true, message: "must be an ISO-8601 date-time" }).nullish(),
    invocation_id: z.string().nullish(),
  }),
  nodes: z.record(z.string(), DbtNodeSchema),
  sources: z.record(z.string(), DbtSourceSchema).nullish(),
  parent_map: IdMap.nullish(),
  child_map: IdMap.nullish(),
});
export type DbtManifest = z.infer<typeof DbtManifestSchema>;

const TimingSchema = z.looseObject({ name: z.string(), started_at: z.string().nullish(), completed_at: z.string().nullish() });

export const DbtRunResultSchema = z.looseObject({
  unique_id: Id,
  status: Id,
  message: z.string().nullish(),
  failures: z.number().nullish(),
  timing: z.array(TimingSchema).nullish(),
  adapter_response: z.looseObject({ rows_affected: z.number().nullish() }).nullish(),
  /** Microbatch models (dbt 1.9+, run-results v6): each batch's [start, end], by outcome. */
  batch_results: z
    .looseObject({
      successful: z.array(z.tuple([z.string(), z.string()])).nullish(),
      failed: z.array(z.tuple([z.string(), z.string()])).nullish(),
    })
    .nullish(),
});
export type DbtRunResult = z.infer<typeof DbtRunResultSchema>;

export const DbtRunResultsSchema = z.looseObject({
  metadata: z.looseObject({
    dbt_schema_version: z
      .string()
      .regex(/\/run-results\/v\d+\.json$/, "must name a dbt run-results schema, like https://schemas.getdbt.com/dbt/run-results/v6.json"),
    generated_at: z.iso.datetime({ offset: true, local: true, message: "must be an ISO-8601 date-time" }),
    invocation_id: z.string().nullish(),
  }),
  results: z.array(DbtRunResultSchema),
  elapsed_time: z.number().nullish(),
  args: z.looseObject({ which: z.string().nullish() }).nullish(),
});
export type DbtRunResults = z.infer<typeof DbtRunResultsSchema>;

export const DbtImportBodySchema = z.strictObject({
  manifest: DbtManifestSchema,
  run_results: DbtRunResultsSchema.nullish(),
  /** The job namespace dbt-ol uses (OPENLINEAGE_NAMESPACE; dbt-ol's default is "default"). */
  namespace: z.string().trim().min(1).max(500).optional(),
  /** The dataset namespace dbt-ol derives from profiles.yml, e.g. postgres://host:5432 (bigquery: "bigquery"). */
  datasetNamespace: z.string().trim().min(1).max(500).optional(),
});
export type DbtImportBody = z.infer<typeof DbtImportBodySchema>;

const Counts = z.record(z.string(), z.number().int());

export const DbtImportResultSchema = z.object({
  project: z.string(),
  adapter: z.string(),
  manifestVersion: z.number().int(),
  namespace: z.string(),
  datasetNamespace: z.string(),
  pipeline: z.string(),
  warnings: z.array(z.string()),
  /** Manifest nodes by resource type (sources included); `ignored` are types that map to nothing. */
  nodes: Counts,
  ignored: Counts,
  tasks: z.number().int(),
  datasets: z.number().int(),
  dependencies: z.number().int(),
  /** Ids that parent_map, child_map or depends_on name but the manifest does not hold (a trimmed manifest). */
  dangling: z.array(z.string()),
  run: z
    .object({
      id: z.string(),
      invocationId: z.string(),
      command: z.string().nullable(),
      status: z.string(),
      attempts: Counts,
      unknownNodes: z.array(z.string()),
    })
    .nullable(),
  written: z.object({
    tasks: z.number().int(),
    datasets: z.number().int(),
    edges: z.number().int(),
    runs: z.number().int(),
    attempts: z.number().int(),
    publishes: z.number().int(),
    invalidKeys: z.number().int(),
  }),
});
export type DbtImportResult = z.infer<typeof DbtImportResultSchema>;
