import type { Db } from "../../repositories/database";
import { listConnections, listPipelines } from "../../repositories/pipelines/orchestrator-connections";
import { pollDagsterSource, type DagsterPollResult } from "./poll-dagster-source";

/**
 * The `dagster-poll` background job: every pipeline whose orchestrator connection is Dagster is
 * read from its Dagster (pollDagsterSource), one after the other. A pipeline whose poll is refused
 * does not stop the others; its error is kept with its cursor and logged. Safe to run twice at
 * once (on two consoles): what both store is the same events, the second time duplicates.
 */
export async function pollDagsterSources(db: Db, now: Date, clock: () => number = Date.now): Promise<DagsterPollResult[]> {
  const [pipelines, connections] = await Promise.all([listPipelines(db), listConnections(db)]);
  const results: DagsterPollResult[] = [];
  for (const pipeline of pipelines) {
    const connection = connections.get(pipeline.id)?.connection;
    if (connection?.kind !== "dagster") continue;
    results.push(await pollDagsterSource(db, pipeline, connection, now, clock));
  }
  return results;
}
