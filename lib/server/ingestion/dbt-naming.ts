import { formatNodeId } from "@/lib/domain/ids";
import type { DbtNode, DbtSource } from "@/lib/contracts/ingestion-dbt";
import type { NodeRef } from "../repositories/lineage/catalog-writes";

// The scheme and default port dbt-ol puts in a dataset namespace, per adapter (openlineage-dbt's
// extract_namespace: postgres://{host}:{port}, spark://{host}:{port}, bigquery, ...). The host is in
// profiles.yml, not in the manifest, so without `datasetNamespace` the import uses localhost.
const NAMESPACES: Record<string, (host: string) => string> = {
  bigquery: () => "bigquery",
  postgres: (h) => `postgres://${h}:5432`,
  redshift: (h) => `redshift://${h}:5439`,
  spark: (h) => `spark://${h}:10001`,
  databricks: (h) => `databricks://${h}`,
  snowflake: (h) => `snowflake://${h}`,
  trino: (h) => `trino://${h}:8080`,
  clickhouse: (h) => `clickhouse://${h}:8123`,
  sqlserver: (h) => `mssql://${h}:1433`,
  duckdb: (h) => `duckdb://${h}`,
};

/** The dataset namespace to use, and a warning when it had to be guessed. */
export function datasetNamespaceOf(adapter: string, given: string | undefined): { namespace: string; warning: string | null } {
  if (given) return { namespace: given, warning: null };
  // Own keys only: `toString` or `constructor` are no adapter of the table.
  const spell = (Object.hasOwn(NAMESPACES, adapter) ? NAMESPACES[adapter] : undefined) ?? ((h: string) => `${adapter}://${h}`);
  const namespace = spell("localhost");
  if (namespace === spell("x")) return { namespace, warning: null };
  return {
    namespace,
    warning: `datasetNamespace not given: datasets are named under "${namespace}"; dbt-ol names ${adapter} datasets from profiles.yml (e.g. ${spell("<host>")}) — pass the same value so dbt import and dbt-ol events land on the same datasets`,
  };
}

/** dbt-ol's dataset name: database.schema.relation, leaving out what the adapter has not got (Spark has no database). */
export function relationName(node: DbtNode | DbtSource): string {
  const table = "identifier" in node && node.identifier ? node.identifier : "alias" in node && node.alias ? node.alias : node.name;
  return [node.database, node.schema, table].filter((p): p is string => Boolean(p)).join(".");
}

export const datasetRefOf = (namespace: string, node: DbtNode | DbtSource): NodeRef => {
  const name = relationName(node);
  return { nodeId: formatNodeId("dataset", namespace, name), namespace, name };
};

/** dbt-ol (structured logs) names a node's job by its unique id, in the OPENLINEAGE_NAMESPACE namespace. */
export const taskRefOf = (namespace: string, uniqueId: string): NodeRef => ({ nodeId: formatNodeId("job", namespace, uniqueId), namespace, name: uniqueId });

/** dbt-ol's job for the whole command — the run's pipeline. */
export const commandJobName = (project: string): string => `dbt-run-${project}`;
