import { providerOf, type Db, type Tx } from "../database";
import { textList } from "../sql/bulk-sql";
import { chunked } from "../sql/chunked";
import { prismaOf } from "../prisma-handle";

/**
 * Takes the oldest pending events for this transaction and removes them from the queue: if the
 * transaction rolls back (the console dies mid-fold), they are pending again. On PostgreSQL the
 * rows another console's fold holds are skipped (FOR UPDATE SKIP LOCKED), so two consoles fold
 * disjoint events side by side; SQLite's write transaction is exclusive already.
 */
export async function claimPendingFolds(tx: Tx, limit: number): Promise<string[]> {
  const skipLocked = providerOf(tx) === "postgresql" ? " FOR UPDATE SKIP LOCKED" : "";
  const rows = await prismaOf(tx).$queryRawUnsafe<{ eventHash: string }[]>(
    `DELETE FROM "PendingFold" WHERE "seq" IN (SELECT "seq" FROM "PendingFold" ORDER BY "seq" LIMIT ${Math.max(1, Math.floor(limit))}${skipLocked}) RETURNING "eventHash"`,
  );
  return rows.map((r) => r.eventHash);
}

export interface PendingEventRow {
  eventHash: string;
  eventType: string;
  jobNodeId: string;
  externalRun: string;
  body: string;
  submittedBy: string | null;
}

/** The stored events behind claimed hashes. */
export async function eventsByHash(tx: Tx, eventHashes: readonly string[]): Promise<PendingEventRow[]> {
  const out: PendingEventRow[] = [];
  for (const some of chunked([...eventHashes], 5_000)) {
    const params: unknown[] = [];
    out.push(
      ...(await prismaOf(tx).$queryRawUnsafe<PendingEventRow[]>(
        `SELECT "eventHash", "eventType", "jobNodeId", "externalRun", "body", "submittedBy" FROM "IngestedEvent" WHERE "eventHash" IN ${textList(tx, params, some)}`,
        ...params,
      )),
    );
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
