import { providerOf, type Db, type Tx } from "../database";
import { inTexts } from "../sql/bulk-sql";
import { chunked } from "../sql/chunked";
import { prismaOf } from "../prisma-handle";

export interface ClaimedEvent {
  eventHash: string;
  eventType: string;
  jobNodeId: string;
  externalRun: string;
  /** The body of a job or dataset event ("" when pruned by retention); null for a run event, whose run is read whole. */
  body: string | null;
  /** The body names a parent somewhere (a superset of the run events with a parent run facet). */
  mentionsParent: boolean;
  submittedBy: string | null;
}

/**
 * Takes the oldest pending events for this transaction, removes them from the queue and answers
 * what the fold needs of them, in one round trip on PostgreSQL: if the transaction rolls back (the
 * console dies mid-fold), they are pending again. On PostgreSQL the rows another console's fold
 * holds are skipped (FOR UPDATE SKIP LOCKED), so two consoles fold disjoint events side by side;
 * SQLite's write transaction is exclusive already. A run event's body is not read here: the fold
 * reads each run's events whole (bodiesOfRuns), and reading them twice cost it a second transfer
 * and a second JSON parse of every body.
 */
export async function claimPendingEvents(tx: Tx, limit: number): Promise<ClaimedEvent[]> {
  const take = Math.max(1, Math.floor(limit));
  const columns = `e."eventHash", e."eventType", e."jobNodeId", e."externalRun", e."submittedBy",
    CASE WHEN e."eventType" IN ('JOB', 'DATASET') THEN e."body" END AS "body"`;
  if (providerOf(tx) === "postgresql") {
    const rows = await prismaOf(tx).$queryRawUnsafe<ClaimedEvent[]>(
      `WITH claimed AS (
         DELETE FROM "PendingFold" WHERE "seq" IN (SELECT "seq" FROM "PendingFold" ORDER BY "seq" LIMIT ${take} FOR UPDATE SKIP LOCKED)
         RETURNING "eventHash")
       SELECT ${columns}, strpos(e."body", '"parent"') > 0 AS "mentionsParent"
       FROM claimed JOIN "IngestedEvent" e ON e."eventHash" = claimed."eventHash"`,
    );
    return rows;
  }
  const hashes = (
    await prismaOf(tx).$queryRawUnsafe<{ eventHash: string }[]>(
      `DELETE FROM "PendingFold" WHERE "seq" IN (SELECT "seq" FROM "PendingFold" ORDER BY "seq" LIMIT ${take}) RETURNING "eventHash"`,
    )
  ).map((r) => r.eventHash);
  const out: ClaimedEvent[] = [];
  for (const some of chunked(hashes, 5_000)) {
    const params: unknown[] = [];
    const rows = await prismaOf(tx).$queryRawUnsafe<(Omit<ClaimedEvent, "mentionsParent"> & { mentionsParent: number | bigint | boolean })[]>(
      `SELECT ${columns}, instr(e."body", '"parent"') > 0 AS "mentionsParent" FROM "IngestedEvent" e WHERE ${inTexts(tx, params, 'e."eventHash"', some)}`,
      ...params,
    );
    out.push(...rows.map((r) => ({ ...r, mentionsParent: Boolean(Number(r.mentionsParent)) })));
  }
  return out;
}

/** When the oldest queued event was accepted (null: nothing is queued): one probe of the queue's first row. */
export async function oldestPendingAcceptedAt(db: Db | Tx): Promise<Date | null> {
  const first = await prismaOf(db).pendingFold.findFirst({ orderBy: { seq: "asc" }, select: { acceptedAt: true } });
  return first?.acceptedAt ?? null;
}

/** How far folding is behind: events accepted and not folded yet, and the oldest one's acceptance. */
export async function pendingFoldLag(db: Db | Tx): Promise<{ events: number; oldestAcceptedAt: Date | null }> {
  // One round trip: every read of the unit states asks it.
  const lag = await prismaOf(db).pendingFold.aggregate({ _count: { _all: true }, _min: { acceptedAt: true } });
  return { events: lag._count._all, oldestAcceptedAt: lag._min.acceptedAt };
}
