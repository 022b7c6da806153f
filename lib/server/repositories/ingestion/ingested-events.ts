import { compositeKey } from "@/lib/domain/composite-key";
import { inTransaction, providerOf, type Db, type Tx } from "../database";
import { inTexts, insertNew, type Column } from "../sql/bulk-sql";
import { chunked } from "../sql/chunked";
import { log } from "../../observability/log";
import { prismaOf } from "../prisma-handle";
import { pgPoolOf } from "../../db/client";

export interface IngestedEventRow {
  eventHash: string;
  eventType: string;
  jobNodeId: string;
  externalRun: string;
  eventTime: Date;
  receivedAt: Date;
  body: string;
  /** Who sent it: token:<name> or a person's id. */
  submittedBy?: string | null;
}

const EVENT_COLUMNS: Column[] = [
  ...["id", "eventHash", "eventType", "jobNodeId", "externalRun", "body", "submittedBy"].map((name): Column => ({ name, type: "text" })),
  { name: "eventTime", type: "timestamp" },
  { name: "receivedAt", type: "timestamp" },
];

/**
 * The event's hash is its identity, so the row id is derived from it. Answers the hashes this
 * transaction stored: an event another request stored first (concurrently, or since it was read)
 * is skipped, not an error — a producer's retry is a duplicate, never a 500.
 */
export async function insertIngestedEvents(tx: Tx, rows: IngestedEventRow[]): Promise<Set<string>> {
  return new Set(
    await insertNew(
      tx,
      "IngestedEvent",
      EVENT_COLUMNS,
      rows.map((r) => ({ ...r, id: `ev_${r.eventHash.slice(0, 32)}` })),
      "eventHash",
    ),
  );
}

/**
 * Deferred folding's acceptance: stores the events and queues the ones not stored before for the
 * fold job (PendingFold); answers the hashes stored now. On PostgreSQL a request is one statement
 * whatever its size (a data-modifying WITH over one array per column: atomic, one round trip, no
 * interactive transaction, nine parameters rather than nine per event — measured, a row per
 * placeholder tuple cost the console and the database more to build, send, parse and plan than
 * the inserts themselves). SQLite (one console, no data-modifying WITH) inserts and queues in one
 * transaction.
 */
export async function acceptIngestedEvents(db: Db, rows: IngestedEventRow[], at: Date): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const idOf = (r: IngestedEventRow) => `ev_${r.eventHash.slice(0, 32)}`;
  if (providerOf(db) !== "postgresql") {
    return inTransaction(db, async (tx) => {
      const stored = await insertNew(
        tx,
        "IngestedEvent",
        EVENT_COLUMNS,
        rows.map((r) => ({ ...r, id: idOf(r) })),
        "eventHash",
      );
      await prismaOf(tx).pendingFold.createMany({ data: stored.map((eventHash) => ({ eventHash, acceptedAt: at })) });
      return new Set(stored);
    });
  }
  const column = <T>(f: (r: IngestedEventRow) => T) => rows.map(f);
  const sql = `WITH stored AS (
       INSERT INTO "IngestedEvent" ("id", "eventHash", "eventType", "jobNodeId", "externalRun", "body", "submittedBy", "eventTime", "receivedAt")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamp(3)[], $9::timestamp(3)[])
       ON CONFLICT DO NOTHING RETURNING "eventHash")
     INSERT INTO "PendingFold" ("eventHash", "acceptedAt") SELECT "eventHash", $10::timestamp(3) FROM stored RETURNING "eventHash"`;
  const params = [
    column(idOf),
    column((r) => r.eventHash),
    column((r) => r.eventType),
    column((r) => r.jobNodeId),
    column((r) => r.externalRun),
    column((r) => r.body),
    column((r) => r.submittedBy ?? null),
    column((r) => r.eventTime.toISOString()),
    column((r) => r.receivedAt.toISOString()),
    at.toISOString(),
  ];
  // On the pool directly: Prisma's raw path mapped each of a batch's bodies before sending it.
  const pool = pgPoolOf(prismaOf(db));
  const stored = pool
    ? ((await pool.query(sql, params)).rows as { eventHash: string }[])
    : await prismaOf(db).$queryRawUnsafe<{ eventHash: string }[]>(sql, ...params);
  return new Set(stored.map((r) => r.eventHash));
}

/**
 * Takes the given runs for this transaction, so a run is folded by one request at a time. Two
 * requests storing events of one run at once (its RUNNING and its COMPLETE on two consoles) would
 * otherwise each fold the run from what was committed before they began, and the later commit
 * would overwrite the earlier with a fold that misses the other's event. On PostgreSQL a
 * transaction-scoped advisory lock per run, taken in one order (no deadlock between requests
 * sharing runs) after the request's events are inserted and before any are read back: the second
 * request waits for the first to commit, then reads its events too. SQLite's write transaction
 * is already exclusive.
 */
export async function lockRuns(tx: Tx, runs: { jobNodeId: string; runId: string }[]): Promise<void> {
  if (runs.length === 0 || providerOf(tx) !== "postgresql") return;
  const keys = [...new Set(runs.map((r) => compositeKey(r.jobNodeId, r.runId)))];
  await prismaOf(tx).$queryRawUnsafe(
    `SELECT count(pg_advisory_xact_lock(k))::text AS locked FROM (SELECT DISTINCT hashtextextended(x, ${RUN_LOCK_SEED}) AS k FROM unnest($1::text[]) AS x ORDER BY k) AS runs`,
    keys,
  );
}

/**
 * Takes the lock that folds linking runs to their parents hold, one at a time across consoles,
 * before their runs' locks. A run folded before its parent was stored is rooted at the parent
 * provisionally, and the parent's fold moves it to the real root (rerootRuns); with chains of
 * three (a dbt command, its model, the model's queries) on several consoles, a fold could read a
 * provisional root another fold was moving. Folds of parentless runs never take it.
 */
export async function lockRunLinking(tx: Tx): Promise<void> {
  if (providerOf(tx) !== "postgresql") return;
  await prismaOf(tx).$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('reparo:run-linking'))::text AS locked`);
}

// Seeds the runs' lock keys away from other advisory locks (the audit chain's is a small constant).
const RUN_LOCK_SEED = 7_310_015;

/** A stored event of a run, with who sent it (`token:<name>`, a person's id, or null). */
export interface StoredRunEvent {
  jobNodeId: string;
  externalRun: string;
  body: string;
  submittedBy: string | null;
}

/**
 * The stored event bodies of the given runs (job + producer run id) other than the events
 * `besides` (the ones this request has just stored, which the caller holds parsed), to fold each
 * run whole, in the order they were received. A run seen for the first time costs one index
 * probe and no body.
 */
export async function bodiesOfRuns(tx: Tx, runs: { jobNodeId: string; runId: string }[], besides: readonly string[] = []): Promise<StoredRunEvent[]> {
  if (runs.length === 0) return [];
  const wanted = new Set(runs.map((r) => compositeKey(r.jobNodeId, r.runId)));
  const out: StoredRunEvent[] = [];
  // In chunks of runs: with a request's at most 10,000 events' hashes, a statement binds at most
  // 20,000 values (SQLite's limit is 32,766).
  for (const some of chunked(runs, 5_000)) {
    const params: unknown[] = [];
    const byRun = `${inTexts(tx, params, '"externalRun"', [...new Set(some.map((r) => r.runId))])} AND ${inTexts(tx, params, '"jobNodeId"', [...new Set(some.map((r) => r.jobNodeId))])}`;
    const notBesides = besides.length > 0 ? ` AND NOT (${inTexts(tx, params, '"eventHash"', besides)})` : "";
    const rows = await prismaOf(tx).$queryRawUnsafe<StoredRunEvent[]>(
      `SELECT "jobNodeId", "externalRun", "body", "submittedBy" FROM "IngestedEvent" WHERE ${byRun}${notBesides} ORDER BY "receivedAt", "eventTime"`,
      ...params,
    );
    out.push(...rows.filter((r) => wanted.has(compositeKey(r.jobNodeId, r.externalRun))));
  }
  return out;
}

/** The producers' (job, run id) pairs stored under the given run ids, as candidates: several jobs may share a run id. */
export async function storedRunRefs(tx: Tx, externalRunIds: string[]): Promise<{ jobNodeId: string; runId: string }[]> {
  if (externalRunIds.length === 0) return [];
  const rows = await prismaOf(tx).ingestedEvent.findMany({
    where: { externalRun: { in: [...new Set(externalRunIds)] }, eventType: { notIn: ["JOB", "DATASET"] } },
    select: { jobNodeId: true, externalRun: true },
    distinct: ["jobNodeId", "externalRun"],
  });
  return rows.map((r) => ({ jobNodeId: r.jobNodeId, runId: r.externalRun }));
}

/** Every stored run (job + producer run id) of the given jobs. */
export async function storedRunsOfJobs(tx: Tx, jobNodeIds: string[]): Promise<{ jobNodeId: string; runId: string }[]> {
  if (jobNodeIds.length === 0) return [];
  const rows = await prismaOf(tx).ingestedEvent.findMany({
    where: { jobNodeId: { in: [...new Set(jobNodeIds)] }, eventType: { notIn: ["JOB", "DATASET"] } },
    select: { jobNodeId: true, externalRun: true },
    distinct: ["jobNodeId", "externalRun"],
  });
  return rows.map((r) => ({ jobNodeId: r.jobNodeId, runId: r.externalRun }));
}

export interface RejectionRow {
  endpoint: string;
  fieldPath: string;
  reason: string;
  body: string;
}

/** The rejection log behind the ingestion page; written outside the (refused) request's transaction. */
/** Rows one request may add to the rejection log; the rest are counted in one summary row. */
export const REJECTIONS_PER_REQUEST = 100;
/** The log keeps 30 days and at most 50,000 rows (the ingestion page shows the newest). */
export const REJECTIONS_KEPT_DAYS = 30;
export const REJECTIONS_KEPT_ROWS = 50_000;
const PRUNE_EVERY_MS = 60_000;
let lastPrune = 0;

export async function recordRejections(db: Db, rows: RejectionRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  const kept = rows.slice(0, REJECTIONS_PER_REQUEST);
  if (rows.length > kept.length) {
    const first = rows[0]!;
    kept.push({
      endpoint: first.endpoint,
      fieldPath: "body",
      reason: `… and ${rows.length - kept.length} more refused items in the same request (the log keeps ${REJECTIONS_PER_REQUEST} per request)`,
      body: "",
    });
  }
  await prismaOf(db).rejectedEvent.createMany({
    data: kept.map((r) => ({ ...r, reason: r.reason.slice(0, 4_000), body: r.body.slice(0, 2_000), receivedAt: at })),
  });
  if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
    lastPrune = Date.now();
    // The row cap holds under a flood of refusals; the age is the `retention` job's.
    await pruneRejections(db, at, null).catch((e: unknown) => log.error(`pruning the rejection log failed: ${(e as Error).message}`));
  }
}

/** Drops rejections older than the kept days, then the oldest beyond the kept rows. */
export async function pruneRejections(db: Db, now: Date, keptDays: number | null = REJECTIONS_KEPT_DAYS): Promise<number> {
  const old =
    keptDays === null
      ? { count: 0 }
      : await prismaOf(db).rejectedEvent.deleteMany({ where: { receivedAt: { lt: new Date(now.getTime() - keptDays * 86_400_000) } } });
  const edge = await prismaOf(db).rejectedEvent.findFirst({
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    skip: REJECTIONS_KEPT_ROWS,
    select: { receivedAt: true },
  });
  const over = edge ? await prismaOf(db).rejectedEvent.deleteMany({ where: { receivedAt: { lte: edge.receivedAt } } }) : { count: 0 };
  return old.count + over.count;
}

export async function recentIngestedEvents(db: Db, limit: number) {
  return prismaOf(db).ingestedEvent.findMany({
    orderBy: [{ receivedAt: "desc" }, { eventTime: "desc" }],
    take: limit,
    select: { eventHash: true, eventType: true, jobNodeId: true, externalRun: true, eventTime: true, receivedAt: true, submittedBy: true },
  });
}

export async function recentRejections(db: Db, limit: number) {
  return prismaOf(db).rejectedEvent.findMany({ orderBy: { receivedAt: "desc" }, take: limit });
}

export async function ingestionCounts(db: Db): Promise<{ events: number; rejected: number }> {
  const [events, rejected] = await Promise.all([prismaOf(db).ingestedEvent.count(), prismaOf(db).rejectedEvent.count()]);
  return { events, rejected };
}

/**
 * Drops the bodies of raw events received before `before`, in chunks (a long first pass holds no
 * lock for long). The row stays, without its body: its hash still makes a re-sent copy a
 * duplicate, and its run is known to be past retention (not refolded from what remains).
 */
export async function pruneIngestedEvents(db: Db, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = (
      await prismaOf(db).ingestedEvent.findMany({ where: { receivedAt: { lt: before }, body: { not: "" } }, select: { id: true }, take: 5_000 })
    ).map((r) => r.id);
    if (ids.length === 0) return total;
    total += (await prismaOf(db).ingestedEvent.updateMany({ where: { id: { in: ids } }, data: { body: "" } })).count;
  }
}
