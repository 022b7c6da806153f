import { z } from "zod";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * Where a pipeline's source stopped reading its orchestrator (the SourceCursor table): read at
 * the start of a poll, written at its end — the new cursor after a poll that went through, only
 * the error after one that was refused (the cursor stays, so the next poll reads the same runs).
 */
export const DagsterCursorSchema = z.object({
  /** Update time (Dagster's seconds): the next poll asks for the runs changed after it. */
  after: z.number().finite().nullable(),
  /** While a backlog is read over several polls: the last run id read (Dagster pages newest-created first). */
  page: z.string().min(1).max(256).nullable(),
  /** The newest update time that backlog has read. */
  high: z.number().finite().nullable(),
  /** When (Reparo's milliseconds) that backlog's first page was asked: how long a run may have changed unseen. */
  since: z.number().finite().nullable(),
});
export type DagsterCursor = z.infer<typeof DagsterCursorSchema>;

export const START_CURSOR: DagsterCursor = { after: null, page: null, high: null, since: null };

export interface StoredSourceCursor {
  cursor: DagsterCursor;
  polledAt: Date;
  lastError: string | null;
}

export async function readSourceCursor(db: Db | Tx, pipelineId: string, source: "dagster"): Promise<StoredSourceCursor | null> {
  const row = await prismaOf(db).sourceCursor.findUnique({ where: { pipelineId_source: { pipelineId, source } } });
  if (!row) return null;
  let cursor: DagsterCursor = START_CURSOR;
  try {
    const parsed = DagsterCursorSchema.safeParse(JSON.parse(row.cursor));
    if (parsed.success) cursor = parsed.data;
  } catch {
    // An unreadable cursor reads everything again: harmless, every event read again is a duplicate.
  }
  return { cursor, polledAt: row.polledAt, lastError: row.lastError };
}

/** After a poll: its cursor (null: keep the stored one) and its error (null: it went through). */
export async function saveSourceCursor(
  db: Db | Tx,
  pipelineId: string,
  source: "dagster",
  outcome: { cursor: DagsterCursor | null; error: string | null },
  at: Date,
): Promise<void> {
  const cursor = outcome.cursor ? JSON.stringify(outcome.cursor) : undefined;
  await prismaOf(db).sourceCursor.upsert({
    where: { pipelineId_source: { pipelineId, source } },
    create: { pipelineId, source, cursor: cursor ?? JSON.stringify(START_CURSOR), polledAt: at, lastError: outcome.error, updatedAt: at },
    update: { ...(cursor ? { cursor, updatedAt: at } : {}), polledAt: at, lastError: outcome.error },
  });
}
