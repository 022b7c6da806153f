import type { Db, Tx } from "../db/client";
import { bulkInsert, type Column } from "./bulk-sql";

export interface IngestedEventRow {
  eventHash: string;
  eventType: string;
  jobNodeId: string;
  externalRun: string;
  eventTime: Date;
  receivedAt: Date;
  body: string;
}

export async function existingEventHashes(tx: Tx, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await tx.ingestedEvent.findMany({ where: { eventHash: { in: hashes } }, select: { eventHash: true } });
  return new Set(rows.map((r) => r.eventHash));
}

const EVENT_COLUMNS: Column[] = [
  ...["id", "eventHash", "eventType", "jobNodeId", "externalRun", "body"].map((name): Column => ({ name, type: "text" })),
  { name: "eventTime", type: "timestamp" }, { name: "receivedAt", type: "timestamp" },
];

/** The event's hash is its identity, so the row id is derived from it. */
export async function insertIngestedEvents(tx: Tx, rows: IngestedEventRow[]): Promise<void> {
  await bulkInsert(tx, "IngestedEvent", EVENT_COLUMNS, rows.map((r) => ({ ...r, id: `ev_${r.eventHash.slice(0, 32)}` })));
}

/** Every stored event body of the given runs (job + producer run id), to fold each run whole. */
export async function bodiesOfRuns(tx: Tx, runs: { jobNodeId: string; runId: string }[]): Promise<{ jobNodeId: string; externalRun: string; body: string }[]> {
  if (runs.length === 0) return [];
  const wanted = new Set(runs.map((r) => `${r.jobNodeId}\u0000${r.runId}`));
  const rows = await tx.ingestedEvent.findMany({
    where: { externalRun: { in: [...new Set(runs.map((r) => r.runId))] }, jobNodeId: { in: [...new Set(runs.map((r) => r.jobNodeId))] } },
    select: { jobNodeId: true, externalRun: true, body: true },
  });
  return rows.filter((r) => wanted.has(`${r.jobNodeId}\u0000${r.externalRun}`));
}

export interface RejectionRow {
  endpoint: string;
  fieldPath: string;
  reason: string;
  body: string;
}

/** The rejection log behind the ingestion page; written outside the (refused) request's transaction. */
export async function recordRejections(db: Db, rows: RejectionRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await db.rejectedEvent.createMany({ data: rows.map((r) => ({ ...r, body: r.body.slice(0, 2_000), receivedAt: at })) });
}

export async function recentIngestedEvents(db: Db, limit: number) {
  return db.ingestedEvent.findMany({
    orderBy: [{ receivedAt: "desc" }, { eventTime: "desc" }],
    take: limit,
    select: { eventHash: true, eventType: true, jobNodeId: true, externalRun: true, eventTime: true, receivedAt: true },
  });
}

export async function recentRejections(db: Db, limit: number) {
  return db.rejectedEvent.findMany({ orderBy: { receivedAt: "desc" }, take: limit });
}

export async function ingestionCounts(db: Db): Promise<{ events: number; rejected: number }> {
  const [events, rejected] = await Promise.all([db.ingestedEvent.count(), db.rejectedEvent.count()]);
  return { events, rejected };
}
