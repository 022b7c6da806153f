/**
 * Client settings for the common OpenLineage producers, pointed at this console. Checked against
 * the Airflow provider's configuration reference, the OpenLineage Python client (dbt-ol) and the
 * Spark integration's `spark.openlineage.*` settings; see docs/ingestion.md.
 */
export interface ClientConfig {
  id: string;
  title: string;
  text: string;
}

/** Where each snippet puts the producer's ingest token (npm run tokens -- create <name> --scope ingest). */
const TOKEN = "<ingest token>";

export function clientConfigs(origin: string): ClientConfig[] {
  const transport = JSON.stringify({ type: "http", url: origin, endpoint: "api/v1/lineage", auth: { type: "api_key", apiKey: TOKEN } });
  return [
    {
      id: "airflow",
      title: "Airflow (apache-airflow-providers-openlineage)",
      text: `AIRFLOW__OPENLINEAGE__NAMESPACE=my-airflow\nAIRFLOW__OPENLINEAGE__TRANSPORT='${transport}'`,
    },
    {
      id: "dbt",
      title: "dbt-ol (openlineage-dbt)",
      text: `OPENLINEAGE_URL=${origin}\nOPENLINEAGE_ENDPOINT=api/v1/lineage\nOPENLINEAGE_NAMESPACE=my-dbt\nOPENLINEAGE_API_KEY=${TOKEN}\ndbt-ol run`,
    },
    {
      id: "spark",
      title: "Spark (openlineage-spark)",
      text: [
        "--conf spark.extraListeners=io.openlineage.spark.agent.OpenLineageSparkListener",
        "--conf spark.openlineage.transport.type=http",
        `--conf spark.openlineage.transport.url=${origin}`,
        "--conf spark.openlineage.transport.endpoint=/api/v1/lineage",
        "--conf spark.openlineage.transport.auth.type=api_key",
        `--conf spark.openlineage.transport.auth.apiKey=${TOKEN}`,
        "--conf spark.openlineage.namespace=my-spark",
      ].join(" \\\n"),
    },
  ];
}
