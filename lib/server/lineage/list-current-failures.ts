import type { OpenFailure } from "@/lib/contracts/overview";
import { getDb, type Db } from "../db/client";
import { listDatasets, listEdgesAt } from "../repositories/catalog";
import { tasksWithFailedAttempts } from "../repositories/failed-attempt-tasks";
import { describeOpenFailures } from "../units/describe-open-failures";
import { loadUnitStates } from "../units/load-unit-states";

/**
 * The current failures the lineage page offers to select: units in state "failed" (latest
 * attempt failed, nothing published since) — the overview's definition, computed only for the
 * datasets written by tasks that have a failed attempt at all. The overview reads every unit of
 * every dataset (38 s and 119 MB on the 10,000-node bench lineage); this reads a handful.
 */
export async function listCurrentFailures(now: Date, db: Db = getDb()): Promise<OpenFailure[]> {
  const failing = new Set(await tasksWithFailedAttempts(db));
  if (failing.size === 0) return [];
  const [edges, datasets] = await Promise.all([listEdgesAt(db, now), listDatasets(db)]);
  const written = new Set(edges.filter((e) => e.direction === "write" && failing.has(e.taskId)).map((e) => e.datasetId));
  const datasetNodeIds = datasets.filter((d) => written.has(d.id)).map((d) => d.nodeId);
  const states = await loadUnitStates(db, now, { datasetNodeIds });
  return describeOpenFailures(db, states);
}
