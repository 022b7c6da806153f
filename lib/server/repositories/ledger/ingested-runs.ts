import { compositeKey } from "@/lib/domain/composite-key";
import { recordUnitChanges } from "../units/unit-changes";
import type { Tx } from "../database";
import { bulkInsert, bulkUpdateById, inTexts, insertNew, upsertChanged, type Column } from "../sql/bulk-sql";
import { chunked } from "../sql/chunked";
import { prismaOf } from "../prisma-handle";

export interface RunRow {
  id: string;
  externalId: string;
  pipelineId: string | null;
  kind: string;
  status: string;
  rootRunId: string | null;
  parentRunId: string | null;
  codeVersion: string;
  triggeredBy: string;
  nominalTime: Date | null;
  startedAt: Date | null;
  endedAt: Date | null;
  /** JSON: what the producer said about the run beyond the columns (the Databricks job run it belongs to). */
  parameters?: string;
}

export interface AttemptRow {
  id: string;
  runId: string;
  taskId: string;
  unitKey: string;
  tryNumber: number;
  status: string;
  rowsWritten: number | null;
  error: string | null;
  codeVersion: string;
  startedAt: Date | null;
  endedAt: Date | null;
}

export interface PublishRow {
  id: string;
  datasetId: string;
  unitKey: string;
  runId: string;
  attemptId: string | null;
  publishedAt: Date;
  inputVersion: string;
  codeVersion: string;
  rowCount: number | null;
  /** Who sent it (token:<name>, a person's id); absent for the local executor. */
  submittedBy?: string | null;
}

export interface InvalidKeyRow {
  nodeId: string;
  unitKey: string;
  reason: string;
  source: string;
  runId: string | null;
  observedAt: Date;
}

/** Rows whose stored copy differs in any listed field (dates compared by instant). */
function changedRows<T extends { id: string }>(desired: T[], stored: Map<string, Record<string, unknown>>, fields: (keyof T)[]): { create: T[]; update: T[] } {
  const create: T[] = [];
  const update: T[] = [];
  for (const row of desired) {
    const old = stored.get(row.id);
    if (!old) create.push(row);
    else if (fields.some((f) => norm(old[f as string]) !== norm(row[f]))) update.push(row);
  }
  return { create, update };
}

const norm = (v: unknown) => (v instanceof Date ? v.getTime() : (v ?? null));

const RUN_FIELDS: (keyof RunRow)[] = ["pipelineId", "kind", "status", "rootRunId", "parentRunId", "codeVersion", "nominalTime", "startedAt", "endedAt"];
const RUN_COLUMNS: Column[] = RUN_FIELDS.map((name) => ({
  name,
  type: name === "nominalTime" || name === "startedAt" || name === "endedAt" ? "timestamp" : "text",
}));

/**
 * Stored run rows of the given ids (for parent/root linkage and change detection): a raw read, as
 * the fold's others are — Prisma's query compiler took a tenth of a fold step's console time
 * compiling this one read of thousands of ids.
 */
export async function runsByIds(
  tx: Tx,
  ids: string[],
): Promise<Map<string, Record<string, unknown> & { rootRunId: string | null; pipelineId: string | null }>> {
  const out = new Map<string, Record<string, unknown> & { rootRunId: string | null; pipelineId: string | null }>();
  const columns = ["id", ...RUN_FIELDS].map((f) => `"${f}"`).join(", ");
  for (const some of chunked([...new Set(ids)], 10_000)) {
    const params: unknown[] = [];
    const rows = await prismaOf(tx).$queryRawUnsafe<(Record<string, unknown> & { id: string; rootRunId: string | null; pipelineId: string | null })[]>(
      `SELECT ${columns} FROM "Run" WHERE ${inTexts(tx, params, '"id"', some)}`,
      ...params,
    );
    for (const r of rows) out.set(r.id, { ...r, nominalTime: asDate(r.nominalTime), startedAt: asDate(r.startedAt), endedAt: asDate(r.endedAt) });
  }
  return out;
}

/** A timestamp as a raw read gives it (a Date; text or epoch ms on SQLite), as a Date. */
const asDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(v as string | number));

/** Writes runs; returns how many rows were created or changed. */
export async function upsertRuns(tx: Tx, rows: RunRow[], stored: Map<string, Record<string, unknown>>): Promise<number> {
  const { create, update } = changedRows(rows, stored, RUN_FIELDS);
  await bulkInsert(
    tx,
    "Run",
    [
      { name: "id", type: "text" },
      { name: "externalId", type: "text" },
      { name: "triggeredBy", type: "text" },
      { name: "parameters", type: "text" },
      { name: "repairNumber", type: "int" },
      { name: "createdAt", type: "timestamp" },
      ...RUN_COLUMNS,
    ],
    create.map((r) => ({ ...r, parameters: r.parameters ?? "{}", repairNumber: 0, createdAt: new Date() })),
  );
  await bulkUpdateById(tx, "Run", RUN_COLUMNS, update as unknown as Record<string, unknown>[]);
  return create.length + update.length;
}

const ATTEMPT_COLUMNS: Column[] = [
  { name: "status", type: "text" },
  { name: "rowsWritten", type: "int" },
  { name: "error", type: "text" },
  { name: "codeVersion", type: "text" },
  { name: "startedAt", type: "timestamp" },
  { name: "endedAt", type: "timestamp" },
];

export async function upsertAttempts(tx: Tx, rows: AttemptRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  const written = new Set(
    await upsertChanged(
      tx,
      "Attempt",
      [
        { name: "id", type: "text" },
        { name: "runId", type: "text" },
        { name: "taskId", type: "text" },
        { name: "unitKey", type: "text" },
        { name: "tryNumber", type: "int" },
        ...ATTEMPT_COLUMNS,
      ],
      ATTEMPT_COLUMNS,
      unique as unknown as Record<string, unknown>[],
    ),
  );
  await recordUnitChanges(
    tx,
    unique.filter((a) => written.has(a.id)).map((a) => ({ taskId: a.taskId, unitKey: a.unitKey })),
  );
  return written.size;
}

const PUBLISH_COLUMNS: Column[] = [
  { name: "id", type: "text" },
  { name: "datasetId", type: "text" },
  { name: "unitKey", type: "text" },
  { name: "runId", type: "text" },
  { name: "attemptId", type: "text" },
  { name: "publishedAt", type: "timestamp" },
  { name: "inputVersion", type: "text" },
  { name: "codeVersion", type: "text" },
  { name: "rowCount", type: "int" },
  { name: "submittedBy", type: "text" },
];

/** The ledger is append-only: a publish whose id exists already is never written again. */
export async function appendPublishes(tx: Tx, rows: PublishRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  const inserted = new Set(await insertNew(tx, "Publish", PUBLISH_COLUMNS, unique as unknown as Record<string, unknown>[], "id"));
  const fresh = unique.filter((r) => inserted.has(r.id));
  await recordUnitChanges(
    tx,
    fresh.map((p) => ({ datasetId: p.datasetId, unitKey: p.unitKey })),
  );
  return fresh.length;
}

/**
 * Forgets what was derived from the given runs' stored events — their attempts, publishes and
 * rejected keys — so that folding the events again (a partition definition changed) writes them
 * under the keys the new definition gives. The events stay: they are the record these rows are
 * read from. Every unit a forgotten row stood for is logged as changed. Answers the forgotten
 * publishes' (dataset, unit) pairs, to count what moved.
 */
export async function forgetDerivedRows(tx: Tx, runIds: string[]): Promise<{ datasetId: string; unitKey: string }[]> {
  if (runIds.length === 0) return [];
  const db = prismaOf(tx);
  const forgotten: { datasetId: string; unitKey: string }[] = [];
  for (let i = 0; i < runIds.length; i += 5_000) {
    const some = runIds.slice(i, i + 5_000);
    const publishes = await db.publish.findMany({ where: { runId: { in: some } }, select: { datasetId: true, unitKey: true } });
    const attempts = await db.attempt.findMany({ where: { runId: { in: some } }, select: { taskId: true, unitKey: true } });
    await db.publish.deleteMany({ where: { runId: { in: some } } });
    await db.attempt.deleteMany({ where: { runId: { in: some } } });
    await db.invalidKey.deleteMany({ where: { runId: { in: some } } });
    await recordUnitChanges(tx, [...publishes, ...attempts]);
    forgotten.push(...publishes);
  }
  return forgotten;
}

/** The (dataset, unit) of each publish of the given runs. */
export async function publishKeysOfRuns(tx: Tx, runIds: string[]): Promise<{ datasetId: string; unitKey: string }[]> {
  const out: { datasetId: string; unitKey: string }[] = [];
  for (let i = 0; i < runIds.length; i += 5_000)
    out.push(...(await prismaOf(tx).publish.findMany({ where: { runId: { in: runIds.slice(i, i + 5_000) } }, select: { datasetId: true, unitKey: true } })));
  return out;
}

/** The keys the node's definition rejected, with the run that sent each (null: not a run's). */
export async function invalidKeysOf(tx: Tx, nodeId: string): Promise<{ id: string; unitKey: string; runId: string | null }[]> {
  return prismaOf(tx).invalidKey.findMany({ where: { nodeId }, select: { id: true, unitKey: true, runId: true } });
}

/** Forgets rejected keys that are rejected no more (the node's definition changed). */
export async function dropInvalidKeys(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length > 0) await prismaOf(tx).invalidKey.deleteMany({ where: { id: { in: ids } } });
}

/** Records keys a partition definition rejected; a key already reported for the node is kept as first seen. */
export async function reportInvalidKeys(tx: Tx, rows: InvalidKeyRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const found = await prismaOf(tx).invalidKey.findMany({
    where: { nodeId: { in: [...new Set(rows.map((r) => r.nodeId))] } },
    select: { nodeId: true, unitKey: true },
  });
  const seen = new Set(found.map((r) => compositeKey(r.nodeId, r.unitKey)));
  const fresh: InvalidKeyRow[] = [];
  for (const r of rows) {
    const key = compositeKey(r.nodeId, r.unitKey);
    if (!seen.has(key)) {
      seen.add(key);
      fresh.push(r);
    }
  }
  if (fresh.length > 0) await prismaOf(tx).invalidKey.createMany({ data: fresh });
  return fresh.length;
}

/** Runs folded under a pipeline take it, unless they already belong to one. */
export async function assignRunPipeline(tx: Tx, pipelineId: string, runIds: readonly string[]): Promise<void> {
  await prismaOf(tx).run.updateMany({ where: { id: { in: [...runIds] }, pipelineId: null }, data: { pipelineId } });
}

export interface StoredPublish {
  id: string;
  datasetNodeId: string;
  unitKey: string;
  runId: string;
  publishedAt: Date;
  inputVersion: string;
  codeVersion: string;
  rowCount: number | null;
}

/** Publishes already in the ledger under the given ids (to tell a duplicate from a conflict). */
export async function publishesByIds(tx: Tx, ids: string[]): Promise<Map<string, StoredPublish>> {
  if (ids.length === 0) return new Map();
  const rows = await prismaOf(tx).publish.findMany({ where: { id: { in: ids } }, include: { dataset: { select: { nodeId: true } } } });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        datasetNodeId: r.dataset.nodeId,
        unitKey: r.unitKey,
        runId: r.runId,
        publishedAt: r.publishedAt,
        inputVersion: r.inputVersion,
        codeVersion: r.codeVersion,
        rowCount: r.rowCount,
      },
    ]),
  );
}

/**
 * Runs stored before their parent was known took the parent as their root and the parent's job as
 * their pipeline (a dbt SQL query's run folded before its model's). Once that parent is stored
 * linked higher up, the runs rooted at it move to its root and pipeline, and so do their tasks
 * still in the provisional pipeline; a provisional pipeline left with nothing is removed. Answers
 * how many runs moved.
 */
export async function rerootRuns(tx: Tx, parents: { id: string; rootRunId: string; pipelineId: string | null }[]): Promise<number> {
  if (parents.length === 0) return 0;
  const db = prismaOf(tx);
  const byId = new Map(parents.map((p) => [p.id, p]));
  const rooted = await db.run.findMany({ where: { rootRunId: { in: [...byId.keys()] } }, select: { id: true, rootRunId: true, pipelineId: true } });
  if (rooted.length === 0) return 0;
  const provisional = new Set<string>();
  for (const [from, parent] of byId) {
    const runs = rooted.filter((r) => r.rootRunId === from);
    if (runs.length === 0) continue;
    await db.run.updateMany({ where: { id: { in: runs.map((r) => r.id) } }, data: { rootRunId: parent.rootRunId, pipelineId: parent.pipelineId } });
    if (!parent.pipelineId) continue;
    const taskIds = [
      ...new Set((await db.attempt.findMany({ where: { runId: { in: runs.map((r) => r.id) } }, select: { taskId: true } })).map((a) => a.taskId)),
    ];
    for (const old of new Set(runs.flatMap((r) => (r.pipelineId && r.pipelineId !== parent.pipelineId ? [r.pipelineId] : [])))) {
      await db.task.updateMany({ where: { id: { in: taskIds }, pipelineId: old }, data: { pipelineId: parent.pipelineId } });
      provisional.add(old);
    }
  }
  for (const id of provisional) {
    const used = await Promise.all([
      db.run.count({ where: { pipelineId: id } }),
      db.task.count({ where: { pipelineId: id } }),
      db.dataset.count({ where: { pipelineId: id } }),
      db.incident.count({ where: { pipelineId: id } }),
      db.orchestratorConnection.count({ where: { pipelineId: id } }),
    ]);
    if (used.every((n) => n === 0)) await db.pipeline.deleteMany({ where: { id } });
  }
  return rooted.length;
}
