import { z } from "zod";
import type { Db, Tx } from "../repositories/database";
import { latestRunParameters, pipelineRunFacts } from "../repositories/pipelines/pipeline-runs";

// What an ingested run's `parameters` may say about Databricks: the job run it belongs to.
const DatabricksRunSchema = z.object({ databricks: z.object({ jobRunId: z.number().refine(Number.isSafeInteger) }) });

/** The Databricks job run an ingested run's parameters (JSON text) name, or null when they name none. */
export function jobRunIdIn(parameters: string): number | null {
  try {
    const parsed = DatabricksRunSchema.safeParse(JSON.parse(parameters));
    return parsed.success ? parsed.data.databricks.jobRunId : null;
  } catch {
    return null;
  }
}

// How far back the pipeline's runs are looked through for one that names its job run.
const LATEST_RUNS = 20;

/**
 * The Databricks job run a repair of this pipeline repairs, as ingested run facets named it: the
 * failed run's own when it has one, else the pipeline's latest run that names one.
 */
export async function databricksJobRunOf(db: Db | Tx, pipelineId: string, failedRunId: string | null): Promise<number | null> {
  if (failedRunId) {
    const failed = await pipelineRunFacts(db, failedRunId);
    const id = failed && failed.pipelineId === pipelineId ? jobRunIdIn(failed.parameters) : null;
    if (id !== null) return id;
  }
  for (const parameters of await latestRunParameters(db, pipelineId, '"databricks"', LATEST_RUNS)) {
    const id = jobRunIdIn(parameters);
    if (id !== null) return id;
  }
  return null;
}
