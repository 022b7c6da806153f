import type { OrchestratorConnection } from "@/lib/contracts/orchestrators";
import { airflowOrchestrator } from "./airflow";
import { dagsterOrchestrator } from "./dagster";
import { databricksOrchestrator } from "./databricks";
import { localOrchestrator, type LocalRunContext } from "./local";
import type { Orchestrator } from "./port";

/**
 * The adapter for a pipeline's connection; null for `none` (and for dbt, whose repair is a
 * command the operator runs: exported, not dispatched). `local` runs pairs only inside a
 * repair run (`run` given); outside one it can still list what it cannot run.
 */
export function orchestratorFor(connection: OrchestratorConnection, run: LocalRunContext | null): Orchestrator | null {
  switch (connection.kind) {
    case "airflow": return airflowOrchestrator(connection);
    case "dagster": return dagsterOrchestrator(connection);
    case "databricks": return databricksOrchestrator(connection);
    case "local": return localOrchestrator(run);
    case "dbt":
    case "none": return null;
  }
}
