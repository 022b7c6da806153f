import type { OrchestratorConnection } from "@/lib/contracts/orchestrators";
import { airflowOrchestrator } from "./airflow";
import { dagsterOrchestrator } from "./dagster";
import { databricksOrchestrator } from "./databricks";
import { dbtOrchestrator } from "./dbt";
import { unitOutcomesSince } from "../repositories/units/unit-outcomes";
import { localOrchestrator, type LocalRunContext } from "./local";
import type { Orchestrator } from "./port";

/**
 * The adapter for a pipeline's connection; null for `none`. `local` runs pairs, and dbt reads
 * its progress from the ledger, only inside a repair run (`run` given); outside one both still
 * say what they would run.
 */
export function orchestratorFor(connection: OrchestratorConnection, run: LocalRunContext | null): Orchestrator | null {
  switch (connection.kind) {
    case "airflow":
      return airflowOrchestrator(connection);
    case "dagster":
      return dagsterOrchestrator(connection);
    case "databricks":
      return databricksOrchestrator(connection);
    case "local":
      return localOrchestrator(run);
    case "dbt":
      return dbtOrchestrator(connection, run ? (pairs, since) => unitOutcomesSince(run.db, pairs, since) : null);
    case "none":
      return null;
  }
}
