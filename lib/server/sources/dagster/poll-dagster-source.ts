import type { DagsterConnection } from "@/lib/contracts/orchestrators";
import type { Db } from "../../repositories/database";
import type { PipelineRecord } from "../../repositories/pipelines/orchestrator-connections";
import { readSourceCursor, saveSourceCursor, START_CURSOR, type DagsterCursor } from "../../repositories/sources/source-cursors";
import { OrchestratorError, type OrchestratorCall } from "../../orchestrators/port";
import { ingestOpenLineageEvents } from "../../ingestion/ingest-openlineage-events";
import { checkEvent, type ParsedEvent } from "../../ingestion/parse-lineage-body";
import { log } from "../../observability/log";
import { nextCursor } from "./dagster-cursor";
import { readDagster } from "./read-dagster";
import { runToEvents, type OpenLineageRunEvent } from "./to-openlineage";

export interface DagsterPollResult {
  readonly pipeline: string;
  /** Runs Dagster answered (changed since the cursor), and those that ran the pipeline's assets. */
  readonly runsRead: number;
  readonly runsOfPipeline: number;
  /** Events the runs make, and how many of them were new (the rest had been stored by an earlier poll). */
  readonly events: number;
  readonly stored: number;
  readonly written: { runs: number; attempts: number; publishes: number };
  readonly calls: readonly OrchestratorCall[];
  readonly cursor: DagsterCursor;
  /** Why the poll was refused (nothing was written), or null. */
  readonly error: string | null;
}

const NOTHING = { runsRead: 0, runsOfPipeline: 0, events: 0, stored: 0, written: { runs: 0, attempts: 0, publishes: 0 } };

/**
 * One poll of a pipeline's Dagster (its orchestrator connection, the one its repairs use): the
 * runs Dagster changed since the cursor, converted to OpenLineage events (to-openlineage.ts) and
 * ingested like any producer's — runs, attempts with their errors, publishes with partition keys
 * and row counts — in ONE ingestion transaction. Every answer is checked (dagster-answers.ts)
 * before anything is converted, and every converted event against the OpenLineage spec: one
 * that does not pass refuses the whole poll — nothing is written, the cursor stays, the error is
 * stored and logged, nothing is thrown. Each request is logged (method, URL, status, ids; the
 * token is read from its named secret per request, never logged or stored). The cursor is saved
 * after the events commit: should that fail, the next poll reads the same runs again, and a
 * re-read stores nothing new (the events are the same bytes: duplicates).
 */
export async function pollDagsterSource(
  db: Db,
  pipeline: PipelineRecord,
  connection: DagsterConnection,
  now: Date,
  clock: () => number = Date.now,
): Promise<DagsterPollResult> {
  const cursor = (await readSourceCursor(db, pipeline.id, "dagster"))?.cursor ?? START_CURSOR;
  const calls: OrchestratorCall[] = [];
  try {
    const read = await readDagster(connection, pipeline, cursor, calls, clock);
    const events = read.runs.flatMap((run) =>
      runToEvents({
        pipeline,
        assets: read.assets,
        run,
        failures: read.failures.get(run.runId) ?? [],
        partitionKeysOf: (a) => read.partitionKeys.get(a) ?? null,
      }),
    );
    const outcome = await ingestOpenLineageEvents(db, checkAll(events, now), now);
    const next = nextCursor(cursor, read);
    await saveSourceCursor(db, pipeline.id, "dagster", { cursor: next, error: null }, now);
    const { runs, attempts, publishes } = outcome.written;
    const result = {
      pipeline: pipeline.name,
      runsRead: read.runsRead,
      runsOfPipeline: read.runs.length,
      events: events.length,
      stored: outcome.written.events,
    };
    if (result.stored > 0)
      log.info({ source: "dagster", ...result, runs, attempts, publishes }, `dagster source: ${result.stored} new events for ${pipeline.name}`);
    return { ...result, written: { runs, attempts, publishes }, calls, cursor: next, error: null };
  } catch (e) {
    if (e instanceof OrchestratorError) calls.push(e.call);
    const error = (e as Error).message;
    log.warn({ source: "dagster", pipeline: pipeline.name, error }, `dagster source: poll of ${pipeline.name} refused`);
    try {
      await saveSourceCursor(db, pipeline.id, "dagster", { cursor: null, error }, now);
    } catch (saving) {
      log.error({ source: "dagster", pipeline: pipeline.name, error: (saving as Error).message }, "dagster source: the poll's error could not be stored");
    }
    return { pipeline: pipeline.name, ...NOTHING, calls, cursor, error };
  } finally {
    for (const call of calls) log.info({ source: "dagster", pipeline: pipeline.name, ...call }, "dagster source request");
  }
}

/** Every event checked as /api/v1/lineage checks a producer's: one refused refuses the poll. */
function checkAll(events: OpenLineageRunEvent[], now: Date): ParsedEvent[] {
  return events.map((value, index) => {
    const json = JSON.stringify(value);
    const checked = checkEvent(value, `events[${index}]`, now, json);
    if (!checked.ok) {
      const issue = checked.issues[0];
      throw new Error(`a Dagster run makes an event Reparo refuses (${issue?.path}: ${issue?.message}): the poll is refused`);
    }
    return { index, kind: checked.kind, event: checked.event, json, raw: value } as ParsedEvent;
  });
}
